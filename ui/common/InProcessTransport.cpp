#include "InProcessTransport.h"

#include "host/EngineHost.h"

#include <QtCore/QTimer>

namespace Aile::Ui {

InProcessTransport::InProcessTransport(EngineHost *host, QObject *parent) : IManagementTransport(parent), m_host(host)
{
    if (m_host) {
        connect(m_host, &EngineHost::managementReplied, this, &InProcessTransport::handleReply);
        connect(m_host, &EngineHost::statusChanged, this, &IManagementTransport::statusChanged);
    }
}

void InProcessTransport::watchTraces()
{
    if (m_host && !m_watching)
        connect(m_host, &EngineHost::tracesRecorded, this, &IManagementTransport::tracesRecorded);
    m_watching = true;
}

void InProcessTransport::send(const QString &method, const QString &path, const QByteArray &body, QObject *context, Done done)
{
    if (!m_host) {
        // Answered on the next turn of the event loop, as a real answer would be.
        QTimer::singleShot(0, context ? context : this, [done = std::move(done)] { done(0, {}); });
        return;
    }
    const quint64 id = m_host->manage(method, path, body);
    m_pending.insert(id, Pending{QPointer<QObject>(context), context != nullptr, std::move(done)});
}

void InProcessTransport::handleReply(quint64 id, int status, const QByteArray &body)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return; // a call of another transport on the same host
    const Pending pending = it.value();
    m_pending.erase(it);
    if (pending.hasContext && pending.context.isNull())
        return;
    pending.done(status, body);
}

} // namespace Aile::Ui
