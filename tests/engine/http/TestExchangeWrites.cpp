// How an exchange hands its answer to the socket (HttpExchange.h, "Writing"): one hand-off per
// flush point, a held head and body leave by the end of the event-loop turn, a finished exchange
// lives until the end of the turn, not past it, and an answer goes to the kernel past the socket's
// buffer, which queues only what the kernel leaves (HttpConnection::send). Raw sockets against the
// real listener.
#include "core/Clock.h"
#include "http/HttpConnection.h"
#include "http/HttpExchange.h"
#include "http/HttpServer.h"
#include "ServerFixture.h"

#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include <functional>
#include <memory>

using namespace Aile;
using namespace Aile::Http;

namespace {

// Runs the test's answer for each request, then notes what the exchange reports.
class ScriptedHandler : public IRequestHandler
{
public:
    std::function<void(HttpExchange *)> answer;
    QList<ExchangeRef> seen;
    QList<int> handOffsAfterAnswer;
    QList<bool> aliveAfterAnswer;

    void handle(HttpExchange *exchange) override
    {
        const ExchangeRef guard = exchange->ref();
        seen.append(guard);
        answer(exchange);
        // Still valid after its own respond/finishStream: deleted at the end of the turn only.
        aliveAfterAnswer.append(guard.get() != nullptr);
        handOffsAfterAnswer.append(guard ? guard->socketHandOffs() : -1);
    }
};

} // namespace

class TestExchangeWrites : public QObject
{
    Q_OBJECT

private:
    ScriptedHandler m_handler;
    Test::ServerFixture m_fx;

private Q_SLOTS:
    void init()
    {
        m_handler = ScriptedHandler();
        QVERIFY(m_fx.listen(&m_handler));
    }

    void cleanup()
    {
        m_fx.reset();
    }

    void aKnownLengthAnswerIsOneHandOff_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("respond") << "respond";
        QTest::newRow("startStream, one writeChunk, finishStream") << "stream";
        QTest::newRow("startStream, three writeChunks, finishStream") << "pieces";
    }

    // Head, body and the held-back last byte reach the socket together (was three writes).
    void aKnownLengthAnswerIsOneHandOff()
    {
        QFETCH(QString, how);
        m_handler.answer = [how](HttpExchange *x) {
            if (how == QLatin1String("respond")) {
                x->respond(200, Test::textHeaders(), "hello world");
                return;
            }
            x->startStream(200, Test::textHeaders(), 11);
            if (how == QLatin1String("stream")) {
                x->writeChunk("hello world");
            } else {
                x->writeChunk("hello");
                x->writeChunk(" ");
                x->writeChunk("world");
            }
            x->finishStream();
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/a"));
        QByteArray got;
        m_fx.readUntil("hello world", got);
        QVERIFY2(got.startsWith("HTTP/1.1 200 OK\r\n"), got.constData());
        QVERIFY(got.contains("content-length: 11\r\n"));
        QVERIFY(got.endsWith("\r\n\r\nhello world"));
        QCOMPARE(m_handler.aliveAfterAnswer, QList<bool>{true});
        QCOMPARE(m_handler.handOffsAfterAnswer, QList<int>{1});
    }

    // A chunk leaves at once (relay latency), its size line, data and CRLF in one piece, and the
    // head rides with the first chunk.
    void aChunkIsOneHandOffAndTheHeadRidesWithTheFirst()
    {
        QList<int> afterEach;
        m_handler.answer = [&afterEach](HttpExchange *x) {
            x->startStream(200, Test::textHeaders());
            afterEach.append(x->socketHandOffs());
            x->writeChunk("data: one\n\n");
            afterEach.append(x->socketHandOffs());
            x->writeChunk("data: two\n\n");
            afterEach.append(x->socketHandOffs());
            x->finishStream();
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/sse"));
        QByteArray got;
        m_fx.readUntil("0\r\n\r\n", got);
        QVERIFY(got.contains("transfer-encoding: chunked\r\n"));
        QVERIFY2(got.endsWith("\r\n\r\nb\r\ndata: one\n\n\r\nb\r\ndata: two\n\n\r\n0\r\n\r\n"), got.constData());
        QCOMPARE(afterEach, (QList<int>{0, 1, 2}));
        QCOMPARE(m_handler.handOffsAfterAnswer, QList<int>{3});
    }

    // A chunk written in a later turn (an SSE event relayed as it arrives) leaves within the call
    // and leaves nothing for the end of the turn: no second pass of the event loop per event.
    void aRelayedChunkArmsNoEndOfTurn()
    {
        m_handler.answer = [](HttpExchange *x) {
            x->startStream(200, Test::textHeaders());
            x->writeChunk("data: one\n\n");
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/sse"));
        QByteArray got;
        QVERIFY(m_fx.readUntil("data: one\n\n\r\n", got));
        const ExchangeRef x = m_handler.seen.value(0);
        QVERIFY(x);
        QTRY_VERIFY(!x->endOfTurnArmed()); // the turn the head was written in has ended
        const int before = x->socketHandOffs();
        x->writeChunk("data: two\n\n");
        QCOMPARE(x->socketHandOffs(), before + 1);
        QVERIFY(!x->endOfTurnArmed());
        QVERIFY(m_fx.readUntil("b\r\ndata: two\n\n\r\n", got));
        // An event past HoldBytes goes out on its own, framed around it.
        const QByteArray big(HttpExchange::HoldBytes + 10, 'x');
        x->writeChunk(big);
        QVERIFY(m_fx.readUntil("800a\r\n" + big + "\r\n", got));
        x->finishStream();
        QVERIFY(m_fx.readUntil("0\r\n\r\n", got));
    }

    // What an answer holds back leaves by the end of the turn, without waiting for more.
    void aHeldHeadAndBodyLeaveAtTheEndOfTheTurn()
    {
        m_handler.answer = [](HttpExchange *x) {
            x->startStream(200, Test::textHeaders(), 10);
            x->writeChunk("hello");
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/slow"));
        QByteArray got;
        m_fx.readUntil("hello", got);
        QVERIFY2(got.endsWith("content-length: 10\r\n\r\nhello"), got.constData());
        const ExchangeRef x = m_handler.seen.value(0);
        QVERIFY(x);
        QCOMPARE(x->socketHandOffs(), 1);
        QVERIFY(!x->isFinished());
        // The rest: everything but the last byte at the end of the turn, the last with finishStream.
        x->writeChunk("world");
        x->finishStream();
        m_fx.readUntil("helloworld", got);
        QVERIFY(got.endsWith("\r\n\r\nhelloworld"));
        QTRY_VERIFY(x.isNull()); // deleted at the end of the turn it finished in
    }

    // Requests sent back to back are answered in order, each by its own exchange, and each
    // finished exchange is gone after its turn.
    // A writer that sends more than it announced: the client gets exactly the Content-Length, and
    // the next answer on the connection is not corrupted by the extra bytes.
    void bytesPastTheContentLengthNeverLeave_data()
    {
        QTest::addColumn<QStringList>("pieces");
        QTest::newRow("one piece too long") << QStringList{QStringLiteral("hello world")};
        QTest::newRow("a piece after the end") << QStringList{QStringLiteral("hello"), QStringLiteral("EXTRA")};
    }

    void bytesPastTheContentLengthNeverLeave()
    {
        QFETCH(QStringList, pieces);
        m_handler.answer = [pieces](HttpExchange *x) {
            if (x->request().path == "/next") {
                x->respond(200, Test::textHeaders(), "next answer");
                return;
            }
            x->startStream(200, Test::textHeaders(), 5);
            for (const QString &p : pieces)
                x->writeChunk(p.toUtf8());
            x->finishStream();
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/a") + Test::getRequest("/next"));
        QByteArray got;
        m_fx.readUntil("next answer", got);
        QVERIFY2(got.startsWith("HTTP/1.1 200 OK\r\n"), got.constData());
        const qsizetype second = got.indexOf("HTTP/1.1 200 OK\r\n", 1);
        QVERIFY2(second > 0, got.constData());
        QVERIFY2(got.left(second).endsWith("\r\n\r\nhello"), got.constData());
        QVERIFY(!got.contains("world"));
        QVERIFY(!got.contains("EXTRA"));
        QVERIFY(got.endsWith("\r\n\r\nnext answer"));
    }

    void pipelinedRequestsAreServedInOrder()
    {
        m_handler.answer = [](HttpExchange *x) { x->respond(200, Test::textHeaders(), "answer to " + x->request().path); };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/one") + Test::getRequest("/two") + Test::getRequest("/three"));
        QByteArray got;
        m_fx.readUntil("answer to /three", got);
        const qsizetype one = got.indexOf("answer to /one");
        const qsizetype two = got.indexOf("answer to /two");
        QVERIFY(one > 0 && two > one && got.indexOf("answer to /three") > two);
        QCOMPARE(got.count("HTTP/1.1 200 OK\r\n"), 3);
        QCOMPARE(m_handler.seen.size(), 3);
        QTRY_VERIFY(std::all_of(m_handler.seen.cbegin(), m_handler.seen.cend(), [](const auto &p) { return p.isNull(); }));
    }

    // A pipelined request waits for the answer before it, even when that answer comes later.
    void aPipelinedRequestWaitsForTheAnswerBeforeIt()
    {
        m_handler.answer = [](HttpExchange *x) {
            if (x->request().path != "/first")
                x->respond(200, Test::textHeaders(), "second");
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/first") + Test::getRequest("/second"));
        QTRY_COMPARE(m_handler.seen.size(), 1);
        for (int turn = 0; turn < 5; ++turn) // turns in which the second could be served too early
            QCoreApplication::processEvents();
        QCOMPARE(m_handler.seen.size(), 1);
        m_handler.seen.value(0)->respond(200, Test::textHeaders(), "first");
        QByteArray got;
        m_fx.readUntil("second", got);
        QVERIFY(got.indexOf("first") < got.indexOf("second"));
        QCOMPARE(m_handler.seen.size(), 2);
    }

    // The kernel takes the whole answer: it is never queued (no copy, no write notifier switched on
    // and off: docs/performance.md, changes 10 (http) and 12 (sockets)).
    void anAnswerTheKernelTakesBypassesTheSocketsBuffer()
    {
        int socketWrites = -1;
        qint64 queued = -1;
        m_handler.answer = [&](HttpExchange *x) {
            auto *connection = x->connection();
            QVERIFY(connection);
            x->respond(200, Test::textHeaders(), "ok\n");
            queued = connection->pendingOutputBytes();
            socketWrites = connection->queuedWrites();
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/a"));
        QByteArray got;
        m_fx.readUntil("ok\n", got);
        QCOMPARE(queued, qint64(0));
        QCOMPARE(socketWrites, 0);
    }

    // A client that does not read: the kernel takes part of a 16 MiB answer, the socket queues the
    // rest (later pieces behind it, never past it), and the client reads every byte in order.
    void whatTheKernelLeavesIsQueuedAndArrivesInOrder()
    {
        constexpr int Pieces = 256;
        constexpr qsizetype PieceBytes = 64 * 1024;
        QByteArray expected;
        qint64 queuedAtEnd = 0;
        m_handler.answer = [&](HttpExchange *x) {
            x->startStream(200, Test::textHeaders(), Pieces * PieceBytes);
            for (int i = 0; i < Pieces; ++i) {
                QByteArray piece(PieceBytes, char('a' + i % 26));
                piece.replace(0, 8, QByteArray::number(100000000 + i).right(8)); // each piece marked by its index
                expected += piece;
                x->writeChunk(piece);
            }
            x->finishStream();
            queuedAtEnd = m_fx.server->pendingBytes();
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/big"));
        QTRY_VERIFY(!expected.isEmpty());
        QVERIFY2(queuedAtEnd > 0, "the kernel took 16 MiB at once: the test no longer exercises the queue");
        QByteArray got;
        QVERIFY(QTest::qWaitFor(
            [&] {
                got += m_fx.client->readAll();
                const qsizetype head = got.indexOf("\r\n\r\n");
                return head >= 0 && got.size() - head - 4 >= expected.size();
            },
            20000));
        const QByteArray body = got.mid(got.indexOf("\r\n\r\n") + 4);
        QCOMPARE(body.size(), expected.size());
        QVERIFY(body == expected);
        QTRY_COMPARE(m_fx.server->pendingBytes(), qint64(0));
    }

    // The client leaves while its answer streams: the exchange learns it (from the read that meets
    // the end, or from a write the kernel refuses) and the connection goes.
    void aClientThatLeavesMidAnswerIsSeen()
    {
        ExchangeRef held;
        bool gone = false;
        m_handler.answer = [&](HttpExchange *x) {
            held = x->ref();
            x->listen({.clientGone = [&] { gone = true; }});
            x->startStream(200, Test::textHeaders());
            x->writeChunk("first\n");
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/stream"));
        QByteArray got;
        QVERIFY(QTest::qWaitFor(
            [&] {
                got += m_fx.client->readAll();
                return got.contains("first\n");
            },
            5000));
        m_fx.client->abort();
        QTRY_VERIFY(gone);
        QVERIFY(!held || held->isClientGone());
        QTRY_COMPARE(m_fx.server->openConnections(), 0);
    }
};

QTEST_GUILESS_MAIN(TestExchangeWrites)
#include "TestExchangeWrites.moc"
