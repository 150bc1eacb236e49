#pragma once

#include "common/StatusIcon.h"

#include <QtWidgets/QFrame>

class QLabel;

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
};

} // namespace Aile::Ui
