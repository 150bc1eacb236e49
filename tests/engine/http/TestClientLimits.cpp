// What one local client can make the listener hold: answers it does not read, a body that
// stalls, connections past the cap (docs/hardening.md, "Clients").
#include "http/HttpConnection.h"
#include "http/HttpServer.h"
#include "http/UpstreamClient.h"
#include "testsupport/BasicEngine.h"

#include <QtCore/QDir>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <memory>

using namespace Aile;
using namespace Aile::Test;

class TestClientLimits : public QObject
{
    Q_OBJECT

private:
    ManualClock m_clock;
    std::unique_ptr<FakeUpstream> m_upstream;
    std::unique_ptr<TestEngine> m_engine;
    std::vector<std::unique_ptr<QTcpSocket>> m_sockets;

    Http::HttpServer *server() { return m_engine->engine().findChild<Http::HttpServer *>(); }
    QByteArray host() const { return "127.0.0.1:" + QByteArray::number(m_engine->port()); }

    QTcpSocket *open(const QHostAddress &from = {})
    {
        auto s = std::make_unique<QTcpSocket>();
        if (!from.isNull())
            s->bind(from);
        s->connectToHost(QHostAddress::LocalHost, m_engine->port());
        if (!s->waitForConnected(2000))
            return nullptr;
        m_sockets.push_back(std::move(s));
        return m_sockets.back().get();
    }
    // The engine runs on this thread: wait through the event loop until it has seen `count`.
    bool waitForConnections(int count)
    {
        return QTest::qWaitFor([&] { return server()->openConnections() == count; }, 5000);
    }
    // Waits until the engine has read what the client sent (the connection noted progress at
    // the current clock reading, which the test moved on just before sending).
    bool waitForProgress()
    {
        const qint64 now = m_clock.nowMs();
        return QTest::qWaitFor(
            [&] {
                const QList<Http::HttpConnection *> all = server()->findChildren<Http::HttpConnection *>();
                return std::any_of(all.cbegin(), all.cend(), [&](const Http::HttpConnection *c) { return c->lastProgressMs() == now; });
            },
            5000);
    }
    // Waits until the engine has answer bytes waiting that the client does not take (the amount
    // stops changing for 300 ms).
    bool waitForAnswersWaiting()
    {
        qint64 before = -1;
        for (int i = 0; i < 50; ++i) {
            const qint64 now = server()->pendingBytes();
            if (now > 0 && now == before)
                return true;
            before = now;
            QTest::qWait(300);
        }
        return false;
    }
    QByteArray health() const { return "GET /health HTTP/1.1\r\nHost: " + host() + "\r\n\r\n"; }
    static QByteArray readAnswer(QTcpSocket *s, const QByteArray &endsWith)
    {
        QByteArray got;
        // A timeout returns what arrived; the caller's comparison then fails with the bytes shown.
        (void)QTest::qWaitFor([&] { return (got += s->readAll(), got.endsWith(endsWith)); }, 5000);
        return got;
    }

private Q_SLOTS:
    void init()
    {
        const QString why = startBasicEngine(m_upstream, m_engine, &m_clock);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void cleanup()
    {
        m_sockets.clear();
        m_engine.reset();
        m_upstream.reset();
    }

    // A client that pipelines requests and never reads: no further request is parsed while
    // more than maxPendingOutputBytes (256 KiB) of answers wait, and nothing more is read.
    void pipeliningClientThatNeverReadsCostsBoundedMemory()
    {
        constexpr int Requests = 4000;
        // Each answer names the 8 KiB path it was asked for: 32 MiB of answers in all.
        const QByteArray path = '/' + QByteArray(8 * 1024, 'p');
        const QByteArray request = "GET " + path + " HTTP/1.1\r\nHost: " + host() + "\r\n\r\n";
        QTcpSocket *client = open();
        QVERIFY(client);
        client->setReadBufferSize(4096);
        for (int i = 0; i < Requests; ++i)
            client->write(request);

        // Loopback buffers absorb a few MiB; wait until the engine stops making progress.
        qint64 before = -1;
        for (int i = 0; i < 30 && before != server()->pendingBytes(); ++i) {
            before = server()->pendingBytes();
            QTest::qWait(100);
        }
        const qint64 bound = server()->limits().maxPendingOutputBytes + 16 * 1024;
        QVERIFY2(server()->pendingBytes() <= bound,
                 qPrintable(QStringLiteral("%1 bytes of answers queued in the engine, over %2").arg(server()->pendingBytes()).arg(bound)));
        QVERIFY2(server()->bufferedInputBytes() <= 128 * 1024,
                 qPrintable(QStringLiteral("%1 request bytes buffered in the engine").arg(server()->bufferedInputBytes())));

        // The client reads: every answer arrives, in order, on the same connection.
        client->setReadBufferSize(0);
        QByteArray got;
        QTRY_VERIFY_WITH_TIMEOUT((got += client->readAll(), got.count("HTTP/1.1 404") == Requests && got.endsWith("}}")), 60000);
        QCOMPARE(client->state(), QAbstractSocket::ConnectedState);
    }

    // Like nginx's send_timeout: answer bytes waiting that the client takes none of for 60 s end
    // the connection, counted again from every byte it takes.
    void aClientThatStopsReadingIsClosedAfterTheSendTimeout()
    {
        const QByteArray path = '/' + QByteArray(8 * 1024, 'p');
        const QByteArray request = "GET " + path + " HTTP/1.1\r\nHost: " + host() + "\r\n\r\n";
        QTcpSocket *client = open();
        QVERIFY(client && waitForConnections(1));
        client->setReadBufferSize(4096);
        for (int i = 0; i < 2000; ++i) // 16 MiB of answers: more than loopback's buffers hold
            client->write(request);
        QVERIFY(waitForAnswersWaiting());

        m_clock.advance(59'000);
        QCoreApplication::processEvents();
        QCOMPARE(server()->openConnections(), 1);

        // The client takes some: the 60 s start again from then.
        m_clock.advance(500);
        const qint64 tookAt = m_clock.nowMs();
        QByteArray got;
        QVERIFY(QTest::qWaitFor(
            [&] {
                got += client->read(4096);
                const QList<Http::HttpConnection *> all = server()->findChildren<Http::HttpConnection *>();
                return !all.isEmpty() && all.first()->lastProgressMs() == tookAt;
            },
            10000));
        QVERIFY(got.startsWith("HTTP/1.1 404"));
        QVERIFY(waitForAnswersWaiting());
        m_clock.advance(59'000);
        QCoreApplication::processEvents();
        QCOMPARE(server()->openConnections(), 1);

        QTest::ignoreMessage(QtInfoMsg,
                             QRegularExpression(QStringLiteral("its client has taken none of the \\d+ answer bytes waiting for it for 60 s")));
        m_clock.advance(1'100);
        QTRY_COMPARE_WITH_TIMEOUT(server()->openConnections(), 0, 5000);
        QCOMPARE(server()->pendingBytes(), 0);
    }

    // The same for a stream: the request being served is abandoned as when the client leaves,
    // and its upstream call with it.
    void aStreamToAClientThatStopsReadingEndsAfterTheSendTimeout()
    {
        Script big;
        const QByteArray chunk = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\""
                                 + QByteArray(60 * 1024, 'x') + "\"},\"finish_reason\":null}]}\n\n";
        for (int i = 0; i < 300; ++i) // ~18 MiB
            big.events.append({chunk, 0});
        big.events.append({"data: [DONE]\n\n", 0});
        m_upstream->enqueue(big);
        const QByteArray body = R"({"model":"openai/gpt-5.2","stream":true,"messages":[{"role":"user","content":"hi"}]})";
        QTcpSocket *client = open();
        QVERIFY(client && waitForConnections(1));
        client->setReadBufferSize(4096);
        client->write("POST /v1/chat/completions HTTP/1.1\r\nHost: " + host() + "\r\nAuthorization: Bearer " + TestKey
                      + "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QVERIFY(waitForAnswersWaiting());
        m_clock.advance(59'000);
        QCoreApplication::processEvents();
        QCOMPARE(server()->openConnections(), 1);
        QCOMPARE(m_engine->context().upstream->liveCalls(), 1);

        QTest::ignoreMessage(QtInfoMsg, QRegularExpression(QStringLiteral("the send timeout")));
        m_clock.advance(1'100);
        QTRY_COMPARE_WITH_TIMEOUT(server()->openConnections(), 0, 5000);
        // The upstream call is gone with it: the half-read answer's connection is closed, not pooled.
        QTRY_COMPARE_WITH_TIMEOUT(m_engine->context().upstream->liveCalls(), 0, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(m_engine->context().upstream->openConnections(), 0, 5000);
    }

    // Like nginx's client_body_timeout: from the end of the headers, each read re-arms it.
    void stalledBodyGets408()
    {
        QTcpSocket *client = open();
        QVERIFY(client && waitForConnections(1));
        m_clock.advance(1);
        client->write("POST /v1/messages HTTP/1.1\r\nHost: " + host() + "\r\nx-api-key: " + TestKey
                      + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"model\":");
        QVERIFY(waitForProgress());
        m_clock.advance(29'000);
        QCoreApplication::processEvents();
        QCOMPARE(client->state(), QAbstractSocket::ConnectedState);
        QVERIFY(client->bytesAvailable() == 0);

        m_clock.advance(1);
        client->write("\"claude/"); // progress: the timeout starts again
        QVERIFY(waitForProgress());
        m_clock.advance(29'000);
        QCoreApplication::processEvents();
        QCOMPARE(client->state(), QAbstractSocket::ConnectedState);

        m_clock.advance(1'100);
        const QByteArray got = readAnswer(client, "}}");
        QVERIFY2(got.startsWith("HTTP/1.1 408"), got.constData());
        QVERIFY(got.contains("\"type\":\"error\"")); // the Anthropic wire's shape, from the path
        QVERIFY(got.contains("body stalled"));
        QTRY_COMPARE_WITH_TIMEOUT(client->state(), QAbstractSocket::UnconnectedState, 5000);
        QVERIFY(m_upstream->received().isEmpty());
    }

    // With the cap reached, idle keep-alive connections go first, then stalled ones, the one
    // quiet longest first; the new client is served at once.
    void capShedsIdleThenStalledConnections()
    {
        Http::ServerLimits limits = server()->limits();
        limits.maxConnections = 3;
        server()->setLimits(limits);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("connection limit reached .*closed an idle keep-alive connection")));

        QTcpSocket *stalled = open();
        QVERIFY(stalled);
        stalled->write("POST /v1/chat/completions HTTP/1.1\r\nHost: "); // slowloris
        QTcpSocket *idle1 = open();
        QTcpSocket *idle2 = open();
        QVERIFY(idle1 && idle2);
        for (QTcpSocket *s : {idle1, idle2}) {
            m_clock.advance(10);
            s->write(health());
            QVERIFY(readAnswer(s, "}").startsWith("HTTP/1.1 200"));
        }
        QVERIFY(waitForConnections(3));

        // Idle keep-alive ones first, even when a stalled one is older; the one quiet longest first.
        QList<QTcpSocket *> fresh;
        for (QTcpSocket *expectedGone : {idle1, idle2}) {
            m_clock.advance(10);
            fresh.append(open());
            QVERIFY(fresh.last());
            fresh.last()->write(health());
            QVERIFY(readAnswer(fresh.last(), "}").startsWith("HTTP/1.1 200"));
            QTRY_COMPARE_WITH_TIMEOUT(expectedGone->state(), QAbstractSocket::UnconnectedState, 5000);
            QCOMPARE(stalled->state(), QAbstractSocket::ConnectedState);
            QCOMPARE(server()->openConnections(), 3);
        }

        // No idle one left: the stalled one quiet longest goes.
        for (QTcpSocket *s : fresh)
            s->disconnectFromHost();
        QVERIFY(waitForConnections(1));
        m_clock.advance(10);
        QTcpSocket *stalled2 = open();
        QVERIFY(stalled2);
        stalled2->write("POST /v1/chat/completions HTTP/1.1\r\nHost: ");
        limits.maxConnections = 2;
        server()->setLimits(limits);
        QVERIFY(waitForConnections(2));
        m_clock.advance(10);
        QTcpSocket *last = open();
        QVERIFY(last);
        last->write(health());
        QVERIFY(readAnswer(last, "}").startsWith("HTTP/1.1 200"));
        QTRY_COMPARE_WITH_TIMEOUT(stalled->state(), QAbstractSocket::UnconnectedState, 5000);
        QCOMPARE(stalled2->state(), QAbstractSocket::ConnectedState);
    }

    // Connections serving requests are never closed to make room: the newcomer is told why.
    void capWithEveryConnectionBusyAnswers503()
    {
        Http::ServerLimits limits = server()->limits();
        limits.maxConnections = 2;
        server()->setLimits(limits);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("refused a connection")));
        const QByteArray body = R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}]})";
        for (int i = 0; i < 2; ++i) {
            Script hang;
            hang.hangForever = true;
            m_upstream->enqueue(hang);
            QTcpSocket *busy = open();
            QVERIFY(busy);
            busy->write("POST /v1/chat/completions HTTP/1.1\r\nHost: " + host() + "\r\nAuthorization: Bearer " + TestKey
                        + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        }
        QTRY_COMPARE_WITH_TIMEOUT(m_upstream->received().size(), 2, 5000);
        const QByteArray got = rawExchange(m_engine->port(), health());
        QVERIFY2(got.startsWith("HTTP/1.1 503"), got.constData());
        QVERIFY(got.contains("2 connections open, its limit"));
    }

    // One address cannot take the whole cap: past its own limit it sheds its own connections.
    void perPeerCapShedsThatPeersConnections()
    {
        Http::ServerLimits limits = server()->limits();
        limits.maxConnectionsPerPeer = 2;
        server()->setLimits(limits);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("connection limit reached .*127.0.0.1.*closed a stalled")));
        QTcpSocket *a = open(QHostAddress(QStringLiteral("127.0.0.1")));
        QVERIFY(waitForConnections(1)); // accepted at this clock reading, before b
        m_clock.advance(10);
        QTcpSocket *b = open(QHostAddress(QStringLiteral("127.0.0.1")));
        QTcpSocket *other = open(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(a && b && other);
        QVERIFY(waitForConnections(3));
        m_clock.advance(10);
        QTcpSocket *c = open(QHostAddress(QStringLiteral("127.0.0.1")));
        QVERIFY(c);
        c->write(health());
        QVERIFY(readAnswer(c, "}").startsWith("HTTP/1.1 200"));
        QTRY_COMPARE_WITH_TIMEOUT(a->state(), QAbstractSocket::UnconnectedState, 5000);
        QCOMPARE(b->state(), QAbstractSocket::ConnectedState);
        QCOMPARE(other->state(), QAbstractSocket::ConnectedState);
    }

    // Out of file descriptors, the listener neither spins on accept nor leaves clients waiting
    // in the backlog: the one it cannot take is told why (via a reserved descriptor), accepting
    // pauses for acceptRetryMs on the engine's clock, and then the next client is served.
    void runningOutOfDescriptorsNeverSpinsAndRecovers()
    {
        auto *listener = server()->findChild<QTcpServer *>();
        QVERIFY(listener);
        QSignalSpy acceptErrors(listener, &QTcpServer::acceptError);
        // The engine's start-up threads (the keychain probe's bus) must exist before the file
        // table is filled: a thread starting inside the window could not make its wake-up pipe.
        bool probed = false;
        QObject::connect(&m_engine->engine(), &Engine::statusChanged, listener, [&probed](const Api::EngineStatus &s) { probed = s.keychainProbed; });
        QTRY_VERIFY_WITH_TIMEOUT((m_engine->engine().requestStatus(), probed), 30000);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("cannot accept connections .* retrying in 250 ms")));

        rlimit saved{};
        QCOMPARE(::getrlimit(RLIMIT_NOFILE, &saved), 0);
        rlimit low = saved;
        low.rlim_cur = rlim_t(QDir(QStringLiteral("/proc/self/fd")).count() + 40);
        QCOMPARE(::setrlimit(RLIMIT_NOFILE, &low), 0);
        std::vector<int> filler;
        for (int fd; (fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0;)
            filler.push_back(fd);
        ::close(filler.back()); // one left: the client's own socket
        filler.pop_back();

        const QByteArray request = "GET /health HTTP/1.1\r\nHost: " + host() + "\r\nConnection: close\r\n\r\n";
        const QByteArray refused = rawExchange(m_engine->port(), request);
        const int errorsSeen = acceptErrors.count();
        QTest::qWait(200); // a listener that spins would report the same error again and again
        const int errorsAfter = acceptErrors.count();

        for (int fd : filler)
            ::close(fd);
        ::setrlimit(RLIMIT_NOFILE, &saved);
        QVERIFY2(refused.startsWith("HTTP/1.1 503"), refused.constData());
        QVERIFY(refused.contains("run out of file descriptors"));
        QCOMPARE(errorsSeen, 1);
        QCOMPARE(errorsAfter, 1);

        m_clock.advance(250);
        const QByteArray served = rawExchange(m_engine->port(), request, 3000);
        QVERIFY2(served.startsWith("HTTP/1.1 200"), served.constData());
    }
};

QTEST_GUILESS_MAIN(TestClientLimits)
#include "TestClientLimits.moc"
