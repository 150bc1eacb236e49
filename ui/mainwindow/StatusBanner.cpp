#include "StatusBanner.h"

#include "common/Format.h"

#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QStyle>

namespace Aile::Ui {

StatusBanner::StatusBanner(QWidget *parent)
    : QFrame(parent), m_icon(new QLabel(this)), m_text(new QLabel(this)), m_spend(new QLabel(this)), m_action(new QPushButton(this))
{
    setObjectName(QStringLiteral("statusBanner"));
    setFrameShape(QFrame::StyledPanel);
    m_icon->setObjectName(QStringLiteral("proxyStateIcon"));
    m_text->setObjectName(QStringLiteral("proxyStatus"));
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_text->setAccessibleName(tr("Proxy status"));
    m_text->setWordWrap(true);
    QFont bold = m_text->font();
    bold.setBold(true);
    m_text->setFont(bold);
    m_spend->setObjectName(QStringLiteral("spentToday"));
    m_spend->setAccessibleName(tr("Spent today"));
    m_icon->setAccessibleName(tr("Proxy state"));

    auto *layout = new QHBoxLayout(this);
    layout->addWidget(m_icon);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_spend);
    layout->addWidget(m_action);
    m_action->hide();
    connect(m_action, &QPushButton::clicked, this, &StatusBanner::actionTriggered);
    setStarting();
    setSpentToday(0);
}

void StatusBanner::setState(ProxyState state, const QString &text)
{
    m_state = state;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(statusIcon(state).pixmap(size, size));
    m_text->setText(text);
    m_icon->setAccessibleDescription(text);
}

void StatusBanner::setStarting()
{
    setState(ProxyState::Starting, tr("Proxy starting…"));
}

void StatusBanner::setListening(const QString &address, quint16 port)
{
    m_address = QStringLiteral("%1:%2").arg(address).arg(port);
    setState(ProxyState::Listening, tr("Proxy listening on %1").arg(m_address));
}

void StatusBanner::setFailed(const QString &reason)
{
    setState(ProxyState::Failed, tr("Proxy failed to start: %1").arg(reason));
}

void StatusBanner::setStopping()
{
    setState(ProxyState::Stopping, tr("Proxy stopping…"));
}

void StatusBanner::setAttached(const QString &text)
{
    setState(ProxyState::Listening, text);
}

void StatusBanner::setAction(const QString &label, const QString &objectName)
{
    m_action->setText(label);
    m_action->setObjectName(objectName.isEmpty() ? QStringLiteral("bannerAction") : objectName);
    m_action->setVisible(!label.isEmpty());
}

void StatusBanner::setSpentToday(double usd)
{
    m_spend->setText(tr("Today: %1").arg(Format::money(usd)));
}

QString StatusBanner::stateText() const
{
    return m_text->text();
}

} // namespace Aile::Ui
