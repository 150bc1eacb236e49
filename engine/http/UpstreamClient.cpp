#include "UpstreamClient.h"

#include "UpstreamConnection.h"

#include <QtCore/QLoggingCategory>
#include <QtCore/QMetaMethod>

Q_LOGGING_CATEGORY(lcUpstream, "aile.engine.upstream")

namespace Aile::Http {

QString upstreamErrorName(UpstreamError error)
{
    switch (error) {
    case UpstreamError::None: return QStringLiteral("none");
    case UpstreamError::ConnectFailed: return QStringLiteral("connect_failed");
    case UpstreamError::ConnectTimeout: return QStringLiteral("connect_timeout");
    case UpstreamError::TlsFailed: return QStringLiteral("tls_failed");
    case UpstreamError::ClosedBeforeHead: return QStringLiteral("closed_before_head");
    case UpstreamError::ClosedMidBody: return QStringLiteral("closed_mid_body");
    case UpstreamError::Protocol: return QStringLiteral("protocol_error");
    case UpstreamError::Aborted: return QStringLiteral("aborted");
    case UpstreamError::OutOfMemory: return QStringLiteral("out_of_memory");
    }
    return QStringLiteral("unknown");
}

namespace {
QString originOf(const QUrl &url)
{
    return url.scheme() + QLatin1String("://") + url.host() + QLatin1Char(':')
           + QString::number(url.port(url.scheme() == QLatin1String("https") ? 443 : 80));
}
} // namespace

// ---- UpstreamCall ------------------------------------------------------------------------------

UpstreamCall::UpstreamCall(UpstreamClient *client, QObject *parent) : QObject(parent), m_client(client)
{
    ++client->m_liveCalls;
}

UpstreamCall::~UpstreamCall()
{
    if (!m_done && m_connection)
        m_connection->detach();
    if (m_client)
        --m_client->m_liveCalls;
}

void UpstreamCall::connectNotify(const QMetaMethod &signal)
{
    // A reused connection owes `connected` (see UpstreamConnection::start); it is posted only for a
    // caller that listens to it, so the proxy's own calls cost no event for it.
    if (m_connectedOwed && signal == QMetaMethod::fromSignal(&UpstreamCall::connected))
        QMetaObject::invokeMethod(this, &UpstreamCall::payConnected, Qt::QueuedConnection);
}

void UpstreamCall::payConnected()
{
    if (!m_connectedOwed)
        return;
    m_connectedOwed = false;
    Q_EMIT connected();
}

void UpstreamCall::reportFailure(UpstreamError error, const QString &detail)
{
    if (m_done)
        return; // aborted while the report was on its way: no signal after abort()
    m_done = true;
    payConnected();
    Q_EMIT failed(error, detail);
}

void UpstreamCall::abort()
{
    if (m_done)
        return;
    m_done = true;
    if (m_connection)
        m_connection->detach();
    m_connection = nullptr;
}

void UpstreamCall::pauseReading()
{
    if (m_connection)
        m_connection->pause();
}

void UpstreamCall::resumeReading()
{
    if (m_connection)
        m_connection->resume();
}

// ---- UpstreamClient ----------------------------------------------------------------------------

UpstreamClient::UpstreamClient(Clock *clock, QObject *parent) : QObject(parent), m_clock(clock) { }

UpstreamClient::~UpstreamClient()
{
    // Each connection counts itself out of m_open: delete them while this is still an
    // UpstreamClient, not later from ~QObject (UBSan: member access in a destroyed object).
    qDeleteAll(findChildren<UpstreamConnection *>(Qt::FindDirectChildrenOnly));
    delete m_extraCa;
}

void UpstreamClient::addCaCertificates(const QList<QSslCertificate> &certificates)
{
    if (!m_extraCa)
        m_extraCa = new QList<QSslCertificate>;
    *m_extraCa += certificates;
}

UpstreamCall *UpstreamClient::send(const UpstreamRequest &request, QObject *owner)
{
    auto *call = new UpstreamCall(this, owner);
    const QString origin = originOf(request.url);
    const qint64 now = m_clock->nowMs();
    UpstreamConnection *connection = nullptr;
    while (UpstreamConnection *idle = m_idle.take(origin)) {
        if (idle->isReusable(now, m_idleKeepAliveMs)) {
            connection = idle;
            break;
        }
        idle->deleteLater();
    }
    if (!connection)
        connection = new UpstreamConnection(this, request.url, origin);
    connection->start(call, request);
    return call;
}

void UpstreamClient::release(UpstreamConnection *connection)
{
    connection->idleSinceMs = m_clock->nowMs();
    m_idle.insert(connection->origin, connection);
    // Closed when too old to reuse, not at the next send: an idle engine holds no upstream sockets.
    // One deadline for the pool rather than one per released connection (a timer set and cancelled
    // per request): the pool's oldest connection is the first to expire, and releases come in time order.
    if (!m_idleSweep.isActive())
        m_idleSweep.start(m_clock, m_idleKeepAliveMs, this, [this] { closeIdleTooOld(); });
}

void UpstreamClient::closeIdleTooOld()
{
    const qint64 now = m_clock->nowMs();
    qint64 oldest = -1;
    for (auto it = m_idle.begin(); it != m_idle.end();) {
        UpstreamConnection *connection = it.value();
        if (now - connection->idleSinceMs >= m_idleKeepAliveMs) {
            it = m_idle.erase(it);
            connection->deleteLater();
            continue;
        }
        oldest = oldest < 0 ? connection->idleSinceMs : qMin(oldest, connection->idleSinceMs);
        ++it;
    }
    if (oldest >= 0)
        m_idleSweep.start(m_clock, oldest + m_idleKeepAliveMs - now, this, [this] { closeIdleTooOld(); });
}

void UpstreamClient::forget(UpstreamConnection *connection)
{
    m_idle.remove(connection->origin, connection);
    connection->deleteLater();
}

} // namespace Aile::Http
