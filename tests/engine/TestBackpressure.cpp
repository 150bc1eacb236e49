// A slow client cannot make the engine buffer an answer without bound: the engine stops reading
// the upstream, and TCP pushes back to it.
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

using namespace Aile;
using namespace Aile::Test;

class TestBackpressure : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void slowClientPushesBackOnTheUpstream()
    {
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        TestEngine engine(basicConfig(upstream.baseUrl()));
        QVERIFY2(engine.start(), qPrintable(engine.startError()));

        // 64 MiB of events, all handed to the upstream's socket at once.
        constexpr int EventCount = 64 * 1024;
        const QByteArray event = "data: {\"choices\":[{\"delta\":{\"content\":\"" + QByteArray(980, 'x') + "\"}}]}\n\n";
        Script s;
        s.headers.add("content-type", "text/event-stream");
        for (int i = 0; i < EventCount; ++i)
            s.events.append({event, 0});
        s.events.append({"data: [DONE]\n\n", 0});
        upstream.enqueue(s);

        QTcpSocket client;
        client.setReadBufferSize(4096);
        client.connectToHost(QHostAddress::LocalHost, engine.port());
        QVERIFY(client.waitForConnected(2000));
        const QByteArray body = "{\"model\":\"openai/gpt-5.2\",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"messages\":[]}";
        client.write("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(engine.port()) + "\r\nAuthorization: Bearer "
                     + TestKey + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
        client.flush();

        // The client reads nothing. Loopback buffers hold a few MiB in each direction; the rest
        // must stay queued at the upstream, not inside the engine.
        const qint64 total = qint64(event.size()) * EventCount;
        QTRY_VERIFY_WITH_TIMEOUT(upstream.pendingBytes() > 0 && upstream.pendingBytes() < total, 10000);
        qint64 before = -1;
        for (int i = 0; i < 20 && before != upstream.pendingBytes(); ++i) {
            before = upstream.pendingBytes();
            QTest::qWait(100);
        }
        QVERIFY2(
            upstream.pendingBytes() > total - 24 * 1024 * 1024,
            qPrintable(
                QStringLiteral("only %1 of %2 bytes still queued upstream: the engine buffered the rest").arg(upstream.pendingBytes()).arg(total)));

        // Now the client reads: every byte arrives, in order.
        client.setReadBufferSize(0);
        QByteArray got;
        const QByteArray tail = "data: [DONE]\n\n\r\n0\r\n\r\n";
        // The engine runs on this thread: read through the event loop, never a blocking wait.
        QTRY_VERIFY_WITH_TIMEOUT((got += client.readAll(), got.endsWith(tail)), 60000);
        got += client.readAll();
        QVERIFY(got.startsWith("HTTP/1.1 200"));
        QVERIFY(got.endsWith("data: [DONE]\n\n\r\n0\r\n\r\n"));
        QVERIFY(got.count(event) >= EventCount - 1); // chunk framing may split one event at most once
    }
};

QTEST_GUILESS_MAIN(TestBackpressure)
#include "TestBackpressure.moc"
