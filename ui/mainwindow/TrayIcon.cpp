#include "TrayIcon.h"

#include "common/Format.h"

#include <QtWidgets/QMenu>

namespace Aile::Ui {

TrayIcon::TrayIcon(QObject *parent) : QSystemTrayIcon(parent)
{
    // The menu has no parent widget to live under; the tray icon deletes it.
    auto *menu = new QMenu;
    connect(this, &QObject::destroyed, menu, &QObject::deleteLater);
    menu->setObjectName(QStringLiteral("trayMenu"));
    QAction *show = menu->addAction(tr("Show Aile"));
    show->setObjectName(QStringLiteral("trayShow"));
    connect(show, &QAction::triggered, this, &TrayIcon::showWindowRequested);
    QAction *connectTool = menu->addAction(tr("Connect a tool…"));
    connectTool->setObjectName(QStringLiteral("trayConnectTool"));
    connect(connectTool, &QAction::triggered, this, &TrayIcon::connectToolRequested);
    menu->addSeparator();
    QAction *quit = menu->addAction(tr("Quit"));
    quit->setObjectName(QStringLiteral("trayQuit"));
    connect(quit, &QAction::triggered, this, &TrayIcon::quitRequested);
    setContextMenu(menu);
    connect(this, &QSystemTrayIcon::activated, this, [this](ActivationReason reason) {
        if (reason == Trigger || reason == DoubleClick)
            Q_EMIT showWindowRequested();
    });
    setProxyState(ProxyState::Starting, tr("Proxy starting…"));
    setSpentToday(0);
}

void TrayIcon::setProxyState(ProxyState state, const QString &text)
{
    setIcon(statusIcon(state));
    m_stateText = text;
    updateToolTip();
}

void TrayIcon::setSpentToday(double usd)
{
    m_spendText = tr("Spent today: %1").arg(Format::money(usd));
    updateToolTip();
}

QString TrayIcon::toolTipText() const
{
    return QStringLiteral("Aile\n%1\n%2").arg(m_stateText, m_spendText);
}

void TrayIcon::updateToolTip()
{
    setToolTip(toolTipText());
}

void TrayIcon::setSubscriptionLines(const QStringList &lines)
{
    QMenu *menu = contextMenu();
    qDeleteAll(m_subscriptionActions);
    m_subscriptionActions.clear();
    QAction *first = menu->actions().value(0);
    for (const QString &line : lines) {
        auto *a = new QAction(line, menu);
        a->setEnabled(false); // a reading, not a command
        a->setObjectName(QStringLiteral("traySubscription"));
        menu->insertAction(first, a);
        m_subscriptionActions << a;
    }
    if (!lines.isEmpty())
        m_subscriptionActions << menu->insertSeparator(first);
}

QStringList TrayIcon::subscriptionLines() const
{
    QStringList out;
    for (const QAction *a : m_subscriptionActions)
        if (!a->isSeparator())
            out << a->text();
    return out;
}

} // namespace Aile::Ui
