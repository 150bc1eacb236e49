#include "TraceStream.h"

#include "ManagementApi.h"
#include "http/HttpExchange.h"
#include "store/TraceSink.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QLoggingCategory>
#include <QtCore/QTimer>

Q_LOGGING_CATEGORY(lcTraceStream, "aile.engine.api.stream")

namespace Aile::Api {

TraceStream::TraceStream(Store::TraceSink *sink, QObject *parent) : QObject(parent), m_keepAlive(new QTimer(this))
{
    connect(sink, &Store::TraceSink::tracesRecorded, this, &TraceStream::publish);
    m_keepAlive->setInterval(KeepAliveMs);
    connect(m_keepAlive, &QTimer::timeout, this, &TraceStream::keepAlive);
}

TraceStream::~TraceStream() = default;

TraceStream::Subscriber::Subscriber(TraceStream &stream, Http::HttpExchange *exchange) : stream(stream), exchange(exchange)
{
    exchange->setListener(this);
}

TraceStream::Subscriber::~Subscriber()
{
    if (exchange && exchange->listener() == this)
        exchange->setListener(nullptr);
}

void TraceStream::Subscriber::exchangeEnded()
{
    exchange = nullptr;
    stream.forget(this);
}

QByteArray TraceStream::event(const QList<Store::TraceRecord> &traces)
{
    QJsonArray data;
    for (const Store::TraceRecord &t : traces)
        data.append(t.toJson());
    return "event: traces\ndata: " + QJsonDocument(data).toJson(QJsonDocument::Compact) + "\n\n";
}

void TraceStream::attach(Http::HttpExchange *exchange)
{
    if (exchange->request().method != "GET") {
        Http::HttpHeaders headers;
        headers.add("content-type", "application/json");
        headers.add("allow", "GET");
        exchange->respond(405, headers,
                          QJsonDocument(managementError(QStringLiteral("%1 takes GET").arg(QString::fromLatin1(exchange->request().path))))
                              .toJson(QJsonDocument::Compact));
        return;
    }
    if (int(m_subscribers.size()) >= MaxSubscribers) {
        Http::HttpHeaders headers;
        headers.add("content-type", "application/json");
        headers.add("retry-after", "30");
        exchange->respond(503, headers,
                          QJsonDocument(managementError(QStringLiteral("%1 live trace streams are open already, the most this engine serves; close "
                                                                       "a window attached to it (or another stream) and try again")
                                                            .arg(MaxSubscribers)))
                              .toJson(QJsonDocument::Compact));
        return;
    }
    Http::HttpHeaders headers;
    headers.add("content-type", "text/event-stream");
    headers.add("cache-control", "no-store");
    exchange->startStream(200, headers);
    // The first bytes say the stream is live, so a client can tell "attached" from "connecting".
    exchange->writeChunk("event: ready\ndata: {}\n\n");
    m_subscribers.push_back(std::make_unique<Subscriber>(*this, exchange));
    if (!m_keepAlive->isActive())
        m_keepAlive->start();
    qCDebug(lcTraceStream) << "live trace stream opened;" << m_subscribers.size() << "open";
}

void TraceStream::publish(const QList<Store::TraceRecord> &traces)
{
    if (m_subscribers.empty() || traces.isEmpty())
        return;
    const QByteArray bytes = event(traces);
    for (const auto &s : m_subscribers) {
        s->queued.append({bytes, int(traces.size())});
        // A subscriber that does not read keeps a bounded backlog: the oldest batches go first.
        while (s->queued.size() > MaxQueuedBatches)
            s->skipped += s->queued.takeFirst().traces;
        flush(*s);
    }
}

void TraceStream::flush(Subscriber &s)
{
    if (!s.exchange || s.exchange->isFinished())
        return;
    const auto full = [&s] { return s.exchange->pendingBytes() >= Http::HttpExchange::HighWaterBytes; };
    if (s.skipped > 0 && !full()) {
        s.exchange->writeChunk("event: skipped\ndata: {\"traces\":" + QByteArray::number(s.skipped) + "}\n\n");
        s.skipped = 0;
    }
    while (!s.queued.isEmpty() && !full())
        s.exchange->writeChunk(s.queued.takeFirst().bytes);
}

void TraceStream::keepAlive()
{
    for (const auto &s : m_subscribers)
        if (s->exchange && !s->exchange->isFinished() && s->queued.isEmpty())
            s->exchange->writeChunk(": keep-alive\n\n");
}

// Deletes the subscriber: called from inside its own exchange's calls too, after which the
// exchange touches it no more.
void TraceStream::forget(const Subscriber *subscriber)
{
    std::erase_if(m_subscribers, [subscriber](const auto &s) { return s.get() == subscriber; });
    if (m_subscribers.empty())
        m_keepAlive->stop();
}

void TraceStream::finishAll()
{
    auto subscribers = std::move(m_subscribers);
    m_subscribers.clear();
    m_keepAlive->stop();
    for (const auto &s : subscribers)
        if (s->exchange && !s->exchange->isFinished())
            s->exchange->finishStream();
}

} // namespace Aile::Api
