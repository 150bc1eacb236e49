// Issue 6, docs/rules/routes-budgets-chains.md "Named routes", "First-token limit" and "Daily budgets": a key's named
// routes, used by sending the route's name as the model, through the real engine on one
// ManualClock with the fake upstream.
#include "RoutingFixture.h"

#include "host/EngineContext.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1"); // openai gpt-5.2, cheapest
const QString C = QStringLiteral("L00000000000000c1"); // openai gpt-5.2, dearer
const QString R = QStringLiteral("L00000000000000e1"); // openrouter openai/gpt-5.5
const QString B = QStringLiteral("L00000000000000b1"); // openai gpt-5.5
const QString T1 = QStringLiteral("openai/gpt-5.2");
const QString T2 = QStringLiteral("openrouter/openai/gpt-5.5");
QJsonObject percent(int p)
{
    return QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), p}}}};
}
QJsonObject target(const QString &model, const QJsonObject &more = {})
{
    QJsonObject t = more;
    t.insert(QStringLiteral("model"), model);
    return t;
}
QJsonObject route(const QString &name, const QJsonArray &targets, const QJsonObject &more = {})
{
    QJsonObject r = more;
    r.insert(QStringLiteral("name"), name);
    r.insert(QStringLiteral("targets"), targets);
    return r;
}
constexpr qint64 DayMs = 24LL * 3600 * 1000;
} // namespace

class TestRoutes : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

    QString keyId() const { return f.engine->context().keys.first().id; }
    Reply admin(const QString &method, const QString &path, const QJsonObject &body = {})
    {
        return send(method, f.engine->baseUrl() + path, body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(),
                    {{"authorization", QByteArray("Bearer ") + AdminToken}});
    }
    Reply saveRoutes(const QJsonArray &routes)
    {
        return admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + keyId(), {{QStringLiteral("routes"), routes}});
    }
    Reply saveRouting(const QJsonObject &routing)
    {
        return admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + keyId(), {{QStringLiteral("routing"), routing}});
    }
    Reply stream(const QString &model) { return f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(model, true)); }
    static QStringList rows(const QJsonArray &attempts, const char *field, bool dispatchedOnly = true)
    {
        QStringList out;
        for (const QJsonValue &v : attempts)
            if (!dispatchedOnly || v.toObject().value(QLatin1String("dispatched")).toBool())
                out << v.toObject().value(QLatin1String(field)).toString();
        return out;
    }
    QList<Store::LedgerEntry> ledgerToday()
    {
        f.lastTrace(); // waits for the writer
        return f.engine->context().store->ledger(Store::utcDay(f.clock.nowMs()));
    }
    QJsonObject dryRun(const QString &model)
    {
        const Reply r = admin(QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"),
                              {{QStringLiteral("key"), keyId()}, {QStringLiteral("model"), model}});
        return r.json();
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(50)),
                                   sharer(C, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(70)),
                                   sharer(R, QStringLiteral("openrouter"), {}, {QStringLiteral("openai/gpt-5.5")}, percent(50)),
                                   sharer(B, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.5")}, percent(60))}));
    }

    void routesAreCheckedWhenSaved_data()
    {
        QTest::addColumn<QJsonArray>("routes");
        QTest::addColumn<QString>("says");
        QTest::newRow("auto/ target") << QJsonArray{route(QStringLiteral("r"), {target(QStringLiteral("auto/gpt-5.2"))})}
                                      << QStringLiteral("auto/ cannot be one");
        QTest::newRow("first-token limit on one target") << QJsonArray{route(QStringLiteral("r"), {target(T1)}, {{QStringLiteral("ttftMs"), 5000}})}
                                                         << QStringLiteral("needs two targets or more");
        QTest::newRow("first-token limit below 1 s")
            << QJsonArray{route(QStringLiteral("r"), {target(T1), target(T2)}, {{QStringLiteral("ttftMs"), 500}})}
            << QStringLiteral("from 1000 to 60000");
        QTest::newRow("two budgets on one call") << QJsonArray{route(
            QStringLiteral("r"), {target(T1, {{QStringLiteral("budgetUsdPerDay"), 1}}), target(T1, {{QStringLiteral("budgetUsdPerDay"), 2}})})}
                                                 << QStringLiteral("both call openai/gpt-5.2 and both carry a daily budget");
        QTest::newRow("unknown provider") << QJsonArray{route(QStringLiteral("r"), {target(QStringLiteral("nope/x"))})}
                                          << QStringLiteral("provider \"nope\"");
        QTest::newRow("a target cannot carry sharer lists")
            << QJsonArray{route(QStringLiteral("r"), {target(T1, {{QStringLiteral("onlySharers"), QJsonArray{A}}})})}
            << QStringLiteral("cover the whole key");
        QTest::newRow("pinned to another provider's sharer")
            << QJsonArray{route(QStringLiteral("r"), {target(T1, {{QStringLiteral("sharer"), R}})})} << QStringLiteral("a openrouter sharer");
        QTest::newRow("a name twice") << QJsonArray{route(QStringLiteral("r"), {target(T1)}), route(QStringLiteral("r"), {target(T2)})}
                                      << QStringLiteral("named twice");
        QTest::newRow("a slash in the name") << QJsonArray{route(QStringLiteral("a/b"), {target(T1)})} << QStringLiteral("cannot contain \"/\"");
        QTest::newRow("order") << QJsonArray{route(QStringLiteral("r"), {target(T1)}, {{QStringLiteral("order"), QStringLiteral("random")}})}
                               << QStringLiteral("\"in order\", \"cheapest\" or \"round-robin\"");
    }
    void routesAreCheckedWhenSaved()
    {
        QFETCH(QJsonArray, routes);
        QFETCH(QString, says);
        const Reply r = saveRoutes(routes);
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(says), qPrintable(errorMessage(r)));
        QVERIFY(f.engine->context().keys.first().routes.isEmpty());
    }

    void keyListsAndRoutesAreCheckedAgainstEachOther()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"), {target(T1, {{QStringLiteral("sharer"), C}}), target(T2)})}).status, 200);
        Reply r = saveRouting({{QStringLiteral("excludeProviders"), QJsonArray{QStringLiteral("openrouter")}}});
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("route \"coding\" targets openrouter/openai/gpt-5.5")), qPrintable(errorMessage(r)));
        r = saveRouting({{QStringLiteral("neverSharers"), QJsonArray{C}}});
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("change or remove that route first")), qPrintable(errorMessage(r)));
        // And the other way round: a route the key's lists refuse.
        QCOMPARE(saveRoutes({}).status, 200);
        QCOMPARE(saveRouting({{QStringLiteral("onlySharers"), QJsonArray{A, R}}}).status, 200);
        r = saveRoutes({route(QStringLiteral("coding"), {target(T1, {{QStringLiteral("sharer"), C}})})});
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("routing.onlySharers leaves off L00000000000000c1")), qPrintable(errorMessage(r)));
    }

    void aRouteIsStoredAsDocumented()
    {
        const Reply r = saveRoutes({route(
            QStringLiteral("coding"),
            {target(T1, {{QStringLiteral("sharer"), QStringLiteral("l00000000000000A1")}, {QStringLiteral("maxCostUsd"), QStringLiteral("$0.5")}}),
             target(T2, {{QStringLiteral("budgetUsdPerDay"), QJsonValue::Null}})},
            {{QStringLiteral("order"), QStringLiteral("in order")},
             {QStringLiteral("prefer"), QStringLiteral("follow")},
             {QStringLiteral("ttftMs"), 8000},
             {QStringLiteral("budgetUsdPerDay"), 5}})});
        QCOMPARE(r.status, 200);
        const QJsonObject saved = r.json().value(QLatin1String("key")).toObject().value(QLatin1String("routes")).toArray().first().toObject();
        // "in order" and "follow" are stored as nothing; handles canonical; nulls dropped.
        QVERIFY(!saved.contains(QLatin1String("order")));
        QVERIFY(!saved.contains(QLatin1String("prefer")));
        QCOMPARE(saved.value(QLatin1String("ttftMs")).toInt(), 8000);
        const QJsonObject t1 = saved.value(QLatin1String("targets")).toArray().at(0).toObject();
        QCOMPARE(t1.value(QLatin1String("sharer")).toString(), A);
        QCOMPARE(t1.value(QLatin1String("maxCostUsd")).toDouble(), 0.5);
        QVERIFY(!saved.value(QLatin1String("targets")).toArray().at(1).toObject().contains(QLatin1String("budgetUsdPerDay")));
        // Kept across a restart.
        QVERIFY(f.engine->restart());
        QCOMPARE(f.engine->context().keys.first().routes.first().toObject(), saved);
    }

    void aRouteIsUsedBySendingItsNameAsTheModel()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"), {target(T1), target(T2)})}).status, 200);
        const Reply r = f.chat(QStringLiteral("coding"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), A.toLatin1()); // the first target, its cheapest sharer
        QCOMPARE(r.header("x-aile-model"), T1.toLatin1());
        QCOMPARE(f.upstream->received().last().json().value(QLatin1String("model")).toString(), QStringLiteral("gpt-5.2"));
        const QJsonObject trace = f.lastTrace();
        QCOMPARE(trace.value(QLatin1String("route")).toString(), QStringLiteral("coding"));
        QCOMPARE(rows(f.lastAttempts(), "target"), QStringList{T1});
        // The ledger keeps it under the route and what the target calls.
        const QList<Store::LedgerEntry> ledger = ledgerToday();
        QCOMPARE(ledger.size(), 1);
        QCOMPARE(ledger.first().route, QStringLiteral("coding"));
        QCOMPARE(ledger.first().target, T1);
        // Any other model is not a route.
        QCOMPARE(f.chat(QStringLiteral("codin")).status, 400);
        // The key's model list offers the route first, for clients that pick from it.
        const Reply models = send(QStringLiteral("GET"), f.engine->baseUrl() + QStringLiteral("/v1/models"), {}, f.auth());
        const QJsonObject first = models.json().value(QLatin1String("data")).toArray().first().toObject();
        QCOMPARE(first.value(QLatin1String("id")).toString(), QStringLiteral("coding"));
        QCOMPARE(first.value(QLatin1String("owned_by")).toString(), QStringLiteral("aile-route"));
    }

    void theNextTargetIsTriedOnlyWhenOneFails()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"), {target(T1), target(T2)})}).status, 200);
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        f.upstream->enqueueFor(C.toLatin1(), FakeUpstream::error(503, QStringLiteral("overloaded")));
        const Reply r = f.chat(QStringLiteral("coding"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), R.toLatin1());
        // The sharer order inside the first target is unchanged: cheapest first.
        const QJsonArray attempts = f.lastAttempts();
        QCOMPARE(rows(attempts, "sharer"), (QStringList{A, C, R}));
        QCOMPARE(rows(attempts, "target"), (QStringList{T1, T1, T2}));
        QCOMPARE(rows(attempts, "outcome"), (QStringList{QStringLiteral("failed_over"), QStringLiteral("failed_over"), QStringLiteral("served")}));
        QCOMPARE(f.upstream->received().last().json().value(QLatin1String("model")).toString(), QStringLiteral("openai/gpt-5.5"));
    }

    void cheapestOrderTriesTheCheaperTargetFirst()
    {
        // gpt-5.5 at 60% of $5/$30 is dearer than gpt-5.2 at 50% of $1.75/$14.
        QCOMPARE(saveRoutes({route(QStringLiteral("r"), {target(QStringLiteral("openai/gpt-5.5")), target(T1)},
                                   {{QStringLiteral("order"), QStringLiteral("cheapest")}})})
                     .status,
                 200);
        QCOMPARE(f.chat(QStringLiteral("r")).header("x-aile-sharer"), A.toLatin1());
        QCOMPARE(saveRoutes({route(QStringLiteral("r"), {target(QStringLiteral("openai/gpt-5.5")), target(T1)})}).status, 200);
        QCOMPARE(f.chat(QStringLiteral("r")).header("x-aile-sharer"), B.toLatin1()); // in order
    }

    void roundRobinStartsOneFurtherEachRequestAndTheDryRunMovesNothing()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("rr"), {target(T1), target(T2), target(QStringLiteral("openai/gpt-5.5"))},
                                   {{QStringLiteral("order"), QStringLiteral("round-robin")}})})
                     .status,
                 200);
        QCOMPARE(f.chat(QStringLiteral("rr")).header("x-aile-sharer"), A.toLatin1());
        // Asking twice does not move the turn: the dry run shows what the next request gets.
        for (int i = 0; i < 2; ++i) {
            const QJsonObject d = dryRun(QStringLiteral("rr"));
            QCOMPARE(d.value(QLatin1String("route")).toObject().value(QLatin1String("turn")).toInt(), 1);
            QCOMPARE(d.value(QLatin1String("targets")).toArray().first().toObject().value(QLatin1String("target")).toString(), T2);
        }
        QCOMPARE(f.chat(QStringLiteral("rr")).header("x-aile-sharer"), R.toLatin1());
        QCOMPARE(f.chat(QStringLiteral("rr")).header("x-aile-sharer"), B.toLatin1());
        QCOMPARE(f.chat(QStringLiteral("rr")).header("x-aile-sharer"), A.toLatin1());
        // The next target is still tried when the turn's target fails.
        f.upstream->enqueueFor(R.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        const Reply r = f.chat(QStringLiteral("rr"));
        QCOMPARE(r.header("x-aile-sharer"), B.toLatin1());
    }

    void aTargetsPinAndCapBindWithTheKeysTheStricterWinning()
    {
        // Pinned to the dearer sharer: only it is dialled for that target.
        QCOMPARE(saveRoutes({route(QStringLiteral("pin"), {target(T1, {{QStringLiteral("sharer"), C}})})}).status, 200);
        QCOMPARE(f.chat(QStringLiteral("pin")).header("x-aile-sharer"), C.toLatin1());
        // A target cap no sharer fits: the route moves on to its next target instead of a 402.
        QCOMPARE(saveRoutes({route(QStringLiteral("cap"),
                                   {target(QStringLiteral("openai/gpt-5.5"), {{QStringLiteral("maxCostUsd"), 0.000001}}), target(T1)})})
                     .status,
                 200);
        Reply r = f.chat(QStringLiteral("cap"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), A.toLatin1());
        QJsonArray attempts = f.lastAttempts();
        QVERIFY2(
            rows(attempts, "reason", false).join(QLatin1Char('\n')).contains(QLatin1String("route cap target openai/gpt-5.5's max cost per request")),
            qPrintable(rows(attempts, "reason", false).join(QLatin1Char('\n'))));
        // The key's own cap binds the targets too, when it is the stricter.
        QCOMPARE(saveRoutes({route(QStringLiteral("cap"), {target(T1, {{QStringLiteral("maxCostUsd"), 5}})})}).status, 200);
        QCOMPARE(saveRouting({{QStringLiteral("maxCostUsd"), 0.000001}}).status, 200);
        r = f.chat(QStringLiteral("cap"));
        QCOMPARE(r.status, 402);
        QVERIFY2(errorMessage(r).contains(QLatin1String("this API key's max cost per request")), qPrintable(errorMessage(r)));
        QCOMPARE(f.upstream->received().size(), 2);
    }

    void preferOnTheRouteWinsOverTheKeys()
    {
        QCOMPARE(saveRouting({{QStringLiteral("prefer"), QStringLiteral("speed")}}).status, 200);
        QCOMPARE(saveRoutes({route(QStringLiteral("p"), {target(T1)}, {{QStringLiteral("prefer"), QStringLiteral("price")}}),
                             route(QStringLiteral("f"), {target(T1)})})
                     .status,
                 200);
        QCOMPARE(f.chat(QStringLiteral("p")).status, 200);
        QCOMPARE(f.lastTrace().value(QLatin1String("orderedBy")).toString(), QString());
        QCOMPARE(f.chat(QStringLiteral("f")).status, 200);
        QCOMPARE(f.lastTrace().value(QLatin1String("orderedBy")).toString(), QStringLiteral("speed"));
        QCOMPARE(saveRouting({}).status, 200);
        QCOMPARE(saveRoutes({route(QStringLiteral("s"), {target(T1)}, {{QStringLiteral("prefer"), QStringLiteral("speed")}})}).status, 200);
        QCOMPARE(f.chat(QStringLiteral("s")).status, 200);
        QCOMPARE(f.lastTrace().value(QLatin1String("orderedBy")).toString(), QStringLiteral("speed"));
    }

    void aSilentTargetIsDroppedAtTheFirstTokenLimit()
    {
        QCOMPARE(
            saveRoutes({route(QStringLiteral("fast"), {target(T1, {{QStringLiteral("sharer"), A}}), target(T2)}, {{QStringLiteral("ttftMs"), 2000}})})
                .status,
            200);
        // A answers its head and an empty role chunk at once, then nothing for 5 s.
        Script slow = FakeUpstream::chatStream();
        slow.events[1].delayMs = 5000;
        f.upstream->enqueueFor(A.toLatin1(), slow);
        QNetworkReply *reply = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"),
                                             RoutingFixture::chatBody(QStringLiteral("fast"), true), f.auth());
        QTRY_COMPARE(f.upstream->received().size(), 1);
        QTest::qWait(100);
        // Nothing reaches the client while a target waits, not even headers.
        QVERIFY(!reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid());
        f.clock.advance(1999);
        QCOMPARE(f.upstream->received().size(), 1);
        f.clock.advance(1);
        const Reply r = AsyncClient::wait(reply);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), R.toLatin1());
        QVERIFY(r.body.contains("Hel"));
        const QJsonArray attempts = f.lastAttempts();
        QCOMPARE(rows(attempts, "outcome"), (QStringList{QStringLiteral("ttft_dropped"), QStringLiteral("served")}));
        // Nothing charged for the dropped attempt, and the sharer is not marked down.
        const QList<Store::LedgerEntry> ledger = ledgerToday();
        QCOMPARE(ledger.size(), 1);
        QCOMPARE(ledger.first().sharer, R);
        QCOMPARE(f.engine->context().health->coolingUntil(A, QStringLiteral("gpt-5.2")), 0);
        QCOMPARE(f.engine->context().health->of(A).ladderStep, 0);
        QCOMPARE(f.engine->context().health->of(A).outcomes, 0); // no failure recorded against it
    }

    void theLastTargetIsNeverCutAndOnlyStreamsAreLimited()
    {
        QCOMPARE(
            saveRoutes({route(QStringLiteral("fast"), {target(T1, {{QStringLiteral("sharer"), A}}), target(T2)}, {{QStringLiteral("ttftMs"), 2000}})})
                .status,
            200);
        // The first target fails at once; the last one is slow and still answers.
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        Script slow = FakeUpstream::chatStream();
        slow.events[1].delayMs = 5000;
        f.upstream->enqueueFor(R.toLatin1(), slow);
        QNetworkReply *reply = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"),
                                             RoutingFixture::chatBody(QStringLiteral("fast"), true), f.auth());
        QTRY_COMPARE(f.upstream->received().size(), 2);
        f.clock.advance(5000);
        Reply r = AsyncClient::wait(reply);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), R.toLatin1());
        // A request that is not streamed ignores the limit.
        f.engine->context().health->reset();
        Script slowBody = FakeUpstream::chatCompletion();
        slowBody.headDelayMs = 5000;
        f.upstream->enqueueFor(A.toLatin1(), slowBody);
        reply =
            f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(QStringLiteral("fast")), f.auth());
        QTRY_COMPARE(f.upstream->received().size(), 3);
        f.clock.advance(5000);
        r = AsyncClient::wait(reply);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), A.toLatin1());
    }

    void aSpentRouteIsRefusedWithTheDocumentedTextUntilMidnight()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"), {target(T1)}, {{QStringLiteral("budgetUsdPerDay"), 0.00001}})}).status, 200);
        QCOMPARE(f.chat(QStringLiteral("coding")).status, 200); // soft: it runs, and counts
        const Reply r = f.chat(QStringLiteral("coding"));
        QCOMPARE(r.status, 402);
        QCOMPARE(errorMessage(r), QStringLiteral("route coding spent its $0.00001 daily budget; resets 00:00 UTC"));
        QCOMPARE(f.upstream->received().size(), 1); // nothing sent
        // Other requests of the key are not bound by the route's budget.
        QCOMPARE(f.chat(T1).status, 200);
        f.clock.advance(DayMs - f.clock.nowMs() % DayMs - 1); // to 23:59:59.999 UTC
        QCOMPARE(f.chat(QStringLiteral("coding")).status, 402);
        f.clock.advance(1);
        QCOMPARE(f.chat(QStringLiteral("coding")).status, 200);
    }

    void requestsInFlightWhenABudgetIsReachedFinishAndCount()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"), {target(T1)}, {{QStringLiteral("budgetUsdPerDay"), 0.00001}})}).status, 200);
        Script slow = FakeUpstream::chatCompletion();
        slow.headDelayMs = 1000;
        f.upstream->enqueue(slow);
        f.upstream->enqueue(slow);
        QNetworkReply *one =
            f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(QStringLiteral("coding")), f.auth());
        QNetworkReply *two =
            f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(QStringLiteral("coding")), f.auth());
        QTRY_COMPARE(f.upstream->received().size(), 2);
        f.clock.advance(1000);
        QCOMPARE(AsyncClient::wait(one).status, 200);
        QCOMPARE(AsyncClient::wait(two).status, 200);
        const QList<Store::LedgerEntry> ledger = ledgerToday();
        QCOMPARE(ledger.size(), 2); // both counted: the route went over by one charge
        QVERIFY(ledger.at(0).costUsd + ledger.at(1).costUsd > 0.00001);
        QCOMPARE(f.chat(QStringLiteral("coding")).status, 402);
    }

    void aSpentTargetIsSkippedAndShownAsBudgetSpent()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"), {target(T1, {{QStringLiteral("budgetUsdPerDay"), 0.00001}}), target(T2)})}).status, 200);
        QCOMPARE(f.chat(QStringLiteral("coding")).header("x-aile-sharer"), A.toLatin1());
        const Reply r = f.chat(QStringLiteral("coding"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), R.toLatin1());
        const QJsonArray attempts = f.lastAttempts();
        const QJsonObject skipped = attempts.first().toObject();
        QCOMPARE(skipped.value(QLatin1String("skip")).toString(), QStringLiteral("budget_spent"));
        QCOMPARE(skipped.value(QLatin1String("target")).toString(), T1);
        QVERIFY2(skipped.value(QLatin1String("reason")).toString().startsWith(QLatin1String("budget spent")),
                 qPrintable(skipped.value(QLatin1String("reason")).toString()));
        // Spend is kept under what a target calls: reordering keeps the figure…
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"), {target(T2), target(T1, {{QStringLiteral("budgetUsdPerDay"), 0.00001}})})}).status, 200);
        const QJsonObject d = dryRun(QStringLiteral("coding"));
        const QJsonObject second = d.value(QLatin1String("targets")).toArray().at(1).toObject();
        QCOMPARE(second.value(QLatin1String("refusal")).toObject().value(QLatin1String("code")).toString(), QStringLiteral("budget_spent"));
        // …and editing the target (pinning it) starts it afresh.
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"),
                                   {target(T1, {{QStringLiteral("sharer"), A}, {QStringLiteral("budgetUsdPerDay"), 0.00001}}), target(T2)})})
                     .status,
                 200);
        QCOMPARE(f.chat(QStringLiteral("coding")).header("x-aile-sharer"), A.toLatin1());
        // Today's spend per route and target is on the key.
        const QJsonObject key = admin(QStringLiteral("GET"), QStringLiteral("/keys/") + keyId()).json().value(QLatin1String("key")).toObject();
        const QJsonObject spend = key.value(QLatin1String("routeSpend")).toArray().first().toObject();
        QCOMPARE(spend.value(QLatin1String("name")).toString(), QStringLiteral("coding"));
        const double t1 = spend.value(QLatin1String("targets")).toArray().at(0).toObject().value(QLatin1String("spentUsd")).toDouble();
        const double t2 = spend.value(QLatin1String("targets")).toArray().at(1).toObject().value(QLatin1String("spentUsd")).toDouble();
        QVERIFY(t1 > 0 && t2 > 0);
        double all = 0;
        for (const Store::LedgerEntry &e : ledgerToday())
            all += e.costUsd;
        // The first request's target (unpinned gpt-5.2) is no longer a target: the route's figure keeps it.
        QVERIFY(spend.value(QLatin1String("spentUsd")).toDouble() > t1 + t2 - 1e-12);
        QCOMPARE(spend.value(QLatin1String("spentUsd")).toDouble(), all);
    }

    void whenEveryTargetIsSpentOne402NamesThemAll()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"), {target(T1, {{QStringLiteral("budgetUsdPerDay"), 0.00001}}),
                                                              target(T2, {{QStringLiteral("budgetUsdPerDay"), 0.00001}})})})
                     .status,
                 200);
        QCOMPARE(f.chat(QStringLiteral("coding")).status, 200);
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        f.upstream->enqueueFor(C.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        f.engine->context().health->reset();
        QCOMPARE(f.chat(QStringLiteral("coding")).status, 200); // R, once both gpt-5.2 sharers failed
        const int sent = int(f.upstream->received().size());
        const Reply r = f.chat(QStringLiteral("coding"));
        QCOMPARE(r.status, 402);
        QVERIFY2(errorMessage(r).contains(QLatin1String("every target of route coding spent its daily budget: openai/gpt-5.2 ($0.00001), "
                                                        "openrouter/openai/gpt-5.5 ($0.00001); resets 00:00 UTC")),
                 qPrintable(errorMessage(r)));
        QCOMPARE(int(f.upstream->received().size()), sent);
    }

    void budgetsSurviveARestart()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"), {target(T1)}, {{QStringLiteral("budgetUsdPerDay"), 0.00001}})}).status, 200);
        QCOMPARE(f.chat(QStringLiteral("coding")).status, 200);
        f.lastTrace();
        QVERIFY(f.engine->restart());
        QCOMPARE(f.chat(QStringLiteral("coding")).status, 402);
    }

    void phaseLimitsAreARouteSettingToo()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("limited"), {target(T1, {{QStringLiteral("sharer"), A}})}, {{QStringLiteral("phaseLimits"), true}}),
                             route(QStringLiteral("plain"), {target(T1, {{QStringLiteral("sharer"), A}})})})
                     .status,
                 200);
        Script hang;
        hang.hangForever = true;
        for (const QString &name : {QStringLiteral("limited"), QStringLiteral("plain")}) {
            f.upstream->enqueueFor(A.toLatin1(), hang);
            QNetworkReply *reply =
                f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(name), f.auth());
            QTRY_COMPARE(f.upstream->inFlight(), 1);
            f.clock.advance(120'000);
            const Reply r = AsyncClient::wait(reply);
            QCOMPARE(r.status, name == QLatin1String("limited") ? 524 : 503);
            QTRY_COMPARE(f.upstream->inFlight(), 0);
            f.engine->context().health->reset();
        }
    }

    void theDryRunShowsARoutesTargetsInOrderWithTheirRefusals()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"), {target(T1, {{QStringLiteral("budgetUsdPerDay"), 0.00001}}), target(T2)},
                                   {{QStringLiteral("ttftMs"), 8000}})})
                     .status,
                 200);
        QJsonObject d = dryRun(QStringLiteral("coding"));
        QCOMPARE(d.value(QLatin1String("route")).toObject().value(QLatin1String("order")).toString(), QStringLiteral("in order"));
        QCOMPARE(d.value(QLatin1String("route")).toObject().value(QLatin1String("ttftMs")).toInt(), 8000);
        QJsonArray targets = d.value(QLatin1String("targets")).toArray();
        QCOMPARE(targets.size(), 2);
        QCOMPARE(targets.at(0).toObject().value(QLatin1String("target")).toString(), T1);
        QCOMPARE(targets.at(0).toObject().value(QLatin1String("sharers")).toArray().first().toObject().value(QLatin1String("handle")).toString(), A);
        QCOMPARE(targets.at(1).toObject().value(QLatin1String("target")).toString(), T2);
        QVERIFY(!d.contains(QLatin1String("refusal")));
        QCOMPARE(f.chat(QStringLiteral("coding")).status, 200);
        d = dryRun(QStringLiteral("coding"));
        targets = d.value(QLatin1String("targets")).toArray();
        // The spent target is listed after the ones that would be tried, with its refusal.
        QCOMPARE(targets.at(0).toObject().value(QLatin1String("target")).toString(), T2);
        QCOMPARE(targets.at(1).toObject().value(QLatin1String("refusal")).toObject().value(QLatin1String("status")).toInt(), 402);
        QCOMPARE(int(f.upstream->received().size()), 1); // the dry runs sent nothing
        QCOMPARE(ledgerToday().size(), 1);               // and charged nothing
    }

    void aRouteInAFallbackChainChargesOnlyItsOwnTargets()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"), {target(T1, {{QStringLiteral("sharer"), A}})})}).status, 200);
        const QByteArray chain = RoutingFixture::chatBody(
            QStringLiteral("coding"), false, {{QStringLiteral("models"), QJsonArray{QStringLiteral("coding"), QStringLiteral("openai/gpt-5.5")}}});
        QCOMPARE(f.post(QStringLiteral("/v1/chat/completions"), chain).header("x-aile-sharer"), A.toLatin1());
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        QCOMPARE(f.post(QStringLiteral("/v1/chat/completions"), chain).header("x-aile-sharer"), B.toLatin1());
        const QList<Store::LedgerEntry> ledger = ledgerToday();
        QCOMPARE(ledger.size(), 2);
        QCOMPARE(ledger.at(0).route, QStringLiteral("coding"));
        QCOMPARE(ledger.at(1).route, QString()); // gpt-5.5 served outside the route
    }

    void anImportedConfigurationIsCheckedAsTheKeysApiChecksIt()
    {
        auto import = [&](const QJsonObject &key) {
            const QJsonObject config{{QStringLiteral("sharers"), QJsonArray{sharer(QStringLiteral("L00000000000000d1"), QStringLiteral("deepseek"),
                                                                                   f.upstream->baseUrl(), {QStringLiteral("deepseek-chat")})}},
                                     {QStringLiteral("keys"), QJsonArray{key}}};
            return admin(QStringLiteral("POST"), QStringLiteral("/admin/config"), config);
        };
        // A target pinned to a sharer the same file adds is fine.
        QJsonObject key{{QStringLiteral("name"), QStringLiteral("test")},
                        {QStringLiteral("routes"),
                         QJsonArray{route(QStringLiteral("ds"), {target(QStringLiteral("deepseek/deepseek-chat"),
                                                                        {{QStringLiteral("sharer"), QStringLiteral("L00000000000000d1")}})})}}};
        QCOMPARE(import(key).status, 200);
        QCOMPARE(f.chat(QStringLiteral("ds")).header("x-aile-sharer"), QByteArray("L00000000000000d1"));
        // Routing that contradicts the routes is refused, and nothing of the file is applied.
        key.insert(QStringLiteral("routing"), QJsonObject{{QStringLiteral("excludeProviders"), QJsonArray{QStringLiteral("deepseek")}}});
        key.insert(QStringLiteral("routes"), QJsonArray{route(QStringLiteral("ds2"), {target(QStringLiteral("deepseek/deepseek-chat"))})});
        const Reply r = import(key);
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("key \"test\": routing.excludeProviders leaves out provider deepseek")),
                 qPrintable(errorMessage(r)));
        QVERIFY2(errorMessage(r).contains(QLatin1String("nothing was imported")), qPrintable(errorMessage(r)));
        QCOMPARE(f.engine->context().keys.first().routes.first().toObject().value(QLatin1String("name")).toString(), QStringLiteral("ds"));
    }

    void aProviderHeaderBesideARouteIsRefused()
    {
        QCOMPARE(saveRoutes({route(QStringLiteral("coding"), {target(T1)})}).status, 200);
        const Reply r = f.chat(QStringLiteral("coding"), {{"x-aile-provider", "openai"}});
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("a route names its own providers")), qPrintable(errorMessage(r)));
    }
};

QTEST_GUILESS_MAIN(TestRoutes)
#include "TestRoutes.moc"
