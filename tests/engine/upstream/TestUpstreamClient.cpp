// docs/upstream-client.md: the upstream client's own contract, against a raw upstream socket the test
// drives byte by byte (no fake upstream in between, so the test sees exactly what was written and
// when). Time is a ManualClock.
#include "core/Clock.h"
#include "http/UpstreamClient.h"

#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include <sys/socket.h>

#include <memory>

using namespace Aile;
using namespace Aile::Http;

namespace {
const QByteArray Answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";

/// An origin the test answers by hand: it accepts connections and keeps their sockets in order.
struct RawOrigin
{
    QTcpServer server;
    std::vector<QTcpSocket *> sockets;

    bool listen()
    {
        QObject::connect(&server, &QTcpServer::newConnection, &server, [this] {
            while (QTcpSocket *s = server.nextPendingConnection())
                sockets.push_back(s);
        });
        return server.listen(QHostAddress::LocalHost, 0);
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1/v1/chat/completions?beta=true").arg(server.serverPort())); }
    /// The bytes of one whole request (head and body) on the socket, read without the event loop.
    static QByteArray readRequest(QTcpSocket *s)
    {
        QByteArray got = s->readAll();
        while (!got.contains("\r\n\r\n{\"model\":\"m\"}") && s->waitForReadyRead(2000))
            got += s->readAll();
        return got;
    }
};

UpstreamRequest request(const QUrl &url)
{
    UpstreamRequest r;
    r.url = url;
    r.headers.add("authorization", "Bearer sk-test");
    r.body = "{\"model\":\"m\"}";
    return r;
}

/// A client on a test clock, the origin it talks to, and the owner of its calls (destroyed first).
struct Pool
{
    ManualClock clock;
    UpstreamClient client{&clock};
    RawOrigin origin;
    QObject owner;
};

/// Sends one request, answers it and waits for its end: the client then holds one pooled connection.
bool poolOneConnection(UpstreamClient &client, RawOrigin &origin, QObject *owner)
{
    UpstreamCall *call = client.send(request(origin.url()), owner);
    QSignalSpy finished(call, &UpstreamCall::finished);
    if (!QTest::qWaitFor([&] { return !origin.sockets.empty(); }, 5000))
        return false;
    QTcpSocket *s = origin.sockets.back();
    if (!QTest::qWaitFor([&] { return s->bytesAvailable() > 0; }, 5000))
        return false;
    RawOrigin::readRequest(s);
    s->write(Answer);
    return finished.wait(5000) && client.idleConnections() == 1;
}

/// The origin resets the pooled connection (SO_LINGER 0, then close). The client's event loop has
/// not run since, so the connection still looks reusable and the write in the next send() fails.
bool resetPooledConnection(RawOrigin &origin)
{
    QTcpSocket *s = origin.sockets.back();
    const linger reset{1, 0};
    if (::setsockopt(int(s->socketDescriptor()), SOL_SOCKET, SO_LINGER, &reset, sizeof reset) != 0)
        return false;
    s->abort();
    return true;
}
} // namespace

class TestUpstreamClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aPooledConnectionCarriesTheWholeRequestBeforeTheEventLoopRuns()
    {
        Pool p;
        QVERIFY(p.origin.listen());
        QVERIFY(poolOneConnection(p.client, p.origin, &p.owner));
        auto &[clock, client, origin, owner] = p;

        UpstreamCall *call = client.send(request(origin.url()), &owner);
        QStringList order;
        connect(call, &UpstreamCall::connected, &owner, [&] { order << QStringLiteral("connected"); });
        connect(call, &UpstreamCall::headReceived, &owner, [&] { order << QStringLiteral("head"); });
        connect(call, &UpstreamCall::finished, &owner, [&] { order << QStringLiteral("finished"); });
        QVERIFY(call->reusedConnection());
        // Only the origin's socket is waited on: the client's event loop does not run, so the bytes
        // can only be there if send() wrote them itself (they used to wait for a posted event).
        QTcpSocket *s = origin.sockets.back();
        QVERIFY(s->waitForReadyRead(2000));
        const QByteArray expected =
            "POST /v1/chat/completions?beta=true HTTP/1.1\r\nhost: 127.0.0.1:" + QByteArray::number(origin.server.serverPort())
            + "\r\nauthorization: Bearer sk-test\r\ncontent-length: 13\r\n\r\n{\"model\":\"m\"}";
        QCOMPARE(RawOrigin::readRequest(s), expected);
        QCOMPARE(origin.sockets.size(), size_t(1));

        s->write(Answer);
        QTRY_COMPARE(order.size(), 3);
        // A caller that listens to `connected` still hears it on a reused connection, first.
        QCOMPARE(order, QStringList({QStringLiteral("connected"), QStringLiteral("head"), QStringLiteral("finished")}));
        QCOMPARE(call->status(), 200);
        QCOMPARE(call->headers().value("content-type"), QByteArray("application/json"));
        QCOMPARE(client.idleConnections(), 1);
    }

    void aWriteThatFailsInsideSendIsReportedAfterSendReturns_data()
    {
        QTest::addColumn<bool>("abortFirst");
        QTest::newRow("reported once, to slots connected after send()") << false;
        QTest::newRow("an abort() before the report silences it") << true;
    }

    void aWriteThatFailsInsideSendIsReportedAfterSendReturns()
    {
        QFETCH(bool, abortFirst);
        Pool p;
        QVERIFY(p.origin.listen());
        QVERIFY(poolOneConnection(p.client, p.origin, &p.owner));
        auto &[clock, client, origin, owner] = p;
        QVERIFY(resetPooledConnection(origin));

        UpstreamCall *call = client.send(request(origin.url()), &owner);
        QVERIFY(call->reusedConnection());
        QSignalSpy failed(call, &UpstreamCall::failed);
        QSignalSpy finished(call, &UpstreamCall::finished);
        if (abortFirst)
            call->abort();
        else
            QTRY_COMPARE(failed.size(), 1);
        QTest::qWait(20);
        QCOMPARE(failed.size(), abortFirst ? 0 : 1); // never a signal after abort()
        QCOMPARE(finished.size(), 0);
        QVERIFY(call->isDone());
        if (!abortFirst)
            QCOMPARE(failed.first().first().value<UpstreamError>(), UpstreamError::ClosedBeforeHead);
        QTRY_COMPARE(client.openConnections(), 0);
    }

    void aRequestLargerThanTheKernelTakesAtOnceArrivesWhole()
    {
        Pool p;
        auto &[clock, client, origin, owner] = p;
        QVERIFY(origin.listen());
        QVERIFY(poolOneConnection(client, origin, &owner));
        // 8 MiB: more than a loopback socket's send buffer, so the write is partial and the rest
        // leaves as the socket becomes writable (on a pooled connection: written inside send()).
        UpstreamRequest big = request(origin.url());
        big.body = QByteArray(8 * 1024 * 1024, 'x');
        UpstreamCall *call = client.send(big, &owner);
        QSignalSpy finished(call, &UpstreamCall::finished);
        QTcpSocket *s = origin.sockets.back();
        QByteArray got;
        QTRY_VERIFY_WITH_TIMEOUT((got += s->readAll(), got.endsWith("xxxx") && got.size() >= big.body.size()), 20000);
        QVERIFY(got.contains("\r\ncontent-length: 8388608\r\n\r\n"));
        QCOMPARE(got.size() - got.indexOf("\r\n\r\n") - 4, big.body.size());
        s->write(Answer);
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(call->status(), 200);
    }

    void bytesAfterTheAnswerKeepTheConnectionOutOfThePool()
    {
        Pool p;
        auto &[clock, client, origin, owner] = p;
        QVERIFY(origin.listen());
        UpstreamCall *call = client.send(request(origin.url()), &owner);
        QSignalSpy finished(call, &UpstreamCall::finished);
        QTRY_COMPARE(origin.sockets.size(), size_t(1));
        QTRY_VERIFY(origin.sockets.back()->bytesAvailable() > 0);
        // The answer and, in the same segment, bytes no request asked for: the connection is out
        // of step with its server, so the answer is delivered and the connection is not reused.
        origin.sockets.back()->write(Answer + "HTTP/1.1 200 OK\r\n");
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(call->status(), 200);
        QCOMPARE(client.idleConnections(), 0);
        QTRY_COMPARE(client.openConnections(), 0);
    }

    void anIdleConnectionTheOriginClosesIsDroppedAtOnce()
    {
        Pool p;
        auto &[clock, client, origin, owner] = p;
        QVERIFY(origin.listen());
        QVERIFY(poolOneConnection(client, origin, &owner));
        origin.sockets.back()->disconnectFromHost();
        // Seen by the event loop, long before the pool's 4 s: the socket is not held until then.
        QTRY_COMPARE(client.openConnections(), 0);
        QCOMPARE(client.idleConnections(), 0);
    }

    void idleConnectionsCloseWhenTooOldToReuseOnOneTimer()
    {
        Pool p;
        auto &[clock, client, origin, owner] = p;
        client.setIdleKeepAliveMs(4'000);
        QVERIFY(origin.listen());
        UpstreamCall *first = client.send(request(origin.url()), &owner);
        UpstreamCall *second = client.send(request(origin.url()), &owner);
        QSignalSpy firstDone(first, &UpstreamCall::finished);
        QSignalSpy secondDone(second, &UpstreamCall::finished);
        QTRY_COMPARE(origin.sockets.size(), size_t(2));
        for (QTcpSocket *s : origin.sockets)
            QTRY_VERIFY(s->bytesAvailable() > 0);

        origin.sockets[0]->write(Answer);
        QTRY_COMPARE(firstDone.size() + secondDone.size(), 1);
        clock.advance(1'000);
        origin.sockets[1]->write(Answer);
        QTRY_COMPARE(firstDone.size() + secondDone.size(), 2);
        QCOMPARE(client.idleConnections(), 2);
        // The pool keeps one deadline for all its idle connections, not one set and cancelled per request.
        QCOMPARE(clock.pendingTimers(), 1);

        clock.advance(2'999); // the first is 3.999 s idle: still reusable
        QTest::qWait(10);
        QCOMPARE(client.openConnections(), 2);
        clock.advance(1);
        QTRY_COMPARE(client.openConnections(), 1);
        QCOMPARE(client.idleConnections(), 1);
        clock.advance(999);
        QTest::qWait(10);
        QCOMPARE(client.openConnections(), 1);
        clock.advance(1);
        QTRY_COMPARE(client.openConnections(), 0);
        QCOMPARE(clock.pendingTimers(), 0);
    }
};

QTEST_GUILESS_MAIN(TestUpstreamClient)
#include "TestUpstreamClient.moc"
