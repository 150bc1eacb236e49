// docs/hardening.md "Upstreams": streams aborted at random points, by clients and by upstreams,
// leave no connection, upstream call or slot behind once the engine is idle. Real engine, fake
// upstream, one ManualClock; a seeded draw picks where each stream breaks.
#include "../routing/RoutingFixture.h"

#include "http/HttpServer.h"
#include "http/UpstreamClient.h"

#include <QtCore/QRandomGenerator>
#include <QtNetwork/QTcpSocket>

#include <memory>

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1");

// A stream of events one clock step apart, broken (or not) the way the draw says.
Script drawScript(QRandomGenerator &rng)
{
    Script s = FakeUpstream::chatStream({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")});
    for (ScriptedEvent &e : s.events)
        e.delayMs = 100;
    const int cutAt = int(rng.bounded(quint32(s.events.size())));
    switch (rng.bounded(5)) {
    case 0: // the upstream drops the connection after some events (chunked)
        s.events.resize(cutAt);
        s.cutBeforeEnd = true;
        break;
    case 1: // … in the middle of an event
        s.events.resize(cutAt);
        s.events.append({"data: {\"choices\":[{\"delta\":{\"content\":\"half", 100});
        s.cutBeforeEnd = true;
        break;
    case 2: // it never answers
        s = Script();
        s.hangForever = true;
        break;
    case 3: // it stops talking mid-stream, connection open
        s.events.resize(cutAt);
        s.hangAfterAnswer = true;
        break;
    default: // a whole answer
        break;
    }
    return s;
}
} // namespace

class TestAbortedStreams : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void abortedStreamsLeaveNothingBehind()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")})}));
        Http::HttpServer *server = f.engine->engine().findChild<Http::HttpServer *>();
        QVERIFY(server);
        QRandomGenerator rng(14);
        const QByteArray body = RoutingFixture::chatBody(QStringLiteral("openai/gpt-5.2"), true);
        const QByteArray request = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(f.engine->port())
                                   + "\r\nAuthorization: Bearer " + QByteArray(TestKey)
                                   + "\r\ncontent-type: application/json\r\ncontent-length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        constexpr int Rounds = 6, PerRound = 8, Steps = 8;
        for (int round = 0; round < Rounds; ++round) {
            for (int i = 0; i < PerRound; ++i)
                f.upstream->enqueue(drawScript(rng));
            std::vector<std::unique_ptr<QTcpSocket>> clients;
            std::vector<int> leaveAt; // the step at which each client hangs up (Steps: never)
            const qsizetype before = f.upstream->received().size();
            for (int i = 0; i < PerRound; ++i) {
                auto c = std::make_unique<QTcpSocket>();
                c->connectToHost(QHostAddress::LocalHost, f.engine->port());
                QVERIFY(c->waitForConnected(2000));
                c->write(request);
                clients.push_back(std::move(c));
                leaveAt.push_back(int(rng.bounded(quint32(Steps + 1))));
            }
            // A cut cools the sharer (10 minutes), so requests after it in a round may be refused
            // before any dial; at least the first is dialled.
            QTRY_VERIFY(f.upstream->received().size() > before);
            for (int step = 0; step < Steps; ++step) {
                for (int i = 0; i < PerRound; ++i) {
                    if (leaveAt[size_t(i)] == step)
                        clients[size_t(i)]->abort();
                    else
                        clients[size_t(i)]->readAll();
                }
                f.clock.advance(100);
                QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
            }
            for (auto &c : clients)
                c->abort();
            // The engine sees every client gone before time moves on.
            QTRY_COMPARE(server->openConnections(), 0);
            f.upstream->clearScripts();
            f.clock.advance(Health::HealthBook::CutStreamCooldownMs + 1'000); // the next round finds the sharer back
        }
        // A whole answer leaves its upstream connection in the pool…
        {
            QTcpSocket whole;
            whole.connectToHost(QHostAddress::LocalHost, f.engine->port());
            QVERIFY(whole.waitForConnected(2000));
            whole.write(request);
            QByteArray got;
            QTRY_VERIFY((got += whole.readAll(), got.contains("data: [DONE]\n\n")));
        }
        QTRY_COMPARE(f.engine->context().upstream->idleConnections(), 1);
        // … and, idle, the pool lets go of it once it is too old to reuse (4 s), long before the
        // upstream's own keep-alive timeout (60 s) would close it.
        f.clock.advance(5'000);
        QTRY_COMPARE(server->openConnections(), 0);
        QTRY_COMPARE(f.engine->context().upstream->liveCalls(), 0);
        QTRY_COMPARE(f.engine->context().upstream->openConnections(), 0);
        QTRY_COMPARE(f.engine->context().health->of(A).inFlight, 0);
        QTRY_COMPARE(f.upstream->inFlight(), 0);
        QVERIFY(f.upstream->received().size() >= Rounds);
    }
};

QTEST_GUILESS_MAIN(TestAbortedStreams)
#include "TestAbortedStreams.moc"
