// The client connection on its raw descriptor (ClientSocket, docs/performance.md change 12
// (sockets)): a client that resets mid-answer, one that half-closes after its request, answers the
// kernel leaves queued and flushed in order, and the descriptor closed exactly once however the
// connection ends. Raw sockets against the real listener.
#include "core/Clock.h"
#include "http/ClientSocket.h"
#include "http/HttpConnection.h"
#include "http/HttpExchange.h"
#include "http/HttpServer.h"
#include "ServerFixture.h"
#include "testsupport/ResponseBody.h"

#include <QtCore/QDir>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <functional>
#include <memory>

using namespace Aile;
using namespace Aile::Http;
using Aile::Test::textHeaders;

namespace {

class ScriptedHandler : public IRequestHandler
{
public:
    std::function<void(HttpExchange *)> answer;
    ExchangeRef last;

    void handle(HttpExchange *exchange) override
    {
        last = exchange->ref();
        if (answer)
            answer(exchange);
    }
};

int openFileDescriptors()
{
    return int(QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot).size());
}

// Sends bytes on the client's descriptor as they are (QTcpSocket would buffer them until the
// event loop runs, after a shutdown(2) that must follow them).
void sendRaw(QTcpSocket &client, const QByteArray &bytes)
{
    QCOMPARE(::send(int(client.socketDescriptor()), bytes.constData(), size_t(bytes.size()), MSG_NOSIGNAL), ssize_t(bytes.size()));
}

// Closes with a reset (RST) instead of a FIN: SO_LINGER with a zero timeout.
void resetClient(QTcpSocket &client)
{
    const linger hard{1, 0};
    QCOMPARE(::setsockopt(int(client.socketDescriptor()), SOL_SOCKET, SO_LINGER, &hard, sizeof hard), 0);
    client.abort();
}

} // namespace

class TestClientSocket : public QObject
{
    Q_OBJECT

private:
    ManualClock m_clock;
    ScriptedHandler m_handler;
    std::unique_ptr<HttpServer> m_server;
    std::unique_ptr<QTcpSocket> m_client;

    void connectClient()
    {
        m_client = std::make_unique<QTcpSocket>();
        m_client->connectToHost(QHostAddress::LocalHost, m_server->port());
        QVERIFY(m_client->waitForConnected(5000));
        QTRY_COMPARE(m_server->openConnections(), 1);
    }

    // Reads until the predicate holds on what arrived (the event loop runs meanwhile).
    bool readUntil(QByteArray &got, const std::function<bool()> &done, int timeoutMs = 20000)
    {
        return QTest::qWaitFor(
            [&] {
                got += m_client->readAll();
                return done();
            },
            timeoutMs);
    }

    // Every connection gone, deleted, and its descriptor closed.
    void waitForNoConnection()
    {
        QTRY_COMPARE(m_server->openConnections(), 0);
        QTRY_COMPARE(ClientSocket::openDescriptors(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            [this] {
                QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
                return m_server->findChildren<HttpConnection *>().isEmpty();
            }(),
            5000);
    }

    static QByteArray get(const QByteArray &path, const QByteArray &extra = {})
    {
        return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n" + extra + "\r\n";
    }

private Q_SLOTS:
    void init()
    {
        m_handler = ScriptedHandler();
        m_server = std::make_unique<HttpServer>(&m_clock, &m_handler);
        QString error;
        QVERIFY2(m_server->listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
    }

    void cleanup()
    {
        m_client.reset();
        m_server.reset();
        QCOMPARE(ClientSocket::openDescriptors(), 0);
    }

    void aClientThatResetsMidAnswerIsGone_data()
    {
        QTest::addColumn<bool>("queued");
        QTest::newRow("reset with the answer queued (the read or the flush meets it)") << true;
        QTest::newRow("reset, then the producer writes (send(2) refused)") << false;
    }

    // The producer hears clientGone, what it writes afterwards goes nowhere, and the connection
    // and its descriptor go.
    void aClientThatResetsMidAnswerIsGone()
    {
        QFETCH(bool, queued);
        bool gone = false;
        m_handler.answer = [&](HttpExchange *x) {
            x->listen({.clientGone = [&] { gone = true; }});
            x->startStream(200, textHeaders());
            x->writeChunk(queued ? QByteArray(8 * 1024 * 1024, 'q') : QByteArray("first\n"));
        };
        connectClient();
        m_client->write(get("/stream"));
        QTRY_VERIFY(m_handler.last);
        if (queued) {
            QTRY_VERIFY(m_handler.last->pendingBytes() > 0); // the kernel left part of it
        } else {
            QByteArray got;
            QVERIFY(readUntil(got, [&] { return got.contains("first\n"); }));
        }
        resetClient(*m_client);
        if (!queued) {
            QVERIFY(m_handler.last);
            m_handler.last->writeChunk("second\n"); // before the event loop sees the reset
        }
        QTRY_VERIFY(gone);
        if (m_handler.last)
            m_handler.last->writeChunk("after\n"); // nowhere to go, and no crash
        waitForNoConnection();
    }

    // A client that ends its side after its request still reads the answer written for it, whole,
    // even when the kernel takes it in parts; then the connection closes.
    void aClientThatHalfClosesAfterItsRequestGetsTheAnswerWritten()
    {
        const QByteArray body(4 * 1024 * 1024, 'h');
        m_handler.answer = [&](HttpExchange *x) { x->respond(200, textHeaders(), body); };
        connectClient();
        sendRaw(*m_client, get("/half"));
        QCOMPARE(::shutdown(int(m_client->socketDescriptor()), SHUT_WR), 0);
        QByteArray got;
        QVERIFY(readUntil(got, [&] { return m_client->state() == QAbstractSocket::UnconnectedState; }));
        got += m_client->readAll();
        const qsizetype head = got.indexOf("\r\n\r\n");
        QVERIFY(head > 0);
        QVERIFY(got.startsWith("HTTP/1.1 200"));
        QCOMPARE(got.size() - head - 4, body.size());
        QVERIFY(got.mid(head + 4) == body);
        waitForNoConnection();
    }

    // A request still being served when the client ends its side is abandoned, as nginx (499) and
    // Go's server do: a half-close cannot be told from a close, and an upstream call for a client
    // that left would spend tokens for nobody.
    void aHalfCloseWhileARequestIsServedIsTheClientLeaving()
    {
        bool gone = false;
        m_handler.answer = [&](HttpExchange *x) { x->listen({.clientGone = [&] { gone = true; }}); };
        connectClient();
        sendRaw(*m_client, get("/slow"));
        QTRY_VERIFY(m_handler.last);
        QCOMPARE(::shutdown(int(m_client->socketDescriptor()), SHUT_WR), 0);
        QTRY_VERIFY(gone);
        waitForNoConnection();
    }

    // What the kernel leaves is queued; every later piece, however small, waits behind it (never
    // sent past it), and the client reads the pieces in the order written.
    void queuedPiecesAreFlushedInOrder()
    {
        QByteArray expected;
        int queuedWrites = 0;
        m_handler.answer = [&](HttpExchange *x) {
            x->startStream(200, textHeaders());
            const QByteArray big(4 * 1024 * 1024, 'b');
            expected += big;
            x->writeChunk(big);
            for (int i = 0; i < 200; ++i) {
                const QByteArray piece = "<" + QByteArray::number(i) + ">";
                expected += piece;
                x->writeChunk(piece);
            }
            x->finishStream();
            queuedWrites = x->connection()->queuedWrites();
        };
        connectClient();
        m_client->write(get("/ordered"));
        QByteArray got;
        QVERIFY(readUntil(got, [&] { return got.endsWith("\r\n0\r\n\r\n"); }));
        QVERIFY2(queuedWrites > 200, qPrintable(QString::number(queuedWrites))); // the pieces were queued, behind the big one
        QVERIFY(Test::responseBody(got) == expected);
        QTRY_COMPARE(m_server->pendingBytes(), qint64(0));
    }

    void theDescriptorIsClosedOnceHoweverTheConnectionEnds_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("the client closes a kept-alive connection") << "client close";
        QTest::newRow("the answer says connection: close") << "server close";
        QTest::newRow("the client resets") << "reset";
        QTest::newRow("a malformed request refused (lingering close)") << "refused";
        QTest::newRow("the headers never complete (header timeout)") << "header timeout";
        QTest::newRow("the listener is deleted with the connection open") << "server deleted";
    }

    // No descriptor leaks: the process holds as many as before once the connection is gone.
    void theDescriptorIsClosedOnceHoweverTheConnectionEnds()
    {
        QFETCH(QString, how);
        m_handler.answer = [](HttpExchange *x) { x->respond(200, textHeaders(), "ok\n"); };
        const int before = openFileDescriptors();
        connectClient();
        QCOMPARE(ClientSocket::openDescriptors(), 1);
        QByteArray got;
        if (how == QLatin1String("client close")) {
            m_client->write(get("/a"));
            QVERIFY(readUntil(got, [&] { return got.endsWith("ok\n"); }));
            m_client->disconnectFromHost();
        } else if (how == QLatin1String("server close")) {
            m_client->write(get("/a", "Connection: close\r\n"));
            QVERIFY(readUntil(got, [&] { return m_client->state() == QAbstractSocket::UnconnectedState; }));
        } else if (how == QLatin1String("reset")) {
            m_client->write(get("/a"));
            QVERIFY(readUntil(got, [&] { return got.endsWith("ok\n"); }));
            resetClient(*m_client);
        } else if (how == QLatin1String("refused")) {
            m_client->write("GET /a HTTP/1.1\r\nHost: localhost\r\nbad header: x\r\n\r\n");
            QVERIFY(readUntil(got, [&] { return got.contains("HTTP/1.1 400"); }));
            m_client->disconnectFromHost();
        } else if (how == QLatin1String("header timeout")) {
            m_client->write("GET /a HTTP/1.1\r\n");
            QTRY_VERIFY(m_server->findChildren<HttpConnection *>().value(0)
                        && m_server->findChildren<HttpConnection *>().value(0)->shedClass() == HttpConnection::Shed::Stalled);
            m_clock.advance(m_server->limits().headerTimeoutMs);
        } else {
            QTest::qWait(0);
            m_server.reset();
            QCOMPARE(ClientSocket::openDescriptors(), 0);
            m_client.reset();
            QCOMPARE(openFileDescriptors(), before - 2); // the listener and its reserve descriptor went too
            return;
        }
        waitForNoConnection();
        m_client.reset();
        QCOMPARE(openFileDescriptors(), before);
    }

    // Closed is closed: once the connection has closed its descriptor, the number may serve
    // another file at once, and deleting the connection later leaves that file open.
    void aClosedDescriptorIsNotClosedAgain()
    {
        int descriptor = -1;
        int placed = -1;
        m_handler.answer = [&](HttpExchange *x) {
            auto *connection = x->connection();
            descriptor = connection->descriptor();
            x->respond(200, textHeaders(), "bye\n"); // connection: close: closed inside respond
            QCOMPARE(connection->descriptor(), -1);
            // Another file takes the number while the connection still exists (deleted later).
            const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC); // the lowest free number: most often this one
            if (devNull == descriptor) {
                placed = devNull;
            } else {
                placed = ::dup3(devNull, descriptor, O_CLOEXEC);
                ::close(devNull);
            }
        };
        connectClient();
        m_client->write(get("/a", "Connection: close\r\n"));
        QTRY_VERIFY(placed >= 0);
        QCOMPARE(placed, descriptor);
        waitForNoConnection();
        struct stat st
        {
        };
        struct stat devNullSt
        {
        };
        QCOMPARE(::fstat(descriptor, &st), 0); // still open: not closed a second time
        QCOMPARE(::stat("/dev/null", &devNullSt), 0);
        QCOMPARE(st.st_rdev, devNullSt.st_rdev);
        ::close(descriptor);
    }
};

QTEST_GUILESS_MAIN(TestClientSocket)
#include "TestClientSocket.moc"
