// Issue 15 "One planner": a dry run is the plan a real request runs. On the same engine, the dry
// run (POST /keys/route-dry-run) shows every model of the chain a request tries, in order, and
// names the target and sharer a real request is then served by.
#include "RoutingFixture.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1"); // openai gpt-5.2, cheapest
const QString C = QStringLiteral("L00000000000000c1"); // openai gpt-5.2, dearer
const QString B = QStringLiteral("L00000000000000b1"); // openai gpt-5.5
const QString K = QStringLiteral("L00000000000000d1"); // claude claude-sonnet-5, dear
const QString O = QStringLiteral("L00000000000000e1"); // openrouter anthropic/claude-sonnet-5, cheap
QJsonObject percent(int p)
{
    return QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), p}}}};
}
QJsonObject prompt(const QJsonObject &more)
{
    QJsonObject o{{QStringLiteral("max_tokens"), 100},
                  {QStringLiteral("messages"),
                   QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), QStringLiteral("hi")}}}}};
    for (auto it = more.begin(); it != more.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}
} // namespace

class TestPlanAgreement : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

    static QStringList chainOf(const QJsonObject &dry)
    {
        QStringList out;
        for (const QJsonValue &v : dry.value(QLatin1String("chain")).toArray())
            out << v.toObject().value(QLatin1String("model")).toString();
        return out;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(50)),
                                   sharer(C, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(80)),
                                   sharer(B, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.5")}, percent(50)),
                                   sharer(K, QStringLiteral("claude"), {}, {QStringLiteral("claude-sonnet-5")}, percent(90)),
                                   sharer(O, QStringLiteral("openrouter"), {}, {QStringLiteral("anthropic/claude-sonnet-5")}, percent(40))}));
    }

    void dryRunAndRequestAgree_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonObject>("body");           // the request's body beside the one-line prompt
        QTest::addColumn<QJsonObject>("accountRouting"); // PUT /v1/routing
        QTest::addColumn<QJsonArray>("routes");          // the key's routes
        QTest::addColumn<QStringList>("chain");          // the models the dry run shows, in order
        QTest::addColumn<QStringList>("served");         // per request in turn: the target that serves
        const QString chat = QStringLiteral("/v1/chat/completions");
        const QJsonObject none;
        QTest::newRow("a plain model") << chat << QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}} << none << QJsonArray()
                                       << QStringList{QStringLiteral("openai/gpt-5.2")} << QStringList{QStringLiteral("openai/gpt-5.2")};
        // A round-robin route: each request starts one target further; the dry run reads the turn.
        const QJsonArray roundRobin{
            QJsonObject{{QStringLiteral("name"), QStringLiteral("coding")},
                        {QStringLiteral("order"), QStringLiteral("round-robin")},
                        {QStringLiteral("targets"), QJsonArray{QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.5")}},
                                                               QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}}}}}};
        QTest::newRow("a route") << chat << QJsonObject{{QStringLiteral("model"), QStringLiteral("coding")}} << none << roundRobin
                                 << QStringList{QStringLiteral("coding")}
                                 << QStringList{QStringLiteral("openai/gpt-5.5"), QStringLiteral("openai/gpt-5.2"), QStringLiteral("openai/gpt-5.5")};
        QTest::newRow("a models body") << chat
                                       << QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                                                      {QStringLiteral("models"),
                                                       QJsonArray{QStringLiteral("openai/gpt-5.6-sol"), QStringLiteral("openai/gpt-5.5")}}}
                                       << none << QJsonArray() << QStringList{QStringLiteral("openai/gpt-5.6-sol"), QStringLiteral("openai/gpt-5.5")}
                                       << QStringList{QStringLiteral("openai/gpt-5.5")};
        const QJsonObject fallbacks{{QStringLiteral("default_model"), QStringLiteral("openai/gpt-5.5")},
                                    {QStringLiteral("fallback_models"), QJsonArray{QStringLiteral("openai/gpt-5.2")}}};
        // The known wrong answer: the dry run said 503 while the fallback served.
        QTest::newRow("a model nobody serves, then the fallback")
            << chat << QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.6-sol")}} << fallbacks << QJsonArray()
            << QStringList{QStringLiteral("openai/gpt-5.6-sol"), QStringLiteral("openai/gpt-5.2")} << QStringList{QStringLiteral("openai/gpt-5.2")};
        QTest::newRow("no model: the default, then the fallback")
            << chat << QJsonObject() << fallbacks << QJsonArray() << QStringList{QStringLiteral("openai/gpt-5.5"), QStringLiteral("openai/gpt-5.2")}
            << QStringList{QStringLiteral("openai/gpt-5.5")};
        QTest::newRow("auto/") << QStringLiteral("/v1/messages") << QJsonObject{{QStringLiteral("model"), QStringLiteral("auto/claude-sonnet-5")}}
                               << none << QJsonArray() << QStringList{QStringLiteral("auto/claude-sonnet-5")}
                               << QStringList{QStringLiteral("openrouter/anthropic/claude-sonnet-5")};
    }

    void dryRunAndRequestAgree()
    {
        QFETCH(QString, path);
        QFETCH(QJsonObject, body);
        QFETCH(QJsonObject, accountRouting);
        QFETCH(QJsonArray, routes);
        QFETCH(QStringList, chain);
        QFETCH(QStringList, served);
        const QString keyId = f.engine->context().keys.first().id;
        if (!accountRouting.isEmpty())
            QCOMPARE(f.admin(QStringLiteral("PUT"), QStringLiteral("/v1/routing"), accountRouting).status, 200);
        if (!routes.isEmpty())
            QCOMPARE(f.admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + keyId, {{QStringLiteral("routes"), routes}}).status, 200);
        const QJsonObject sent = prompt(body);
        for (const QString &target : served) {
            const Reply dry = f.admin(QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"),
                                      {{QStringLiteral("key"), keyId}, {QStringLiteral("endpoint"), path}, {QStringLiteral("body"), sent}});
            QCOMPARE(dry.status, 200);
            const QJsonObject plan = dry.json();
            QVERIFY2(!plan.contains(QLatin1String("refusal")), dry.body.constData());
            QCOMPARE(chainOf(plan), chain);
            const QJsonObject first = plan.value(QLatin1String("first")).toObject();
            QCOMPARE(first.value(QLatin1String("target")).toString(), target);

            const Reply real = f.post(path, QJsonDocument(sent).toJson(QJsonDocument::Compact));
            QVERIFY2(real.status == 200, real.body.constData());
            QCOMPARE(QString::fromUtf8(real.header("x-aile-model")), target);
            QCOMPARE(QString::fromUtf8(real.header("x-aile-sharer")), first.value(QLatin1String("sharer")).toString());
            // The sharers the dry run lists for that target are the ones the request could dial, in order.
            for (const QJsonValue &t : plan.value(QLatin1String("targets")).toArray())
                if (t.toObject().value(QLatin1String("target")).toString() == target)
                    QCOMPARE(t.toObject().value(QLatin1String("sharers")).toArray().first().toObject().value(QLatin1String("handle")).toString(),
                             first.value(QLatin1String("sharer")).toString());
        }
    }

    void aDryRunReadsTheSessionPinWithoutRefreshingIt()
    {
        const QString keyId = f.engine->context().keys.first().id;
        const QJsonObject body = prompt({{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}});
        const QList<QPair<QByteArray, QByteArray>> session{{"x-aile-session", "s"}};
        auto dryVerdict = [&] {
            return f
                .admin(QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"),
                       {{QStringLiteral("key"), keyId},
                        {QStringLiteral("body"), body},
                        {QStringLiteral("headers"), QJsonObject{{QStringLiteral("x-aile-session"), QStringLiteral("s")}}}})
                .json()
                .value(QLatin1String("sessionAffinity"))
                .toString();
        };
        QCOMPARE(f.post(QStringLiteral("/v1/chat/completions"), QJsonDocument(body).toJson(), session).header("x-aile-session-affinity"),
                 QByteArray("fresh"));
        QCOMPARE(dryVerdict(), QStringLiteral("pinned"));
        // A pin lasts five minutes after its last hit; asking is not a hit.
        f.clock.advance(4 * 60'000);
        QCOMPARE(dryVerdict(), QStringLiteral("pinned"));
        f.clock.advance(60'000 + 1);
        QCOMPARE(dryVerdict(), QStringLiteral("fresh"));
        QCOMPARE(f.post(QStringLiteral("/v1/chat/completions"), QJsonDocument(body).toJson(), session).header("x-aile-session-affinity"),
                 QByteArray("fresh"));
    }

    void theListingIsTheFirstTargetOfTheRequestPlan()
    {
        // The listing's top row is where the dry run and the next request go.
        const Reply list = send(QStringLiteral("GET"), f.engine->baseUrl() + QStringLiteral("/sharers?model=openai/gpt-5.2"), {},
                                {{"authorization", QByteArray("Bearer ") + AdminToken}});
        const QJsonArray rows = list.json().value(QLatin1String("data")).toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.at(0).toObject().value(QLatin1String("handle")).toString(), A);
        QCOMPARE(rows.at(1).toObject().value(QLatin1String("handle")).toString(), C);
        const Reply dry =
            f.admin(QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"), {{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}});
        const QJsonObject target = dry.json().value(QLatin1String("targets")).toArray().first().toObject();
        QCOMPARE(target.value(QLatin1String("sharers")).toArray().at(0).toObject().value(QLatin1String("quoteUsd")).toDouble(),
                 rows.at(0).toObject().value(QLatin1String("quoteUsd")).toDouble());
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).header("x-aile-sharer"), A.toLatin1());
        // With fallbacks set, the listing still shows the one model it names.
        QCOMPARE(f.admin(QStringLiteral("PUT"), QStringLiteral("/v1/routing"),
                         {{QStringLiteral("fallback_models"), QJsonArray{QStringLiteral("openai/gpt-5.5")}}})
                     .status,
                 200);
        const QJsonArray again = send(QStringLiteral("GET"), f.engine->baseUrl() + QStringLiteral("/sharers?model=openai/gpt-5.2"), {},
                                      {{"authorization", QByteArray("Bearer ") + AdminToken}})
                                     .json()
                                     .value(QLatin1String("data"))
                                     .toArray();
        QCOMPARE(again.size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestPlanAgreement)
#include "TestPlanAgreement.moc"
