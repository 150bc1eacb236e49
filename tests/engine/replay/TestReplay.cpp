// docs/replay.md: POST /keys/route-replay replays a key's recorded requests through the planner
// with unsaved edits. The history is recorded here by the real engine against the fake upstream
// on a ManualClock: a deterministic stream of requests over three days, some meeting a failing sharer.
#include "ReplayFixture.h"

#include "billing/Quote.h"
#include "host/EngineContext.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
using ReplaySharers::A;
using ReplaySharers::B;
using ReplaySharers::C;
constexpr int Days = 3;
constexpr int PerDay = 500;
constexpr qint64 DayMs = 24LL * 3600 * 1000;

QJsonObject route(const QString &name, const QStringList &models, const QJsonObject &more = {}, const QJsonObject &target = {})
{
    QJsonArray targets;
    for (const QString &m : models) {
        QJsonObject t = target;
        t.insert(QStringLiteral("model"), m);
        targets.append(t);
    }
    QJsonObject r = more;
    r.insert(QStringLiteral("name"), name);
    r.insert(QStringLiteral("targets"), targets);
    return r;
}
// Every 40th request finds A failing (C serves it); requests 300-304 find both failing.
std::optional<Script> failures(const ReceivedRequest &r, int index)
{
    const QByteArray who = FakeUpstream::credentialOf(r);
    if (index >= 300 && index < 305 && who != B.toLatin1())
        return FakeUpstream::error(503, QStringLiteral("overloaded"));
    if (index % 40 == 7 && who == A.toLatin1())
        return FakeUpstream::error(503, QStringLiteral("overloaded"));
    return std::nullopt;
}
} // namespace

class TestReplay : public QObject
{
    Q_OBJECT
private:
    // Two recordings of the same stream: "main" as it was, and "main" already edited to gpt-5.5.
    RoutingFixture recorded;
    RoutingFixture edited;
    QList<RecordedAsk> stream;
    qint64 startMs = 0;

    static QString keyId(RoutingFixture &f) { return f.engine->context().keys.first().id; }
    static bool record(RoutingFixture &f, const QJsonArray &routes, const QList<RecordedAsk> &stream, qint64 startMs)
    {
        if (!f.start(ReplaySharers::all()))
            return false;
        const Reply saved = f.admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + keyId(f), {{QStringLiteral("routes"), routes}});
        if (saved.status != 200)
            return false;
        answerWithNamedUsage(*f.upstream, [](const ReceivedRequest &r) {
            const QString content = r.json().value(QLatin1String("messages")).toArray().first().toObject().value(QLatin1String("content")).toString();
            return failures(r, content.section(QLatin1Char(':'), 3).toInt());
        });
        return sendStream(f, stream, startMs);
    }
    QJsonObject replay(RoutingFixture &f, const QJsonObject &more = {})
    {
        QJsonObject body = more;
        body.insert(QStringLiteral("key"), keyId(f));
        if (!body.contains(QLatin1String("days")))
            body.insert(QStringLiteral("days"), Days + 1);
        const Reply r = f.admin(QStringLiteral("POST"), QStringLiteral("/keys/route-replay"), body);
        if (r.status != 200)
            qWarning() << r.status << r.body;
        return r.status == 200 ? r.json() : QJsonObject();
    }
    QList<Store::TraceRecord> traces(RoutingFixture &f)
    {
        Store::TraceQuery q;
        q.limit = 100000;
        QList<Store::TraceRecord> all = f.engine->context().store->traces(q);
        std::reverse(all.begin(), all.end());
        return all;
    }

private Q_SLOTS:
    void initTestCase()
    {
        stream = recordedStream(Days, PerDay, {QStringLiteral("main"), QStringLiteral("main"), QStringLiteral("openai/gpt-5.2")});
        startMs = (recorded.clock.nowMs() / DayMs + 1) * DayMs + 60 * 1000; // 00:01 UTC of the next day: three whole days
        QVERIFY(record(recorded, QJsonArray{route(QStringLiteral("main"), {QStringLiteral("openai/gpt-5.2")})}, stream, startMs));
        QVERIFY(record(edited, QJsonArray{route(QStringLiteral("main"), {QStringLiteral("openai/gpt-5.5")})}, stream, startMs));
    }

    void theHistoryIsWhatWasSent()
    {
        const QList<Store::TraceRecord> all = traces(recorded);
        QCOMPARE(all.size(), stream.size());
        int withSession = 0;
        for (const Store::TraceRecord &t : all) {
            QVERIFY(!t.session.isEmpty()); // recorded since schema 6: a seed, or "none"
            withSession += t.session != QLatin1String("none");
            QCOMPARE(t.maxOutputTokens, qint64(4000));
        }
        QVERIFY(withSession > 0);
    }

    void replayingTheRouteUsedReproducesTheRecordedCost()
    {
        const QList<Store::TraceRecord> before = traces(recorded);
        const QJsonObject r = replay(recorded);
        QVERIFY(!r.isEmpty());
        QCOMPARE(r.value(QLatin1String("scope")).toString(), QStringLiteral("asked"));
        QCOMPARE(r.value(QLatin1String("requests")).toObject().value(QLatin1String("replayed")).toInt(), int(stream.size()));
        const double actual = r.value(QLatin1String("actual")).toObject().value(QLatin1String("costUsd")).toDouble();
        const double projected = r.value(QLatin1String("projected")).toObject().value(QLatin1String("costUsd")).toDouble();
        qInfo("recorded $%.6f, replayed $%.6f over %d requests", actual, projected, int(stream.size()));
        QVERIFY2(actual > 1.0, qPrintable(QString::number(actual)));
        QVERIFY2(qAbs(projected - actual) <= actual * 0.01, qPrintable(QStringLiteral("%1 vs %2").arg(projected).arg(actual)));
        const QJsonArray days = r.value(QLatin1String("perDay")).toArray();
        QCOMPARE(days.size(), Days);
        for (const QJsonValue &d : days) {
            const double a = d[QLatin1String("actualUsd")].toDouble(), p = d[QLatin1String("projectedUsd")].toDouble();
            QVERIFY2(qAbs(p - a) <= a * 0.01, qPrintable(d[QLatin1String("day")].toString()));
        }
        // The sharers that failed at the time stay failed in the replay: the same requests go to C.
        const QJsonObject perSharer = r.value(QLatin1String("perSharer")).toObject();
        for (const QString &h : {A, C})
            QCOMPARE(perSharer.value(h)[QLatin1String("projected")].toInt(), perSharer.value(h)[QLatin1String("actual")].toInt());
        // The requests every sharer failed (or was cooling for) had no sharer in the replay either.
        const int failed = int(std::count_if(before.begin(), before.end(), [](const Store::TraceRecord &t) { return t.status != 200; }));
        qInfo("%d requests failed at the time", failed);
        QVERIFY(failed >= 5);
        QCOMPARE(r.value(QLatin1String("noSharer")).toObject().value(QLatin1String("requests")).toInt(), failed);
        // Nothing written: the same traces, the same ledger.
        QCOMPARE(traces(recorded).size(), before.size());
    }

    void anEditedRouteMatchesTheEngineRunningIt()
    {
        const QJsonObject projection =
            replay(recorded, {{QStringLiteral("route"), route(QStringLiteral("main"), {QStringLiteral("openai/gpt-5.5")})}});
        const QJsonObject ran = replay(edited, {{QStringLiteral("route"), QStringLiteral("main")}});
        QCOMPARE(projection.value(QLatin1String("scope")).toString(), QStringLiteral("route"));
        QCOMPARE(ran.value(QLatin1String("scope")).toString(), QStringLiteral("route"));
        const double projected = projection.value(QLatin1String("projected")).toObject().value(QLatin1String("costUsd")).toDouble();
        const double real = ran.value(QLatin1String("actual")).toObject().value(QLatin1String("costUsd")).toDouble();
        qInfo("projected $%.6f, the engine ran it for $%.6f", projected, real);
        QVERIFY2(real > 0.5, qPrintable(QString::number(real)));
        QVERIFY2(qAbs(projected - real) <= real * 0.01, qPrintable(QStringLiteral("%1 vs %2").arg(projected).arg(real)));
        const QJsonObject projectedTargets = projection.value(QLatin1String("perTarget")).toObject();
        const QJsonObject realTargets = ran.value(QLatin1String("perTarget")).toObject();
        QCOMPARE(projectedTargets.value(QStringLiteral("openai/gpt-5.5"))[QLatin1String("projected")].toInt(),
                 realTargets.value(QStringLiteral("openai/gpt-5.5"))[QLatin1String("actual")].toInt());
        QCOMPARE(projection.value(QLatin1String("topChanges")).toArray().size(), 5);
        QVERIFY(projection.value(QLatin1String("changed")).toInt() > 5);
    }

    void aDailyBudgetStopsTheRequestsAfterIt()
    {
        const double budget = 4.0;
        const QJsonObject r = replay(recorded, {{QStringLiteral("route"), route(QStringLiteral("main"), {QStringLiteral("openai/gpt-5.2")},
                                                                                {{QStringLiteral("budgetUsdPerDay"), budget}})}});
        // What the budget leaves, day by day, from the recorded costs of the route's own requests.
        QMap<QString, int> expected;
        QMap<QString, double> spent;
        int expectedNoSharer = 0;
        for (const Store::TraceRecord &t : traces(recorded)) {
            if (t.modelAsked != QLatin1String("main"))
                continue;
            const QString day = Store::utcDay(t.startedMs);
            if (spent[day] >= budget)
                ++expected[day];
            else if (t.status == 200)
                spent[day] += t.costUsd;
            else
                ++expectedNoSharer;
        }
        QVERIFY(!expected.isEmpty());
        const QJsonObject hits = r.value(QLatin1String("budget")).toObject();
        int total = 0;
        for (auto it = expected.begin(); it != expected.end(); ++it) {
            QCOMPARE(hits.value(QLatin1String("days")).toObject().value(it.key()).toInt(), it.value());
            total += it.value();
        }
        qInfo("the budget stops %d requests over %d days", total, int(expected.size()));
        QCOMPARE(hits.value(QLatin1String("requests")).toInt(), total);
        QCOMPARE(hits.value(QLatin1String("firstDay")).toString(), expected.firstKey());
        QCOMPARE(r.value(QLatin1String("noSharer")).toObject().value(QLatin1String("requests")).toInt(), expectedNoSharer);
    }

    void aCostCapRefusesTheRequestsItPricesOut()
    {
        // A quotes $0.028 for the 4,000-token output cap plus $0.875 per million prompt tokens:
        // this cap lets the shorter prompts through and refuses the longer ones.
        const double cap = 0.037;
        const QJsonObject r = replay(recorded, {{QStringLiteral("route"), route(QStringLiteral("main"), {QStringLiteral("openai/gpt-5.2")}, {},
                                                                                {{QStringLiteral("maxCostUsd"), cap}})}});
        // A's quote (the cheaper) at the recorded prompt and the 4,000-token output cap.
        const EngineContext &ctx = recorded.engine->context();
        int expected = 0, routed = 0;
        for (const Store::TraceRecord &t : traces(recorded)) {
            if (t.modelAsked != QLatin1String("main"))
                continue;
            ++routed;
            const auto rates = Billing::ratesFor(*ctx.sharer(A), ctx.catalog.model(QStringLiteral("openai"), QStringLiteral("gpt-5.2")),
                                                 QStringLiteral("gpt-5.2"), t.inputTokens);
            QVERIFY(rates);
            expected += Billing::costOf(*rates, t.inputTokens, 4000) > cap;
        }
        qInfo("the cost cap prices out %d requests", expected);
        QVERIFY(expected > routed / 5 && expected < routed * 4 / 5);
        QCOMPARE(r.value(QLatin1String("costCap")).toObject().value(QLatin1String("refused")).toObject().value(QLatin1String("requests")).toInt(),
                 expected);
    }

    void badAsksAreRefusedWithTheFix_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("words");
        QTest::newRow("no key") << QJsonObject{{QStringLiteral("days"), 3}} << 400 << QStringLiteral("say which key");
        QTest::newRow("unknown key") << QJsonObject{{QStringLiteral("key"), QStringLiteral("nobody")}} << 404 << QStringLiteral("no key nobody");
        QTest::newRow("zero days") << QJsonObject{{QStringLiteral("key"), QStringLiteral("test")}, {QStringLiteral("days"), 0}} << 400
                                   << QStringLiteral("from 1 to 90");
        QTest::newRow("fractional days") << QJsonObject{{QStringLiteral("key"), QStringLiteral("test")}, {QStringLiteral("days"), 1.5}} << 400
                                         << QStringLiteral("whole number");
        QTest::newRow("unknown route") << QJsonObject{{QStringLiteral("key"), QStringLiteral("test")},
                                                      {QStringLiteral("route"), QStringLiteral("nope")}}
                                       << 404 << QStringLiteral("no route nope");
        QTest::newRow("bad scope") << QJsonObject{{QStringLiteral("key"), QStringLiteral("test")},
                                                  {QStringLiteral("route"), QStringLiteral("main")},
                                                  {QStringLiteral("scope"), QStringLiteral("some")}}
                                   << 400 << QStringLiteral("\"scope\" is");
        QTest::newRow("route without targets") << QJsonObject{{QStringLiteral("key"), QStringLiteral("test")},
                                                              {QStringLiteral("route"), QJsonObject{{QStringLiteral("name"), QStringLiteral("x")}}}}
                                               << 400 << QStringLiteral("targets");
        QTest::newRow("routing not an object") << QJsonObject{{QStringLiteral("key"), QStringLiteral("test")}, {QStringLiteral("routing"), 3}} << 400
                                               << QStringLiteral("\"routing\" is");
    }
    void badAsksAreRefusedWithTheFix()
    {
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QFETCH(QString, words);
        if (body.value(QLatin1String("key")).toString() == QLatin1String("test"))
            body.insert(QStringLiteral("key"), keyId(recorded));
        const Reply r = recorded.admin(QStringLiteral("POST"), QStringLiteral("/keys/route-replay"), body);
        QCOMPARE(r.status, status);
        QVERIFY2(errorMessage(r).contains(words), qPrintable(errorMessage(r)));
    }
};

QTEST_GUILESS_MAIN(TestReplay)
#include "TestReplay.moc"
