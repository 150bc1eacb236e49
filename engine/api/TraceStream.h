#pragma once

#include "http/HttpExchange.h"
#include "store/TraceRecord.h"

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QObject>

#include <memory>
#include <vector>

class QTimer;

namespace Aile {
namespace Store {
class TraceSink;
}

namespace Api {

/// GET /admin/traces/stream: the finished requests as server-sent events, in the batches the
/// trace sink announces to the embedded window (about one every 100 ms), so a window attached to
/// this engine over HTTP sees its Traces as they happen (docs/management-api.md, "Live traces").
///
/// Bounded both ways: at most MaxSubscribers streams at once (more get 503), and a subscriber
/// that does not read keeps at most MaxQueuedBatches batches; older ones are dropped and counted,
/// and a "skipped" event tells the subscriber to read its page again once it catches up.
class TraceStream : public QObject
{
    Q_OBJECT
public:
    static constexpr int MaxSubscribers = 8;
    static constexpr int MaxQueuedBatches = 50; // about five seconds of batches
    static constexpr int KeepAliveMs = 15'000;  // a comment line, so idle proxies do not cut the stream

    explicit TraceStream(Store::TraceSink *sink, QObject *parent = nullptr);
    ~TraceStream() override;

    static bool handles(const QByteArray &path) { return path == "/admin/traces/stream"; }
    /// Takes an authenticated request for the stream: answers 405/503 itself, or starts the stream.
    void attach(Http::HttpExchange *exchange);
    /// Ends every stream cleanly (the engine stopping).
    void finishAll();
    int subscribers() const { return int(m_subscribers.size()); }

    /// One batch as the stream sends it: "event: traces" with a JSON array of trace objects.
    static QByteArray event(const QList<Store::TraceRecord> &traces);

private:
    struct Queued
    {
        QByteArray bytes;
        int traces = 0;
    };
    /// One open stream, its exchange's listener: it is forgotten when the client leaves or the
    /// exchange goes, and detaches from the exchange when the stream forgets it first.
    struct Subscriber final : Http::ExchangeListener
    {
        Subscriber(TraceStream &stream, Http::HttpExchange *exchange);
        ~Subscriber();
        void exchangeDrained() override { stream.flush(*this); }
        void exchangeClientGone() override { stream.forget(this); }
        void exchangeEnded() override;

        TraceStream &stream;
        Http::HttpExchange *exchange; // null once it is deleted
        QList<Queued> queued;
        int skipped = 0; // traces dropped since the subscriber fell behind
    };
    void publish(const QList<Store::TraceRecord> &traces);
    void flush(Subscriber &subscriber);
    void keepAlive();
    void forget(const Subscriber *subscriber);

    std::vector<std::unique_ptr<Subscriber>> m_subscribers;
    QTimer *m_keepAlive;
};

} // namespace Api
} // namespace Aile
