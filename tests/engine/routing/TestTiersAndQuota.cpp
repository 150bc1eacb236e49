// Issue 8 through the real engine: priority tiers and weights with per-model overrides (docs/rules/tiers-quota-health.md),
// quota windows from the providers' headers and quota-reset selection (docs/rules/tiers-quota-health.md), the capability
// filter, comparison price, tie band, Degraded sharers and provider.sort (docs/rules/tiers-quota-health.md), and the
// published 30-minute health (docs/rules/tiers-quota-health.md "Published health").
#include "RoutingFixture.h"

#include "health/HealthBook.h"

#include <cmath>

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString Model = QStringLiteral("openai/gpt-5.2");
const QStringList Gpt{QStringLiteral("gpt-5.2")};
const QString A = QStringLiteral("L00000000000000a1");
const QString B = QStringLiteral("L00000000000000b1");
const QString C = QStringLiteral("L00000000000000c1");

QJsonObject with(const QJsonObject &price, const QJsonObject &more = {})
{
    QJsonObject o = more;
    o.insert(QStringLiteral("price"), price);
    return o;
}
QJsonObject percent(int p)
{
    return QJsonObject{{QStringLiteral("percentOfList"), p}};
}
QJsonObject quote(double in, double out)
{
    return QJsonObject{{QStringLiteral("models"),
                        QJsonObject{{QStringLiteral("gpt-5.2"), QJsonObject{{QStringLiteral("input"), in}, {QStringLiteral("output"), out}}}}}};
}
QJsonObject subscription(int p, const QJsonObject &more = {})
{
    QJsonObject o = with(percent(p), more);
    o.insert(QStringLiteral("kind"), QStringLiteral("subscription"));
    return o;
}
} // namespace

class TestTiersAndQuota : public QObject
{
    Q_OBJECT
private:
    static Reply admin(RoutingFixture &f, const QString &method, const QString &path, const QByteArray &body = {})
    {
        return send(method, f.engine->baseUrl() + path, body, {{"authorization", QByteArray("Bearer ") + AdminToken}});
    }
    static void setRouting(RoutingFixture &f, const QJsonObject &routing)
    {
        QCOMPARE(admin(f, QStringLiteral("POST"), QStringLiteral("/admin/config"),
                       QJsonDocument(QJsonObject{{QStringLiteral("routing"), routing}}).toJson())
                     .status,
                 200);
    }
    static QJsonArray listing(RoutingFixture &f)
    {
        return admin(f, QStringLiteral("GET"), QStringLiteral("/sharers?model=") + Model).json().value(QLatin1String("data")).toArray();
    }
    static QStringList order(RoutingFixture &f)
    {
        QStringList out;
        for (const QJsonValue &v : listing(f))
            out << v.toObject().value(QLatin1String("handle")).toString()
                       + (v.toObject().value(QLatin1String("available")).toBool()
                              ? QString()
                              : QLatin1Char('!') + v.toObject().value(QLatin1String("skip")).toString());
        return out;
    }
    static QByteArray servedBy(RoutingFixture &f, const QJsonObject &extra = {})
    {
        return f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model, false, extra)).header("x-aile-sharer");
    }
    static Script withHeaders(const QList<QPair<QByteArray, QByteArray>> &headers)
    {
        Script s = FakeUpstream::chatCompletion();
        for (const auto &h : headers)
            s.headers.add(h.first, h.second);
        return s;
    }

private Q_SLOTS:
    void priorityTiersComeBeforePrice()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, Gpt, with(percent(50))),
                                   sharer(B, QStringLiteral("openai"), {}, Gpt, with(percent(100), {{QStringLiteral("priority"), 100}}))}));
        QCOMPARE(order(f), (QStringList{B, A}));
        QCOMPARE(servedBy(f), B.toLatin1());
        // Lower tiers are the cold backup: only when the higher one fails.
        f.upstream->enqueueFor(B.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        QCOMPARE(servedBy(f), A.toLatin1());
    }

    void perModelOverridesSetPriorityWeightAndEnabled()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, Gpt, with(percent(50))),
                                   sharer(B, QStringLiteral("openai"), {}, Gpt, with(percent(100)))}));
        auto over = [](const QJsonObject &a, const QJsonObject &b) {
            return QJsonObject{{QStringLiteral("models"),
                                QJsonObject{{QStringLiteral("gpt-5.2"), QJsonObject{{QStringLiteral("providers"), QJsonObject{{A, a}, {B, b}}}}}}}};
        };
        setRouting(f, over({}, {{QStringLiteral("priority"), 10}}));
        QCOMPARE(order(f), (QStringList{B, A}));
        setRouting(f, over({{QStringLiteral("enabled"), false}}, {}));
        QCOMPARE(order(f), (QStringList{B, A + QStringLiteral("!disabled")}));
        setRouting(f, over({{QStringLiteral("weight"), 0}}, {}));
        QCOMPARE(order(f), (QStringList{B, A + QStringLiteral("!weight_0")}));
        QCOMPARE(servedBy(f), B.toLatin1());
        // Weight 0 leaves it out of normal routing, but naming it still reaches it.
        QCOMPARE(f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model), {{"x-aile-sharer", A.toLatin1()}})
                     .header("x-aile-sharer"),
                 A.toLatin1());
        // The spelling of the model in the override does not matter.
        setRouting(
            f, QJsonObject{
                   {QStringLiteral("models"),
                    QJsonObject{{QStringLiteral("gpt-5-2"),
                                 QJsonObject{{QStringLiteral("providers"), QJsonObject{{A, QJsonObject{{QStringLiteral("enabled"), false}}}}}}}}}});
        QCOMPARE(order(f), (QStringList{B, A + QStringLiteral("!disabled")}));
    }

    void weightsSplitTrafficWithinATier()
    {
        // Three sharers at one price, weights 3, 1 and 0+1 (C takes its default 1): shares 3/5, 1/5, 1/5.
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, Gpt, with(percent(80), {{QStringLiteral("weight"), 3}})),
                                   sharer(B, QStringLiteral("openai"), {}, Gpt, with(percent(80), {{QStringLiteral("weight"), 1}})),
                                   sharer(C, QStringLiteral("openai"), {}, Gpt, with(percent(80)))}));
        constexpr int N = 600;
        QHash<QByteArray, int> served;
        for (int i = 0; i < N; ++i)
            ++served[servedBy(f)];
        QCOMPARE(served.value(A.toLatin1()) + served.value(B.toLatin1()) + served.value(C.toLatin1()), N);
        // Each share within four standard deviations of a binomial draw of N: fails by chance
        // about once in 15,000 runs, and the draw is seeded, so a run is repeatable.
        const QList<QPair<QString, double>> expected{{A, 0.6}, {B, 0.2}, {C, 0.2}};
        for (const auto &e : expected) {
            const double share = double(served.value(e.first.toLatin1())) / N;
            const double tolerance = 4 * std::sqrt(e.second * (1 - e.second) / N);
            QVERIFY2(std::abs(share - e.second) <= tolerance,
                     qPrintable(QStringLiteral("%1 served %2, expected %3 ± %4").arg(e.first).arg(share).arg(e.second).arg(tolerance)));
        }
    }

    void anExhaustedSubscriptionIsSkippedUntilItsResetOrItsSnapshotGoesStale()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, Gpt, subscription(10)),
                                   sharer(B, QStringLiteral("openai"), {}, Gpt, with(percent(100)))}));
        const qint64 resetS = f.clock.nowMs() / 1000 + 3600;
        f.upstream->enqueueFor(A.toLatin1(), withHeaders({{"x-codex-primary-used-percent", "100"},
                                                          {"x-codex-primary-reset-at", QByteArray::number(resetS)},
                                                          {"x-codex-secondary-used-percent", "40"}}));
        QCOMPARE(servedBy(f), A.toLatin1()); // the answer that used the window up still served
        QCOMPARE(servedBy(f), B.toLatin1());
        const QJsonArray rows = f.lastAttempts();
        QCOMPARE(rows.first().toObject().value(QLatin1String("sharer")).toString(), A);
        QCOMPARE(rows.first().toObject().value(QLatin1String("skip")).toString(), QStringLiteral("quota_exhausted"));
        QCOMPARE(order(f), (QStringList{B, A + QStringLiteral("!quota_exhausted")}));
        // The Sharers view shows the windows.
        const QJsonArray windows = listing(f).last().toObject().value(QLatin1String("quota")).toArray();
        QCOMPARE(windows.size(), 2);
        QVERIFY(windows.first().toObject().value(QLatin1String("exhausted")).toBool());
        // Ten minutes on, the snapshot is stale: stale quota never removes anyone.
        f.clock.advance(10 * 60 * 1000);
        QCOMPARE(servedBy(f), A.toLatin1());
    }

    void everyoneOutOfQuotaIs429AtTheEarliestReset()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, Gpt, subscription(10)),
                                   sharer(B, QStringLiteral("openai"), {}, Gpt, subscription(20))}));
        const qint64 nowS = f.clock.nowMs() / 1000;
        f.upstream->enqueueFor(A.toLatin1(), withHeaders({{"anthropic-ratelimit-unified-5h-status", "rejected"},
                                                          {"anthropic-ratelimit-unified-5h-reset", QByteArray::number(nowS + 1800)}}));
        QCOMPARE(servedBy(f), A.toLatin1());
        f.upstream->enqueueFor(B.toLatin1(), withHeaders({{"anthropic-ratelimit-unified-7d-utilization", "1.0"},
                                                          {"anthropic-ratelimit-unified-7d-reset", QByteArray::number(nowS + 900)}}));
        QCOMPARE(servedBy(f), B.toLatin1());
        const int dialled = int(f.upstream->received().size());
        const Reply r = f.chat(Model);
        QCOMPARE(r.status, 429);
        QCOMPARE(r.header("retry-after"), QByteArray("900"));
        QVERIFY2(errorMessage(r).contains(QLatin1String("used up its subscription quota")), qPrintable(errorMessage(r)));
        QCOMPARE(int(f.upstream->received().size()), dialled);
    }

    void quotaResetSelectionSpendsTheSoonestResetFirst()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, Gpt, subscription(10)),
                                   sharer(B, QStringLiteral("openai"), {}, Gpt, subscription(10)),
                                   sharer(C, QStringLiteral("openai"), {}, Gpt, subscription(10))}));
        const qint64 nowS = f.clock.nowMs() / 1000;
        // A's weekly allowance resets in 3 days, B's in 1 day (its 5-hour window sooner, but the
        // allowance is the longest window); C has reported nothing.
        Http::HttpHeaders ha, hb;
        ha.add("anthropic-ratelimit-unified-7d-reset", QByteArray::number(nowS + 3 * 86400));
        ha.add("anthropic-ratelimit-unified-7d-utilization", "0.5");
        hb.add("anthropic-ratelimit-unified-7d-reset", QByteArray::number(nowS + 86400));
        hb.add("anthropic-ratelimit-unified-7d-utilization", "0.5");
        hb.add("anthropic-ratelimit-unified-5h-reset", QByteArray::number(nowS + 60));
        f.upstream->enqueueFor(A.toLatin1(), withHeaders(ha.entries()));
        f.upstream->enqueueFor(B.toLatin1(), withHeaders(hb.entries()));
        // The scripts wait for their sharer: send until both have answered with their windows.
        for (int i = 0; i < 60 && !(f.engine->context().quota.snapshot(A) && f.engine->context().quota.snapshot(B)); ++i)
            QCOMPARE(f.chat(Model).status, 200);
        QVERIFY(f.engine->context().quota.snapshot(A) && f.engine->context().quota.snapshot(B));
        QVERIFY(!f.engine->context().quota.snapshot(C));
        setRouting(f, QJsonObject{{QStringLiteral("selection"), QStringLiteral("quota-reset")}});
        for (int i = 0; i < 5; ++i)
            QCOMPARE(order(f), (QStringList{B, A, C}));
        QCOMPARE(servedBy(f), B.toLatin1());
        // Without the setting, the same three share by weight.
        setRouting(f, QJsonObject{{QStringLiteral("selection"), QStringLiteral("price")}});
        QSet<QString> first;
        for (int i = 0; i < 40; ++i)
            first << order(f).first();
        QCOMPARE(first.size(), 3);
    }

    void aCapabilityNoCandidateHasIsNamed()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, Gpt, with(percent(50)))}));
        QCOMPARE(admin(f, QStringLiteral("PUT"), QStringLiteral("/catalog/models/openai/gpt-5.2"),
                       "{\"capabilities\": {\"tools\": true, \"imageInput\": false}, \"contextWindow\": 2000}")
                     .status,
                 200);
        const QJsonObject image{
            {QStringLiteral("messages"),
             QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                    {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("image_url")}}}}}}}};
        Reply r = f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model, false, image));
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).startsWith(QLatin1String("openai/gpt-5.2 does not support image input")), qPrintable(errorMessage(r)));
        QCOMPARE(r.json().value(QLatin1String("error")).toObject().value(QLatin1String("refusedBy")).toString(), QStringLiteral("capability"));
        QCOMPARE(f.lastAttempts().first().toObject().value(QLatin1String("skip")).toString(), QStringLiteral("capability"));
        const QJsonObject longPrompt{
            {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                {QStringLiteral("content"), QString(40000, QLatin1Char('x'))}}}}};
        r = f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model, false, longPrompt));
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("a context window of 2000 tokens")), qPrintable(errorMessage(r)));
        QVERIFY(f.upstream->received().isEmpty());
        // Tools are supported: that request goes.
        const QJsonObject tools{{QStringLiteral("tools"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("function")}}}}};
        QCOMPARE(f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model, false, tools)).status, 200);
    }

    void theComparisonPriceWeightsAreASetting()
    {
        // A: cheap input, dear output. B: the reverse-ish. By the request's own quote (100 output
        // tokens, a tiny prompt) B is cheaper; weighting input only, A is.
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, Gpt, with(quote(1, 20))),
                                   sharer(B, QStringLiteral("openai"), {}, Gpt, with(quote(2, 5)))}));
        QCOMPARE(order(f), (QStringList{B, A}));
        QCOMPARE(admin(f, QStringLiteral("POST"), QStringLiteral("/admin/config"),
                       "{\"settings\": {\"comparisonInputWeight\": 1, \"comparisonOutputWeight\": 0}}")
                     .status,
                 200);
        QCOMPARE(order(f), (QStringList{A, B}));
    }

    void theTieBandGroupsNearEqualPrices()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, Gpt, with(quote(1.000, 10.00))),
                                   sharer(B, QStringLiteral("openai"), {}, Gpt, with(quote(1.005, 10.05)))}));
        for (int i = 0; i < 10; ++i)
            QCOMPARE(order(f).first(), A);
        QCOMPARE(admin(f, QStringLiteral("POST"), QStringLiteral("/admin/config"), "{\"settings\": {\"tieBandPercent\": 1}}").status, 200);
        QSet<QString> first;
        for (int i = 0; i < 40; ++i)
            first << order(f).first();
        QCOMPARE(first, (QSet<QString>{A, B}));
        QVERIFY(listing(f).at(1).toObject().value(QLatin1String("tiedWithPrevious")).toBool());
    }

    void degradedSharersComeAfterAvailableOnes()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, Gpt, with(percent(50))),
                                   sharer(B, QStringLiteral("openai"), {}, Gpt, with(percent(100)))}));
        // Three failures in a row trip A's breaker; back after its cooldown, it is half-open. One or
        // two failures only bench it (docs/rules/routing-and-failover.md): back, it is first again.
        for (const qint64 wait : {7'000, 20'000, 80'000}) {
            QCOMPARE(order(f), (QStringList{A, B}));
            f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
            QCOMPARE(servedBy(f), B.toLatin1());
            f.clock.advance(wait);
        }
        QCOMPARE(order(f), (QStringList{B, A}));
        QVERIFY(listing(f).last().toObject().value(QLatin1String("degraded")).toBool());
        // A success closes the breaker (a passing model test here).
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::chatCompletion());
        QCOMPARE(admin(f, QStringLiteral("POST"), QStringLiteral("/sharers/") + A + QStringLiteral("/test"), "{\"model\": \"gpt-5.2\"}")
                     .json()
                     .value(QLatin1String("ok"))
                     .toBool(),
                 true);
        QCOMPARE(order(f), (QStringList{A, B}));
        // A low success rate over the window degrades too: 10 attempts, half failed.
        for (int i = 0; i < 5; ++i) {
            f.engine->context().health->recordFailure(A, QStringLiteral("gpt-5.2"), Health::Failure::ServerError);
            f.engine->context().health->recordSuccess(A, 100);
        }
        QCOMPARE(order(f), (QStringList{B, A}));
    }

    void providerSortOrdersStrictly()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, Gpt, with(percent(50))),
                                   sharer(B, QStringLiteral("openai"), {}, Gpt, with(percent(100))),
                                   sharer(C, QStringLiteral("openai"), {}, Gpt, with(percent(70)))}));
        Health::HealthBook &h = *f.engine->context().health;
        for (int i = 0; i < 3; ++i) {
            h.recordSuccess(A, 2000);
            h.recordSuccess(B, 300);
            h.recordThroughput(A, 90);
            h.recordThroughput(B, 30);
        }
        h.recordSuccess(C, 10); // one sample: not enough, after those with data
        auto sorted = [&](const char *by) {
            const QJsonObject extra{{QStringLiteral("provider"), QJsonObject{{QStringLiteral("sort"), QLatin1String(by)}}}};
            return servedBy(f, extra);
        };
        QCOMPARE(sorted("latency"), B.toLatin1());
        QCOMPARE(sorted("throughput"), A.toLatin1());
        QCOMPARE(sorted("price"), A.toLatin1());
        // Aile's own preference is not sent upstream.
        QVERIFY(!f.upstream->received().last().json().contains(QLatin1String("provider")));
        // Strict: the same answer every time, no draw.
        for (int i = 0; i < 5; ++i)
            QCOMPARE(sorted("latency"), B.toLatin1());
        f.upstream->enqueueFor(B.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        sorted("latency");
        QStringList dialled;
        for (const QJsonValue &v : f.lastAttempts())
            dialled << v.toObject().value(QLatin1String("sharer")).toString();
        QCOMPARE(dialled, (QStringList{B, A, C}));
        const Reply bad = f.post(
            QStringLiteral("/v1/chat/completions"),
            RoutingFixture::chatBody(Model, false, {{QStringLiteral("provider"), QJsonObject{{QStringLiteral("sort"), QStringLiteral("fastest")}}}}));
        QCOMPARE(bad.status, 400);
        QVERIFY(errorMessage(bad).contains(QLatin1String("\"price\", \"latency\" or \"throughput\"")));
    }

    void healthIsPublishedAfterAHundredServed()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, Gpt, with(percent(50)))}));
        for (int i = 0; i < 99; ++i)
            QCOMPARE(f.chat(Model).status, 200);
        QJsonObject stats = listing(f).first().toObject().value(QLatin1String("stats")).toObject();
        QVERIFY(!stats.value(QLatin1String("published")).toBool());
        QVERIFY(stats.value(QLatin1String("note")).toString().startsWith(QLatin1String("not enough data")));
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(400, QStringLiteral("bad request"))); // passed through: not the sharer's failure
        QCOMPARE(f.chat(Model).status, 400);
        QCOMPARE(f.chat(Model).status, 200);
        stats = listing(f).first().toObject().value(QLatin1String("stats")).toObject();
        QVERIFY(stats.value(QLatin1String("published")).toBool());
        QCOMPARE(stats.value(QLatin1String("served")).toInteger(), qint64(100));
        QCOMPARE(stats.value(QLatin1String("successRate30m")).toDouble(), 1.0);
        // A client that goes away is not counted against the sharer.
        Script hang;
        hang.hangForever = true;
        f.upstream->enqueueFor(A.toLatin1(), hang);
        QNetworkReply *gone = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model), f.auth());
        QTRY_COMPARE(f.upstream->inFlight(), 1);
        gone->abort();
        gone->deleteLater();
        QTRY_COMPARE(f.upstream->disconnects(), 1);
        stats = listing(f).first().toObject().value(QLatin1String("stats")).toObject();
        QCOMPARE(stats.value(QLatin1String("attempts30m")).toInt(), 100);
    }
};

QTEST_GUILESS_MAIN(TestTiersAndQuota)
#include "TestTiersAndQuota.moc"
