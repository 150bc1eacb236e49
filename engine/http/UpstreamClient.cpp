#include "UpstreamClient.h"

#include "UpstreamConnection.h"

#include <QtCore/QLoggingCategory>

#include <algorithm>
#include <utility>

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

/// Callbacks as a listener. Each function runs from a copy (the terminal ones moved out), so one
/// that deletes its call, and with it this object, still runs to its end.
class UpstreamCall::Relay final : public UpstreamListener
{
public:
    Relay(const UpstreamCall &call, UpstreamCallbacks callbacks) : m_call(call), m_c(std::move(callbacks)) { }
    bool hearsConnected() const override { return bool(m_c.connected); }
    void handleUpstreamConnected() override
    {
        if (const auto fn = m_c.connected)
            fn();
    }
    void handleUpstreamHead() override
    {
        if (const auto fn = m_c.head)
            fn(m_call);
    }
    void handleUpstreamBody(const QByteArray &bytes) override
    {
        if (const auto fn = m_c.body)
            fn(bytes);
    }
    void handleUpstreamFinished() override
    {
        if (const auto fn = std::exchange(m_c.finished, {}))
            fn(m_call);
    }
    void handleUpstreamFailed(UpstreamError error, const QString &detail) override
    {
        if (const auto fn = std::exchange(m_c.failed, {}))
            fn(error, detail);
    }

private:
    const UpstreamCall &m_call;
    UpstreamCallbacks m_c;
};

UpstreamCall::UpstreamCall(UpstreamClient *client, UpstreamListener *listener) : m_client(client), m_listener(listener)
{
    ++client->m_liveCalls;
    m_nextLive = client->m_firstLive;
    if (m_nextLive)
        m_nextLive->m_prevLive = this;
    client->m_firstLive = this;
}

UpstreamCall::~UpstreamCall()
{
    if (m_deleted)
        *m_deleted = true;
    // The connection forgets this call (it reads m_call after every event it tells: deleting the
    // call from inside its own event is how an owner is done with it).
    if (m_connection)
        m_connection->detach();
    if (!m_client)
        return;
    if (m_noticePosted)
        m_client->dropNotices(this);
    --m_client->m_liveCalls;
    if (m_prevLive)
        m_prevLive->m_nextLive = m_nextLive;
    else
        m_client->m_firstLive = m_nextLive;
    if (m_nextLive)
        m_nextLive->m_prevLive = m_prevLive;
}

void UpstreamCall::orphan()
{
    m_client = nullptr;
    m_connection = nullptr;
    m_noticePosted = false;
}

bool UpstreamCall::payConnected()
{
    if (!m_connectedOwed)
        return true;
    m_connectedOwed = false;
    // The guard Qt's signal delivery used to be: the handler may delete this call.
    bool deleted = false;
    m_deleted = &deleted;
    m_listener->handleUpstreamConnected();
    if (deleted)
        return false;
    m_deleted = nullptr;
    return true;
}

void UpstreamCall::reportFailure(UpstreamError error, const QString &detail)
{
    if (m_done)
        return; // aborted while the report was on its way: nothing after abort()
    m_connection = nullptr;
    if (!payConnected() || m_done)
        return; // deleted or aborted by its `connected` handler
    m_done = true;
    m_listener->handleUpstreamFailed(error, detail);
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
    // A call may outlive the client (its owner goes later): it is detached, and touches nothing of it.
    for (UpstreamCall *call = m_firstLive; call;) {
        UpstreamCall *next = call->m_nextLive;
        call->orphan();
        call = next;
    }
    delete m_extraCa;
}

void UpstreamClient::addCaCertificates(const QList<QSslCertificate> &certificates)
{
    if (!m_extraCa)
        m_extraCa = new QList<QSslCertificate>;
    *m_extraCa += certificates;
}

std::unique_ptr<UpstreamCall> UpstreamClient::send(const UpstreamRequest &request, UpstreamListener &listener)
{
    return start(new UpstreamCall(this, &listener), request);
}

std::unique_ptr<UpstreamCall> UpstreamClient::send(const UpstreamRequest &request, UpstreamCallbacks callbacks)
{
    auto *call = new UpstreamCall(this, nullptr);
    call->m_relay = std::make_unique<UpstreamCall::Relay>(*call, std::move(callbacks));
    call->m_listener = call->m_relay.get();
    return start(call, request);
}

std::unique_ptr<UpstreamCall> UpstreamClient::start(UpstreamCall *call, const UpstreamRequest &request)
{
    std::unique_ptr<UpstreamCall> owned(call);
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
    // A reused connection owes `connected`: paid before the call's first other event, or from the
    // event loop to a listener that needs it at once (the proxy's own calls post nothing for it).
    if (call->m_connectedOwed && !call->m_done && call->m_listener->hearsConnected())
        post({call, false, UpstreamError::None, {}});
    return owned;
}

void UpstreamClient::post(Notice notice)
{
    notice.call->m_noticePosted = true;
    m_notices.append(std::move(notice));
    if (!m_noticesPosted) {
        m_noticesPosted = true;
        QMetaObject::invokeMethod(this, &UpstreamClient::deliverNotices, Qt::QueuedConnection);
    }
}

void UpstreamClient::deliverNotices()
{
    m_noticesPosted = false;
    // One at a time from the list itself: a handler may delete another call, which takes its own
    // notices out (dropNotices), or post new ones, which this loop delivers too.
    while (!m_notices.isEmpty()) {
        const Notice n = m_notices.takeFirst();
        UpstreamCall *call = n.call;
        call->m_noticePosted = std::any_of(m_notices.cbegin(), m_notices.cend(), [call](const Notice &o) { return o.call == call; });
        if (n.failure)
            call->reportFailure(n.error, n.detail);
        else if (!call->m_done)
            call->payConnected();
    }
}

void UpstreamClient::dropNotices(UpstreamCall *call)
{
    m_notices.removeIf([call](const Notice &n) { return n.call == call; });
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
