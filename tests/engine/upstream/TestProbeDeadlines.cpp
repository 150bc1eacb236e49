// docs/hardening.md "Upstreams": probes and model tests have a total deadline after connect, so a
// hung upstream cannot leak a connection per probe interval or leave a test unanswered.
#include "../routing/RoutingFixture.h"

#include "dispatch/Verifier.h"
#include "http/UpstreamClient.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1");

Script hang()
{
    Script s;
    s.hangForever = true;
    return s;
}
} // namespace

class TestProbeDeadlines : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aModelTestOfAHungUpstreamIsAnsweredAtItsDeadline()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")})}));
        f.upstream->enqueue(hang());
        QNetworkReply *reply = f.client.post(f.engine->baseUrl() + QStringLiteral("/sharers/") + A + QStringLiteral("/test"),
                                             R"({"model":"gpt-5.2"})", {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QTRY_COMPARE(f.upstream->received().size(), 1);
        QTRY_COMPARE(f.engine->context().upstream->openConnections(), 1);
        f.clock.advance(Dispatch::Verifier::TestDeadlineMs - 1);
        QVERIFY(!reply->isFinished());
        f.clock.advance(1);
        const Reply r = AsyncClient::wait(reply);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QLatin1String("ok")).toBool(), false);
        QVERIFY(r.json().value(QLatin1String("message")).toString().contains(QLatin1String("not answered within 60 s")));
        QTRY_COMPARE(f.upstream->disconnects(), 1);
        QTRY_COMPARE(f.engine->context().upstream->openConnections(), 0);
        QTRY_COMPARE(f.engine->context().upstream->liveCalls(), 0);
    }

    void probesOfAHungUpstreamHoldOneConnectionAtMost()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")})}, {},
                        QJsonObject{{QStringLiteral("probeIntervalMs"), 60'000}}));
        f.upstream->setChooser([](const ReceivedRequest &r) -> std::optional<Script> {
            return r.path.endsWith("/models") ? std::optional<Script>(hang()) : std::nullopt;
        });
        for (int i = 1; i <= 4; ++i) {
            f.clock.advance(60'000);
            QTRY_COMPARE(f.upstream->received().size(), i);
            QTRY_COMPARE(f.engine->context().upstream->openConnections(), 1);
        }
        // Each probe gave up at its deadline, and said so in the sharer's health.
        QTRY_COMPARE(f.upstream->disconnects(), 3);
        QCOMPARE(f.engine->context().health->of(A).probe, -1);
        f.clock.advance(Dispatch::Verifier::ProbeDeadlineMs);
        QTRY_COMPARE(f.engine->context().upstream->openConnections(), 0);
        QTRY_COMPARE(f.engine->context().upstream->liveCalls(), 0);
    }
};

QTEST_GUILESS_MAIN(TestProbeDeadlines)
#include "TestProbeDeadlines.moc"
