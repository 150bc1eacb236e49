#include "NodePinger.h"

#include "catalog/Sharer.h"
#include "health/NodeBook.h"
#include "http/UpstreamClient.h"
#include "host/EngineContext.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QLoggingCategory>

Q_LOGGING_CATEGORY(lcNodes, "aile.nodes")

namespace Aile {

NodePinger::NodePinger(EngineContext &context, QObject *parent) : QObject(parent), m_ctx(context) { }

NodePinger::~NodePinger() = default; // a ping still in flight is aborted with its call: nobody is told

void NodePinger::start()
{
    tick();
}

void NodePinger::tick()
{
    for (const Catalog::Sharer &s : m_ctx.sharers)
        if (s.provider == Health::nodeProvider() && !s.blocked)
            ping(s.handle);
    m_next.start(m_ctx.clock, Health::NodeBook::PingIntervalMs, this, [this] { tick(); });
}

void NodePinger::ping(const QString &handle)
{
    if (!m_ctx.upstream || !m_ctx.nodes || m_inFlight.count(handle))
        return; // one ping per node at a time: a ping still unanswered is already silence
    const Catalog::Sharer *s = m_ctx.sharer(handle);
    const QString secret = m_ctx.credentials.value(handle);
    if (!s || secret.isEmpty() || s->baseUrl.isEmpty())
        return;
    QString base = s->baseUrl;
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    Http::UpstreamRequest r;
    r.method = "GET";
    r.url = QUrl(base + QStringLiteral("/v1/models"), QUrl::StrictMode);
    r.headers.add("authorization", "Bearer " + secret.toUtf8());
    r.headers.add("accept", "application/json");
    r.connectTimeoutMs = m_ctx.settings.connectTimeoutMs;
    auto body = std::make_shared<QByteArray>();
    Http::UpstreamCallbacks callbacks;
    callbacks.body = [body](const QByteArray &bytes) {
        if (body->size() < 4 * 1024 * 1024)
            body->append(bytes);
    };
    callbacks.finished = [this, handle, body](const Http::UpstreamCall &call) {
        const int status = call.status();
        m_inFlight.erase(handle); // deletes the call: this function runs from a copy of its own
        // Any answer is a message from the node; only a listing says what it serves.
        const bool ok = status == 200;
        const qint64 now = m_ctx.clock->nowMs();
        if (!m_ctx.nodes)
            return;
        if (ok)
            m_ctx.nodes->setListing(handle, Health::NodeBook::parseListing(QJsonDocument::fromJson(*body).object()), now);
        else {
            m_ctx.nodes->heard(handle, now);
            qCInfo(lcNodes) << "node" << handle << "answered its ping with" << status;
        }
        Q_EMIT pinged(handle, ok);
    };
    callbacks.failed = [this, handle](Http::UpstreamError, const QString &detail) {
        m_inFlight.erase(handle);
        qCInfo(lcNodes) << "node" << handle << "did not answer its ping:" << detail;
        Q_EMIT pinged(handle, false);
    };
    m_inFlight[handle] = m_ctx.upstream->send(r, std::move(callbacks));
}

} // namespace Aile
