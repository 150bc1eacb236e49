// The live trace stream's bounds (GET /admin/traces/stream, docs/management-api.md "Live traces"):
// a reader that stops reading keeps at most TraceStream::MaxQueuedBatches batches behind; older
// ones are dropped and counted, and once it reads again a "skipped" event says how many traces it
// missed before the newest batches arrive. Meanwhile the engine answers everyone else, and past
// TraceStream::MaxSubscribers streams the next one is refused with 503 and the reason.
#include "api/TraceStream.h"
#include "http/HttpExchange.h"
#include "host/EngineContext.h"
#include "store/TraceSink.h"

#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include <sys/ioctl.h>

#include <memory>

using namespace Aile;
using namespace Aile::Test;

namespace {

/// A raw stream reader: the request line and headers by hand, the answer kept as it came.
struct StreamReader
{
    QTcpSocket socket;
    QByteArray got;

    bool open(quint16 port)
    {
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (!socket.waitForConnected(2000))
            return false;
        socket.write("GET /admin/traces/stream HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port) + "\r\nAuthorization: Bearer " + AdminToken
                     + "\r\n\r\n");
        // The engine runs on this thread: wait through the event loop, never a blocking read.
        return QTest::qWaitFor([this] { return (got += socket.readAll()).contains("event: ready\n"); }, 5000);
    }
    /// Bytes the kernel holds for this socket, not read by anyone yet.
    qint64 unreadInKernel() const
    {
        int n = 0;
        ioctl(int(socket.socketDescriptor()), FIONREAD, &n);
        return n;
    }
};

/// The chunked body of a stream, without its chunk framing.
QByteArray dechunk(const QByteArray &response)
{
    QByteArray body;
    qsizetype at = response.indexOf("\r\n\r\n");
    if (at < 0)
        return body;
    at += 4;
    while (at < response.size()) {
        const qsizetype lineEnd = response.indexOf("\r\n", at);
        if (lineEnd < 0)
            break;
        bool ok = false;
        const qsizetype size = response.mid(at, lineEnd - at).toLongLong(&ok, 16);
        if (!ok || size == 0 || lineEnd + 2 + size > response.size())
            break;
        body += response.mid(lineEnd + 2, size);
        at = lineEnd + 2 + size + 2;
    }
    return body;
}

struct StreamEvents
{
    QStringList traceIds; // in the order they arrived
    QList<int> skipped;   // each "skipped" event's count
    int skippedAt = -1;   // how many traces had arrived when the (first) skipped event came
};

StreamEvents parse(const QByteArray &body)
{
    StreamEvents out;
    for (qsizetype at = 0, end = 0; (end = body.indexOf("\n\n", at)) >= 0; at = end + 2) {
        const QByteArray event = body.mid(at, end - at);
        const qsizetype data = event.indexOf("data: ");
        if (data < 0)
            continue;
        const QJsonDocument json = QJsonDocument::fromJson(event.mid(data + 6));
        if (event.startsWith("event: traces")) {
            for (const QJsonValue &v : json.array())
                out.traceIds.append(v.toObject().value(QLatin1String("id")).toString());
        } else if (event.startsWith("event: skipped")) {
            if (out.skippedAt < 0)
                out.skippedAt = int(out.traceIds.size());
            out.skipped.append(json.object().value(QLatin1String("traces")).toInt());
        }
    }
    return out;
}

} // namespace

class TestTraceStream : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_upstream.listen()); }

    void aReaderThatStopsReadingIsToldWhatItMissedAndTheEngineStaysResponsive()
    {
        TestEngine engine(basicConfig(m_upstream.baseUrl()));
        QVERIFY2(engine.start(), qPrintable(engine.startError()));
        Store::TraceSink *sink = engine.context().traces;

        StreamReader slow;
        QVERIFY(slow.open(engine.port()));
        // From here on it reads nothing: Qt keeps at most 4 KiB, then the kernel's buffers fill.
        slow.socket.setReadBufferSize(4096);

        // Finished requests as the dispatcher hands them to the sink, one batch per publish (each
        // about 64 KiB on the wire).
        QStringList published;
        int batches = 0;
        qint64 batchBytes = 0;
        const auto publishBatch = [&] {
            QList<Store::TraceRecord> batch;
            for (int i = 0; i < 32; ++i) {
                Store::TraceRecord t;
                t.id = QStringLiteral("stream-%1-%2").arg(batches).arg(i);
                t.startedMs = 1'700'000'000'000 + batches;
                t.status = 502;
                t.modelAsked = QStringLiteral("openai/gpt-5.2");
                t.error = QString(1900, QLatin1Char('e'));
                sink->add(t, {});
                published.append(t.id);
                batch.append(t);
            }
            batchBytes = Api::TraceStream::event(batch).size();
            sink->publishNow();
            ++batches;
            // Let the engine hand what it can to the kernel.
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        };
        // Enough to fill what the loopback connection holds (the engine's send buffer grows up
        // to tcp_wmem's maximum; the reader's receive buffer does not grow while it does not
        // read), the engine's own high-water mark, and a full backlog with twenty batches more:
        // the oldest queued batches must go.
        qint64 sendBufferMax = 4 * 1024 * 1024;
        if (QFile wmem(QStringLiteral("/proc/sys/net/ipv4/tcp_wmem")); wmem.open(QIODevice::ReadOnly))
            sendBufferMax = qMax(sendBufferMax, wmem.readAll().simplified().split(' ').value(2).toLongLong());
        publishBatch();
        const qint64 inFlight = 2 * sendBufferMax + 1024 * 1024 + Http::HttpExchange::HighWaterBytes;
        const int total = int(inFlight / batchBytes) + Api::TraceStream::MaxQueuedBatches + 20;
        while (batches < total)
            publishBatch();
        // It really read nothing: what came waits in the kernel, past the 4 KiB Qt keeps.
        QVERIFY(slow.unreadInKernel() > 0);
        QVERIFY(slow.socket.bytesAvailable() <= 4096);

        // Meanwhile the engine answers at once: a health check and a real request, whose trace
        // joins the stream like the others.
        QElapsedTimer answered;
        answered.start();
        QCOMPARE(send(QStringLiteral("GET"), engine.baseUrl() + QStringLiteral("/health")).status, 200);
        const Reply chat = send(QStringLiteral("POST"), engine.baseUrl() + QStringLiteral("/v1/chat/completions"),
                                R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"while one reader sleeps"}]})",
                                {{"authorization", QByteArray("Bearer ") + TestKey}});
        QCOMPARE(chat.status, 200);
        QVERIFY2(answered.elapsed() < 2000, qPrintable(QStringLiteral("%1 ms").arg(answered.elapsed())));
        sink->publishNow();
        published.append(QString::fromUtf8(chat.header("x-aile-request-id")));

        // At most MaxSubscribers streams: the sleeping one and seven more; the ninth is refused.
        std::vector<std::unique_ptr<StreamReader>> others;
        for (int i = 1; i < Api::TraceStream::MaxSubscribers; ++i) {
            others.push_back(std::make_unique<StreamReader>());
            QVERIFY2(others.back()->open(engine.port()),
                     qPrintable(QStringLiteral("stream %1 of %2").arg(i + 1).arg(Api::TraceStream::MaxSubscribers)));
        }
        const Reply refused = send(QStringLiteral("GET"), engine.baseUrl() + QStringLiteral("/admin/traces/stream"), {},
                                   {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(refused.status, 503);
        QCOMPARE(refused.header("retry-after"), QByteArray("30"));
        QCOMPARE(refused.json().value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString(),
                 QStringLiteral("8 live trace streams are open already, the most this engine serves; close a window attached to it (or "
                                "another stream) and try again"));
        others.clear();

        // The reader wakes up: what it had, one "skipped" event, then the newest batches, the last
        // request last. Every trace published is either delivered once or counted as skipped.
        slow.socket.setReadBufferSize(0);
        const QString last = published.constLast();
        StreamEvents events;
        QTRY_VERIFY_WITH_TIMEOUT(
            (slow.got += slow.socket.readAll(), events = parse(dechunk(slow.got)), !events.traceIds.isEmpty() && events.traceIds.constLast() == last),
            30000);
        QVERIFY(slow.got.startsWith("HTTP/1.1 200"));
        QCOMPARE(events.skipped.size(), 1);
        const int skipped = events.skipped.constFirst();
        QVERIFY(skipped > 0);
        QCOMPARE(events.traceIds.size() + skipped, published.size());
        QCOMPARE(QSet<QString>(events.traceIds.cbegin(), events.traceIds.cend()).size(), events.traceIds.size());
        // Before the gap, the oldest in order; after it, no more than the backlog's batches.
        QCOMPARE(events.traceIds.mid(0, events.skippedAt), published.mid(0, events.skippedAt));
        QCOMPARE(events.traceIds.mid(events.skippedAt), published.mid(events.skippedAt + skipped));
        QVERIFY(events.traceIds.size() - events.skippedAt <= Api::TraceStream::MaxQueuedBatches * 32);

        // The stream goes on: the next batch arrives whole, with no new gap.
        publishBatch();
        QTRY_VERIFY_WITH_TIMEOUT(
            (slow.got += slow.socket.readAll(), events = parse(dechunk(slow.got)), events.traceIds.constLast() == published.constLast()), 10000);
        QCOMPARE(events.skipped.size(), 1);
    }

private:
    FakeUpstream m_upstream;
};

QTEST_GUILESS_MAIN(TestTraceStream)
#include "TestTraceStream.moc"
