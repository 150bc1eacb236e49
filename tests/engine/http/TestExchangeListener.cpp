// What an exchange's owner hears (HttpExchange.h, ExchangeListener): clientGone, drained and
// ended by virtual call, ended exactly once however the exchange goes, and a listener that
// finishes the exchange, detaches or deletes itself from inside any of them. Raw sockets against
// the real listener.
#include "http/HttpExchange.h"
#include "http/HttpServer.h"
#include "ServerFixture.h"

#include <QtTest/QtTest>

#include <functional>
#include <memory>

using namespace Aile;
using namespace Aile::Http;

namespace {

// Writes what it hears into a shared log, under its name; `then` runs after each event with the
// event's name (to finish the exchange, detach, delete the listener, ...).
class LoggingListener final : public ExchangeListener
{
public:
    LoggingListener(QString name, QStringList &log) : m_name(std::move(name)), m_log(log) { }
    ~LoggingListener() { m_log.append(m_name + ":deleted"); }
    void exchangeDrained() override { hear(QStringLiteral("drained")); }
    void exchangeClientGone() override { hear(QStringLiteral("clientGone")); }
    void exchangeEnded() override { hear(QStringLiteral("ended")); }

    std::function<void(const QString &event)> then;

private:
    void hear(const QString &event)
    {
        m_log.append(m_name + ':' + event);
        if (!then)
            return;
        const auto run = then; // a copy: it may delete this
        run(event);
    }
    QString m_name;
    QStringList &m_log;
};

class ScriptedHandler : public IRequestHandler
{
public:
    std::function<void(HttpExchange *)> answer;
    QList<ExchangeRef> seen;

    void handle(HttpExchange *exchange) override
    {
        seen.append(exchange->ref());
        answer(exchange);
    }
};

} // namespace

class TestExchangeListener : public QObject
{
    Q_OBJECT

private:
    ScriptedHandler m_handler;
    Test::ServerFixture m_fx;
    QStringList m_log;

    // A listener for the exchange, named after the request's path; deleted by the test's cleanup
    // unless a row deletes it.
    LoggingListener *listenTo(HttpExchange *x)
    {
        auto *listener = new LoggingListener(QString::fromLatin1(x->request().path.mid(1)), m_log);
        m_listeners.append(listener);
        x->setListener(listener);
        return listener;
    }
    QList<LoggingListener *> m_listeners;

private Q_SLOTS:
    void init()
    {
        m_log.clear();
        m_handler = ScriptedHandler();
        QVERIFY(m_fx.listen(&m_handler));
    }

    void cleanup()
    {
        m_fx.reset();
        qDeleteAll(std::exchange(m_listeners, {}));
    }

    // ended is told once, when the exchange is deleted: at the end of the turn its answer finished
    // in, or with its connection (the client left, or the server went with the answer unfinished).
    void endedIsToldExactlyOnce_data()
    {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QStringList>("heard");
        QTest::newRow("answered") << "respond" << QStringList{"a:ended"};
        QTest::newRow("the client left mid-stream") << "client leaves" << QStringList{"a:clientGone", "a:ended"};
        QTest::newRow("the server went mid-stream") << "server goes" << QStringList{"a:ended"};
    }
    void endedIsToldExactlyOnce()
    {
        QFETCH(QString, how);
        QFETCH(QStringList, heard);
        m_handler.answer = [&](HttpExchange *x) {
            listenTo(x);
            if (how == "respond") {
                x->respond(200, Test::textHeaders(), "whole\n");
                QVERIFY(m_log.isEmpty()); // not inside its own call: at the end of the turn
                return;
            }
            x->startStream(200, Test::textHeaders());
            x->writeChunk("first\n");
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/a"));
        QByteArray got;
        QVERIFY(m_fx.readUntil(how == "respond" ? "whole\n" : "first\n", got));
        if (how == "client leaves")
            m_fx.client->abort();
        else if (how == "server goes")
            m_fx.server.reset();
        QTRY_COMPARE(m_log, heard);
        QTRY_VERIFY(m_handler.seen.value(0).get() == nullptr);
        if (m_fx.server)
            QTRY_COMPARE(m_fx.server->liveExchanges(), 0);
        QCOMPARE(m_log, heard); // and nothing later
    }

    // A listener may finish the exchange, detach and delete itself from inside each event; the
    // exchange then touches it no more (ASan builds read freed memory otherwise).
    void aListenerMayActFromInsideAnyEvent_data()
    {
        QTest::addColumn<QString>("event");
        QTest::addColumn<QString>("act");
        QTest::addColumn<QStringList>("heard");
        QTest::newRow("drained: finish") << "drained"
                                         << "finish" << QStringList{"big:drained", "big:ended"};
        QTest::newRow("drained: detach and delete") << "drained"
                                                    << "delete" << QStringList{"big:drained", "big:deleted"};
        QTest::newRow("clientGone: finish (goes nowhere)") << "clientGone"
                                                           << "finish" << QStringList{"big:clientGone", "big:ended"};
        QTest::newRow("clientGone: detach and delete") << "clientGone"
                                                       << "delete" << QStringList{"big:clientGone", "big:deleted"};
        QTest::newRow("ended: delete") << "ended"
                                       << "delete" << QStringList{"big:ended", "big:deleted"};
    }
    void aListenerMayActFromInsideAnyEvent()
    {
        QFETCH(QString, event);
        QFETCH(QString, act);
        QFETCH(QStringList, heard);
        m_handler.answer = [&](HttpExchange *x) {
            LoggingListener *listener = listenTo(x);
            listener->then = [this, x, listener, event, act](const QString &e) {
                if (e != event)
                    return;
                if (act == "finish") {
                    x->finishStream();
                    return;
                }
                if (e != "ended")
                    x->setListener(nullptr);
                m_listeners.removeOne(listener);
                delete listener;
            };
            x->startStream(200, Test::textHeaders());
            // Past the high-water mark: the client reads nothing yet, so the kernel leaves bytes queued.
            const QByteArray piece(64 * 1024, 'x');
            for (int i = 0; i < 200 && x->pendingBytes() <= HttpExchange::HighWaterBytes; ++i)
                x->writeChunk(piece);
            QVERIFY(x->pendingBytes() > HttpExchange::HighWaterBytes);
            if (event == "ended")
                x->finishStream();
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/big"));
        QTRY_COMPARE(m_handler.seen.size(), 1);
        if (event == "clientGone") {
            m_fx.client->abort();
        } else {
            QByteArray got;
            QVERIFY(m_fx.readUntil(event == "ended" ? QByteArray("0\r\n\r\n") : QByteArray(), got));
            // Read everything: the exchange drains below the low-water mark.
            QVERIFY(QTest::qWaitFor(
                [&] {
                    got += m_fx.client->readAll();
                    return m_log.size() >= heard.size();
                },
                10000));
        }
        QTRY_COMPARE(m_log, heard);
        QTRY_VERIFY(m_handler.seen.value(0).get() == nullptr || event == "drained");
        QCoreApplication::processEvents();
        QCOMPARE(m_log, heard);
    }

    // Keep-alive: the next request on the same connection is a new exchange with its own
    // listener; the first one's hears its own end only, nothing of the second's.
    void theNextRequestOnAConnectionHasItsOwnListener()
    {
        m_handler.answer = [&](HttpExchange *x) {
            listenTo(x);
            if (x->request().path == "/one") {
                x->respond(200, Test::textHeaders(), "one\n");
                return;
            }
            x->startStream(200, Test::textHeaders());
            x->writeChunk("two\n");
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/one"));
        QByteArray got;
        QVERIFY(m_fx.readUntil("one\n", got));
        QTRY_COMPARE(m_log, QStringList{"one:ended"});
        m_fx.client->write(Test::getRequest("/two"));
        QVERIFY(m_fx.readUntil("two\n", got));
        QCOMPARE(m_handler.seen.size(), 2);
        m_fx.client->abort();
        QTRY_COMPARE(m_log, (QStringList{"one:ended", "two:clientGone", "two:ended"}));
    }

    // A request pipelined behind a streamed answer waits for it; the streamed exchange has ended
    // (its listener heard it) before the next one's handler runs, and the answers arrive in order.
    void aRequestPipelinedBehindAStreamWaitsForItsEnd()
    {
        HttpExchange *streaming = nullptr;
        m_handler.answer = [&](HttpExchange *x) {
            m_log.append("handle:" + QString::fromLatin1(x->request().path.mid(1)));
            listenTo(x);
            if (x->request().path == "/stream") {
                streaming = x;
                x->startStream(200, Test::textHeaders());
                x->writeChunk("streamed part\n");
                return;
            }
            x->respond(200, Test::textHeaders(), "behind\n");
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/stream") + Test::getRequest("/behind"));
        QByteArray got;
        QVERIFY(m_fx.readUntil("streamed part\n", got));
        QTest::qWait(0);
        QCOMPARE(m_log, QStringList{"handle:stream"}); // the second waits
        streaming->writeChunk("the end\n");
        streaming->finishStream();
        QVERIFY(m_fx.readUntil("behind\n", got));
        QTRY_COMPARE(m_log, (QStringList{"handle:stream", "stream:ended", "handle:behind", "behind:ended"}));
        QVERIFY(got.indexOf("the end\n") < got.indexOf("behind\n"));
        QVERIFY(got.indexOf("0\r\n\r\n") < got.indexOf("HTTP/1.1 200", got.indexOf("the end\n")));
    }

    // Functions instead of a listener object (tests, the fake upstream): each event reaches its
    // function; an unset one is ignored; a function may replace the callbacks that run it.
    void callbacksHearTheirEvents()
    {
        m_handler.answer = [&](HttpExchange *x) {
            x->listen({.clientGone = [this, x] {
                m_log.append("clientGone");
                x->listen({.ended = [this] { m_log.append("ended (the replacement)"); }});
            }});
            x->startStream(200, Test::textHeaders());
            x->writeChunk("first\n");
        };
        QVERIFY(m_fx.connectClient());
        m_fx.client->write(Test::getRequest("/cb"));
        QByteArray got;
        QVERIFY(m_fx.readUntil("first\n", got));
        m_fx.client->abort();
        QTRY_COMPARE(m_log, (QStringList{"clientGone", "ended (the replacement)"}));
    }
};

QTEST_GUILESS_MAIN(TestExchangeListener)
#include "TestExchangeListener.moc"
