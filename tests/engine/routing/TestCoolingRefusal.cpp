// Issue 14 (docs/routing.md "Failover", cooldowns): when every sharer a request could be served by
// is cooling, the answer is 429 with Retry-After at the earliest end, even beside sharers that are
// configured but never drawn for it (weight 0, blocked, left out by a route target's pin).
#include "RoutingFixture.h"

#include "health/HealthBook.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1"); // the sharer that could serve: cooling
const QString N = QStringLiteral("L00000000000000b1"); // configured, never drawn
const QString Model = QStringLiteral("gpt-5.2");
} // namespace

class TestCoolingRefusal : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

private Q_SLOTS:
    void everyDrawableSharerCoolingIs429_data()
    {
        QTest::addColumn<QJsonObject>("never"); // what N carries besides its model
        QTest::addColumn<bool>("routePin");     // a route target pinned to A leaves N out
        QTest::newRow("beside a weight 0 sharer") << QJsonObject{{QStringLiteral("weight"), 0}} << false;
        QTest::newRow("beside a blocked sharer") << QJsonObject{{QStringLiteral("blocked"), true}} << false;
        QTest::newRow("a route target pinned to the cooling one") << QJsonObject() << true;
    }

    void everyDrawableSharerCoolingIs429()
    {
        QFETCH(QJsonObject, never);
        QFETCH(bool, routePin);
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {Model}), sharer(N, QStringLiteral("openai"), {}, {Model}, never)}));
        QString model = QStringLiteral("openai/gpt-5.2");
        if (routePin) {
            const QJsonArray routes{
                QJsonObject{{QStringLiteral("name"), QStringLiteral("pinned")},
                            {QStringLiteral("targets"), QJsonArray{QJsonObject{{QStringLiteral("model"), model}, {QStringLiteral("sharer"), A}}}}}};
            QCOMPARE(
                f.admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + f.engine->context().keys.first().id, {{QStringLiteral("routes"), routes}})
                    .status,
                200);
            model = QStringLiteral("pinned");
        }
        Health::HealthBook *health = f.engine->context().health;
        health->recordFailure(A, Model, Health::Failure::ServerError);
        const qint64 until = health->coolingUntil(A, Model);
        QVERIFY(until > f.clock.nowMs());
        const qint64 seconds = (until - f.clock.nowMs() + 999) / 1000;

        const Reply r = f.chat(model);
        QVERIFY2(r.status == 429, r.body.constData());
        QCOMPARE(r.header("retry-after"), QByteArray::number(seconds));
        QVERIFY(f.upstream->received().isEmpty());
        // The dry run says the same.
        const QJsonObject refusal = f.admin(QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"),
                                            {{QStringLiteral("key"), f.engine->context().keys.first().id}, {QStringLiteral("model"), model}})
                                        .json()
                                        .value(QLatin1String("refusal"))
                                        .toObject();
        QCOMPARE(refusal.value(QLatin1String("status")).toInt(), 429);
        QCOMPARE(refusal.value(QLatin1String("retryAfterSeconds")).toInteger(), seconds);
        // Once the cooldown is over, A serves.
        f.clock.advance(until - f.clock.nowMs() + 1);
        QCOMPARE(f.chat(model).header("x-aile-sharer"), A.toLatin1());
    }

    // docs/management-api.md: POST /sharers/{handle}/clear-cooldown puts a cooling sharer back in
    // selection at once and restarts its backoff ladder.
    void clearingACooldownServesAtOnce()
    {
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {Model})}));
        Health::HealthBook *health = f.engine->context().health;
        health->recordFailure(A, Model, Health::Failure::ServerError);
        health->recordFailure(A, Model, Health::Failure::ServerError);
        QVERIFY(health->coolingUntil(A, Model) > f.clock.nowMs());
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 429);

        const Reply cleared = f.admin(QStringLiteral("POST"), QStringLiteral("/sharers/%1/clear-cooldown").arg(A));
        QCOMPARE(cleared.status, 200);
        QCOMPARE(cleared.json().value(QLatin1String("cleared")).toBool(), true);
        QCOMPARE(cleared.json().value(QLatin1String("was")).toString(), QStringLiteral("server error"));
        const Reply served = f.chat(QStringLiteral("openai/gpt-5.2"));
        QCOMPARE(served.status, 200);
        QCOMPARE(served.header("x-aile-sharer"), A.toLatin1());

        // The ladder starts again: the next failure benches it for the first step, not the third.
        health->recordFailure(A, Model, Health::Failure::ServerError);
        QVERIFY(health->coolingUntil(A, Model) - f.clock.nowMs() < Health::HealthBook::Ladder[1]);

        // Clearing a sharer that is not cooling changes nothing, and says so; an unknown one is a 404.
        f.clock.advance(Health::HealthBook::Ladder[1]);
        const Reply again = f.admin(QStringLiteral("POST"), QStringLiteral("/sharers/%1/clear-cooldown").arg(A));
        QCOMPARE(again.status, 200);
        QCOMPARE(again.json().value(QLatin1String("cleared")).toBool(), false);
        QCOMPARE(f.admin(QStringLiteral("POST"), QStringLiteral("/sharers/L0000000000000zz9/clear-cooldown")).status, 404);
    }
};

QTEST_GUILESS_MAIN(TestCoolingRefusal)
#include "TestCoolingRefusal.moc"
