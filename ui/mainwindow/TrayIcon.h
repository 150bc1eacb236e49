#pragma once

#include "common/StatusIcon.h"

#include <QtWidgets/QSystemTrayIcon>

class QAction;

namespace Aile::Ui {

/// The tray icon: the proxy's state in its colour, today's spend in the tooltip, and a menu to
/// show the window, connect a tool or quit.
class TrayIcon : public QSystemTrayIcon
{
    Q_OBJECT
public:
    explicit TrayIcon(QObject *parent = nullptr);

    void setProxyState(ProxyState state, const QString &text);
    void setSpentToday(double usd);
    QString toolTipText() const;
    /// The subscriptions' windows and where each tool's next request goes (SubscriptionWatch),
    /// as disabled lines at the top of the menu; an empty list removes them.
    void setSubscriptionLines(const QStringList &lines);
    QStringList subscriptionLines() const;

Q_SIGNALS:
    void showWindowRequested();
    void connectToolRequested();
    void quitRequested();

private:
    void updateToolTip();

    QString m_stateText;
    QString m_spendText;
    QList<QAction *> m_subscriptionActions;
};

} // namespace Aile::Ui
