#pragma once

#include "common/StatusIcon.h"

#include <QtWidgets/QFrame>

class QLabel;
class QPushButton;

namespace Aile::Ui {

/// The strip at the top of the window: the proxy's state and address, and today's spend.
class StatusBanner : public QFrame
{
    Q_OBJECT
public:
    explicit StatusBanner(QWidget *parent = nullptr);

    void setStarting();
    void setListening(const QString &address, quint16 port);
    void setFailed(const QString &reason);
    void setStopping();
    void setSpentToday(double usd);
    /// Another engine serves this window (an `aile serve`, a team server): text names it.
    void setAttached(const QString &text);
    /// A button at the end of the strip (Take over, Use another port, Disconnect); an empty label hides it.
    void setAction(const QString &label, const QString &objectName = {});
    QPushButton *actionButton() const { return m_action; }

    ProxyState state() const { return m_state; }
    QString stateText() const;
    QString address() const { return m_address; }

private:
    void setState(ProxyState state, const QString &text);

    ProxyState m_state = ProxyState::Starting;
    QString m_address;
    QLabel *m_icon;
    QLabel *m_text;
    QLabel *m_spend;
    QPushButton *m_action;

Q_SIGNALS:
    void actionTriggered();
};

} // namespace Aile::Ui
