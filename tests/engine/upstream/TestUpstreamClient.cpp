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

/// A listener that writes down what it hears, in order; `then` runs after each event is written
/// down (a test makes a handler abort or delete its call, or send the next one, there).
struct Recorder final : UpstreamListener
{
    QStringList events;
    QByteArray body;
    UpstreamError error = UpstreamError::None;
    bool wantsConnected = false;
    std::function<void(const QString &event)> then;

    bool hearsConnected() const override { return wantsConnected; }
    void handleUpstreamConnected() override { note(QStringLiteral("connected")); }
    void handleUpstreamHead() override { note(QStringLiteral("head")); }
    void handleUpstreamBody(const QByteArray &bytes) override
    {
        body += bytes;
        note(QStringLiteral("body"));
    }
    void handleUpstreamFinished() override { note(QStringLiteral("finished")); }
    void handleUpstreamFailed(UpstreamError e, const QString &) override
    {
        error = e;
        note(QStringLiteral("failed"));
    }
    bool ended() const { return events.contains(QStringLiteral("finished")) || events.contains(QStringLiteral("failed")); }

private:
    void note(const QString &event)
    {
        events << event;
        if (then)
            then(event);
    }
};

/// A client on a test clock and the origin it talks to.
struct Pool
{
    ManualClock clock;
    UpstreamClient client{&clock};
    RawOrigin origin;
};

/// Waits for the origin's newest socket to carry a whole request, and reads it.
QTcpSocket *awaitRequest(RawOrigin &origin, size_t sockets)
{
    if (!QTest::qWaitFor([&] { return origin.sockets.size() >= sockets; }, 5000))
        return nullptr;
    QTcpSocket *s = origin.sockets.back();
    if (!QTest::qWaitFor([&] { return s->bytesAvailable() > 0; }, 5000))
        return nullptr;
    RawOrigin::readRequest(s);
    return s;
}

/// Sends one request, answers it and waits for its end: the client then holds one pooled connection.
bool poolOneConnection(UpstreamClient &client, RawOrigin &origin)
{
    Recorder r;
    const std::unique_ptr<UpstreamCall> call = client.send(request(origin.url()), r);
    QTcpSocket *s = awaitRequest(origin, 1);
    if (!s)
        return false;
    s->write(Answer);
    return QTest::qWaitFor([&] { return r.ended(); }, 5000) && r.events.last() == QStringLiteral("finished") && client.idleConnections() == 1;
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
        QVERIFY(poolOneConnection(p.client, p.origin));
        auto &[clock, client, origin] = p;

        Recorder r;
        r.wantsConnected = true;
        const std::unique_ptr<UpstreamCall> call = client.send(request(origin.url()), r);
        QVERIFY(call->reusedConnection());
        QVERIFY(r.events.isEmpty()); // nothing is heard inside send()
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
        QTRY_VERIFY(r.ended());
        // A caller that listens to `connected` still hears it on a reused connection, first.
        QCOMPARE(r.events, QStringList({QStringLiteral("connected"), QStringLiteral("head"), QStringLiteral("body"), QStringLiteral("finished")}));
        QCOMPARE(call->status(), 200);
        QCOMPARE(call->headers().value("content-type"), QByteArray("application/json"));
        QCOMPARE(client.idleConnections(), 1);
    }

    void aWriteThatFailsInsideSendIsReportedAfterSendReturns_data()
    {
        QTest::addColumn<bool>("abortFirst");
        QTest::newRow("reported once, after send() returned the call") << false;
        QTest::newRow("an abort() before the report silences it") << true;
    }

    void aWriteThatFailsInsideSendIsReportedAfterSendReturns()
    {
        QFETCH(bool, abortFirst);
        Pool p;
        QVERIFY(p.origin.listen());
        QVERIFY(poolOneConnection(p.client, p.origin));
        auto &[clock, client, origin] = p;
        QVERIFY(resetPooledConnection(origin));

        Recorder r;
        const std::unique_ptr<UpstreamCall> call = client.send(request(origin.url()), r);
        QVERIFY(call->reusedConnection());
        QVERIFY(r.events.isEmpty());
        if (abortFirst)
            call->abort();
        else
            QTRY_VERIFY(r.ended());
        QTest::qWait(20);
        // Never an event after abort(); the reused connection's `connected` is paid before the failure.
        QCOMPARE(r.events, abortFirst ? QStringList() : QStringList({QStringLiteral("connected"), QStringLiteral("failed")}));
        QVERIFY(call->isDone());
        if (!abortFirst)
            QCOMPARE(r.error, UpstreamError::ClosedBeforeHead);
        QTRY_COMPARE(client.openConnections(), 0);
    }

    void aRequestLargerThanTheKernelTakesAtOnceArrivesWhole()
    {
        Pool p;
        auto &[clock, client, origin] = p;
        QVERIFY(origin.listen());
        QVERIFY(poolOneConnection(client, origin));
        // 8 MiB: more than a loopback socket's send buffer, so the write is partial and the rest
        // leaves as the socket becomes writable (on a pooled connection: written inside send()).
        UpstreamRequest big = request(origin.url());
        big.body = QByteArray(8 * 1024 * 1024, 'x');
        Recorder r;
        const std::unique_ptr<UpstreamCall> call = client.send(big, r);
        QTcpSocket *s = origin.sockets.back();
        QByteArray got;
        QTRY_VERIFY_WITH_TIMEOUT((got += s->readAll(), got.endsWith("xxxx") && got.size() >= big.body.size()), 20000);
        QVERIFY(got.contains("\r\ncontent-length: 8388608\r\n\r\n"));
        QCOMPARE(got.size() - got.indexOf("\r\n\r\n") - 4, big.body.size());
        s->write(Answer);
        QTRY_COMPARE(r.events.count(QStringLiteral("finished")), 1);
        QCOMPARE(call->status(), 200);
    }

    void bytesAfterTheAnswerKeepTheConnectionOutOfThePool()
    {
        Pool p;
        auto &[clock, client, origin] = p;
        QVERIFY(origin.listen());
        Recorder r;
        const std::unique_ptr<UpstreamCall> call = client.send(request(origin.url()), r);
        QTRY_COMPARE(origin.sockets.size(), size_t(1));
        QTRY_VERIFY(origin.sockets.back()->bytesAvailable() > 0);
        // The answer and, in the same segment, bytes no request asked for: the connection is out
        // of step with its server, so the answer is delivered and the connection is not reused.
        origin.sockets.back()->write(Answer + "HTTP/1.1 200 OK\r\n");
        QTRY_COMPARE(r.events.count(QStringLiteral("finished")), 1);
        QCOMPARE(call->status(), 200);
        QCOMPARE(client.idleConnections(), 0);
        QTRY_COMPARE(client.openConnections(), 0);
    }

    void anIdleConnectionTheOriginClosesIsDroppedAtOnce()
    {
        Pool p;
        auto &[clock, client, origin] = p;
        QVERIFY(origin.listen());
        QVERIFY(poolOneConnection(client, origin));
        origin.sockets.back()->disconnectFromHost();
        // Seen by the event loop, long before the pool's 4 s: the socket is not held until then.
        QTRY_COMPARE(client.openConnections(), 0);
        QCOMPARE(client.idleConnections(), 0);
    }

    void idleConnectionsCloseWhenTooOldToReuseOnOneTimer()
    {
        Pool p;
        auto &[clock, client, origin] = p;
        client.setIdleKeepAliveMs(4'000);
        QVERIFY(origin.listen());
        Recorder firstDone, secondDone;
        const std::unique_ptr<UpstreamCall> first = client.send(request(origin.url()), firstDone);
        const std::unique_ptr<UpstreamCall> second = client.send(request(origin.url()), secondDone);
        QTRY_COMPARE(origin.sockets.size(), size_t(2));
        for (QTcpSocket *s : origin.sockets)
            QTRY_VERIFY(s->bytesAvailable() > 0);

        origin.sockets[0]->write(Answer);
        QTRY_COMPARE(firstDone.events.count(QStringLiteral("finished")) + secondDone.events.count(QStringLiteral("finished")), 1);
        clock.advance(1'000);
        origin.sockets[1]->write(Answer);
        QTRY_COMPARE(firstDone.events.count(QStringLiteral("finished")) + secondDone.events.count(QStringLiteral("finished")), 2);
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

    // Re-entrancy: what Qt's signal delivery used to guard. A handler may delete its call from
    // inside any of its events; nothing more is heard, nothing of the call is touched after.
    void aHandlerMayDeleteItsCallFromInsideAnyEvent_data()
    {
        QTest::addColumn<QString>("event");
        QTest::addColumn<bool>("reused");
        QTest::addColumn<QByteArray>("answer");
        QTest::addColumn<int>("idleAfter"); // pooled connections once the call is gone
        const QByteArray chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n2\r\n[]\r\n0\r\n\r\n";
        QTest::newRow("connected (a new connection)") << QStringLiteral("connected") << false << Answer << 0;
        QTest::newRow("connected (a reused connection)") << QStringLiteral("connected") << true << Answer << 0;
        QTest::newRow("head") << QStringLiteral("head") << false << Answer << 0;
        QTest::newRow("the first of two body pieces") << QStringLiteral("body") << false << chunked << 0;
        QTest::newRow("finished: the connection stays pooled") << QStringLiteral("finished") << false << Answer << 1;
        QTest::newRow("failed") << QStringLiteral("failed") << false << QByteArray() << 0;
    }
    void aHandlerMayDeleteItsCallFromInsideAnyEvent()
    {
        QFETCH(QString, event);
        QFETCH(bool, reused);
        QFETCH(QByteArray, answer);
        QFETCH(int, idleAfter);
        Pool p;
        auto &[clock, client, origin] = p;
        QVERIFY(origin.listen());
        if (reused)
            QVERIFY(poolOneConnection(client, origin));
        Recorder r;
        r.wantsConnected = true;
        std::unique_ptr<UpstreamCall> call;
        r.then = [&](const QString &e) {
            if (e == event)
                call.reset();
        };
        call = client.send(request(origin.url()), r);
        QCOMPARE(client.liveCalls(), 1);
        if (event != QStringLiteral("connected")) {
            QTcpSocket *s = awaitRequest(origin, 1);
            QVERIFY(s);
            if (answer.isEmpty())
                s->disconnectFromHost(); // closed before answering: the call fails
            else
                s->write(answer);
        }
        QTRY_VERIFY(!call);
        QTest::qWait(20);
        QCOMPARE(r.events.last(), event); // heard nothing after the handler deleted the call
        QCOMPARE(r.events.count(event), 1);
        QCOMPARE(client.liveCalls(), 0);
        QTRY_COMPARE(client.openConnections(), idleAfter); // a call deleted mid-answer takes its connection down
        QCOMPARE(client.idleConnections(), idleAfter);
    }

    // A handler that aborts its call hears nothing more; the connection is closed, never pooled.
    void aHandlerThatAbortsHearsNothingMore()
    {
        Pool p;
        auto &[clock, client, origin] = p;
        QVERIFY(origin.listen());
        Recorder r;
        std::unique_ptr<UpstreamCall> call = client.send(request(origin.url()), r);
        r.then = [&](const QString &e) {
            if (e == QStringLiteral("head"))
                call->abort();
        };
        QTcpSocket *s = awaitRequest(origin, 1);
        QVERIFY(s);
        s->write(Answer);
        QTRY_VERIFY(call->isDone());
        QTest::qWait(20);
        QCOMPARE(r.events, QStringList({QStringLiteral("connected"), QStringLiteral("head")}));
        QTRY_COMPARE(client.openConnections(), 0);
        QCOMPARE(client.liveCalls(), 1); // aborted, still its owner's until deleted
        call.reset();
        QCOMPARE(client.liveCalls(), 0);
    }

    // Failover starts from inside a failure: the handler sends the next request (and drops the
    // failed call) while the client is still reporting the failure.
    void aFailedHandlerMaySendTheNextRequest()
    {
        Pool p;
        auto &[clock, client, origin] = p;
        QVERIFY(origin.listen());
        Recorder first, second;
        std::unique_ptr<UpstreamCall> call = client.send(request(origin.url()), first);
        first.then = [&](const QString &e) {
            if (e == QStringLiteral("failed"))
                call = p.client.send(request(p.origin.url()), second); // the failed call goes as it is replaced (p.: clang 14 cannot capture a binding)
        };
        QTcpSocket *s = awaitRequest(origin, 1);
        QVERIFY(s);
        s->disconnectFromHost();
        QTRY_COMPARE(first.events, QStringList({QStringLiteral("connected"), QStringLiteral("failed")}));
        QCOMPARE(first.error, UpstreamError::ClosedBeforeHead);
        QTcpSocket *next = awaitRequest(origin, 2);
        QVERIFY(next);
        next->write(Answer);
        QTRY_VERIFY(second.ended());
        QCOMPARE(second.events, QStringList({QStringLiteral("connected"), QStringLiteral("head"), QStringLiteral("body"), QStringLiteral("finished")}));
        QCOMPARE(call->status(), 200);
        QCOMPARE(client.liveCalls(), 1);
    }

    // The connection is back in the pool before its call's owner hears `finished`: a request sent
    // from that handler goes out on it, written inside send(), while the first call is deleted.
    void aFinishedHandlerMaySendOnTheSameConnection()
    {
        Pool p;
        auto &[clock, client, origin] = p;
        QVERIFY(origin.listen());
        Recorder first, second;
        std::unique_ptr<UpstreamCall> call = client.send(request(origin.url()), first);
        first.then = [&](const QString &e) {
            if (e == QStringLiteral("finished"))
                call = p.client.send(request(p.origin.url()), second);
        };
        QTcpSocket *s = awaitRequest(origin, 1);
        QVERIFY(s);
        s->write(Answer);
        QTRY_VERIFY(first.ended());
        QVERIFY(call->reusedConnection());
        QTRY_VERIFY(s->bytesAvailable() > 0);
        RawOrigin::readRequest(s);
        s->write(Answer);
        QTRY_VERIFY(second.ended());
        QCOMPARE(second.events.last(), QStringLiteral("finished"));
        QCOMPARE(origin.sockets.size(), size_t(1));
        QCOMPARE(client.idleConnections(), 1);
    }

    // Back-pressure: a body handler pauses the call; nothing is read until it resumes (from the
    // event loop, as the relay does when its client drains, or from inside a handler), and every
    // byte then arrives once, in order.
    void aPausedCallReadsNothingUntilResumed_data()
    {
        QTest::addColumn<bool>("fromHandler");
        QTest::newRow("resumed from the event loop") << false;
        QTest::newRow("resumed inside the next handler") << true;
    }
    void aPausedCallReadsNothingUntilResumed()
    {
        QFETCH(bool, fromHandler);
        Pool p;
        auto &[clock, client, origin] = p;
        QVERIFY(origin.listen());
        Recorder r;
        std::unique_ptr<UpstreamCall> call = client.send(request(origin.url()), r);
        r.then = [&](const QString &e) {
            if (e == QStringLiteral("body") && r.events.count(e) == 1)
                call->pauseReading();
            if (fromHandler && e == QStringLiteral("body") && r.events.count(e) == 1)
                call->resumeReading();
        };
        QTcpSocket *s = awaitRequest(origin, 1);
        QVERIFY(s);
        s->write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n");
        QTRY_COMPARE(r.body, QByteArray("first"));
        s->write("6\r\nsecond\r\n0\r\n\r\n");
        s->flush();
        if (!fromHandler) {
            QTest::qWait(50);
            QCOMPARE(r.body, QByteArray("first")); // paused: the rest waits in the kernel
            QVERIFY(!r.ended());
            call->resumeReading();
        }
        QTRY_VERIFY(r.ended());
        QCOMPARE(r.body, QByteArray("firstsecond"));
        QCOMPARE(r.events.last(), QStringLiteral("finished"));
    }

    // A call may outlive its client (its owner goes later): it is detached, and deleting it then
    // touches nothing of the client (ASan and UBSan builds check the memory).
    void aCallOutlivingItsClientIsDetached()
    {
        Recorder r;
        std::unique_ptr<UpstreamCall> call;
        {
            Pool p;
            QVERIFY(p.origin.listen());
            call = p.client.send(request(p.origin.url()), r);
            QVERIFY(awaitRequest(p.origin, 1));
        }
        QTest::qWait(20);
        QCOMPARE(r.events, QStringList{QStringLiteral("connected")}); // nothing after its client went
        call->abort();
        call->pauseReading();
        call.reset();
    }

    // The callbacks form (probes, tests, pings): a finished function that deletes its own call
    // runs to its end with its captures intact.
    void aCallbackMayDeleteItsCall()
    {
        Pool p;
        auto &[clock, client, origin] = p;
        QVERIFY(origin.listen());
        std::unique_ptr<UpstreamCall> call;
        const QString capture = QStringLiteral("still here");
        QString seen;
        int status = 0;
        UpstreamCallbacks callbacks;
        callbacks.finished = [&call, &seen, &status, capture](const UpstreamCall &c) {
            status = c.status();
            call.reset();
            seen = capture; // a capture of the running function, read after the call went
        };
        call = client.send(request(origin.url()), std::move(callbacks));
        QTcpSocket *s = awaitRequest(origin, 1);
        QVERIFY(s);
        s->write(Answer);
        QTRY_VERIFY(!call);
        QCOMPARE(status, 200);
        QCOMPARE(seen, capture);
        QCOMPARE(client.liveCalls(), 0);
    }
};

QTEST_GUILESS_MAIN(TestUpstreamClient)
#include "TestUpstreamClient.moc"
