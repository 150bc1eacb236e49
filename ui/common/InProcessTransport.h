#pragma once

#include "ManagementTransport.h"

#include <QtCore/QHash>
#include <QtCore/QPointer>

namespace Aile {
class EngineHost;
}

namespace Aile::Ui {

/// The embedded engine's management API: EngineHost::manage queues the call onto the engine
/// thread and managementReplied brings the answer back. This is the one place that matches the
/// answers to the calls. Without a host every call answers 0 ("the proxy is not running").
class InProcessTransport : public IManagementTransport
{
    Q_OBJECT
public:
    explicit InProcessTransport(EngineHost *host, QObject *parent = nullptr);

    void send(const QString &method, const QString &path, const QByteArray &body, QObject *context, Done done) override;
    int pending() const override { return int(m_pending.size()); }
    void watchTraces() override;
    bool pushesStatus() const override { return m_host != nullptr; }

private:
    void handleReply(quint64 id, int status, const QByteArray &body);

    struct Pending
    {
        QPointer<QObject> context;
        bool hasContext = false;
        Done done;
    };
    EngineHost *m_host;
    QHash<quint64, Pending> m_pending;
    bool m_watching = false;
};

} // namespace Aile::Ui
