// Issue 8's building blocks, unit by unit: quota windows read from providers' rate-limit headers
// (docs/rules/tiers-quota-health.md), the 30-minute health window (docs/rules/tiers-quota-health.md "Published health"), and what a request needs
// of a candidate with the comparison price.
#include "billing/Quote.h"
#include "catalog/Catalog.h"
#include "health/HealthWindow.h"
#include "health/QuotaBook.h"
#include "http/HttpHeaders.h"
#include "routing/RequestNeeds.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtTest/QtTest>

using namespace Aile;

namespace {
constexpr qint64 Now = 1'800'000'000'000; // ms since the epoch (2027-01-15)
constexpr qint64 NowS = Now / 1000;

Http::HttpHeaders headers(const QList<QPair<QByteArray, QByteArray>> &list)
{
    Http::HttpHeaders h;
    for (const auto &p : list)
        h.add(p.first, p.second);
    return h;
}
QByteArray secs(qint64 fromNow)
{
    return QByteArray::number(NowS + fromNow);
}
QJsonObject body(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}
} // namespace

class TestRoutingSignals : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void resetsAreReadInEveryProviderSpelling_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("epoch seconds") << secs(3600) << Now + 3'600'000;
        QTest::newRow("epoch ms") << QByteArray::number(Now + 5) << Now + 5;
        QTest::newRow("seconds from now") << QByteArray("30") << Now + 30'000;
        QTest::newRow("go duration") << QByteArray("6m0s") << Now + 360'000;
        QTest::newRow("fractional") << QByteArray("1.5s") << Now + 1'500;
        QTest::newRow("millis") << QByteArray("20ms") << Now + 20;
        QTest::newRow("hours") << QByteArray("1h2m") << Now + 3'720'000;
        QTest::newRow("rfc 3339") << QByteArray("2027-01-15T08:00:00Z") << Now;
        QTest::newRow("garbage") << QByteArray("soon") << qint64(0);
        QTest::newRow("empty") << QByteArray() << qint64(0);
    }
    void resetsAreReadInEveryProviderSpelling()
    {
        QFETCH(QByteArray, value);
        QFETCH(qint64, expected);
        QCOMPARE(Health::parseResetMs(value, Now), expected);
    }

    void anAnthropicSubscriptionWindowExhaustedRemovesTheSharerUntilItsReset()
    {
        Health::QuotaBook book;
        book.observe(QStringLiteral("A"),
                     headers({{"anthropic-ratelimit-unified-5h-utilization", "1.0"},
                              {"anthropic-ratelimit-unified-5h-reset", secs(1800)},
                              {"anthropic-ratelimit-unified-5h-status", "rejected"},
                              {"anthropic-ratelimit-unified-7d-utilization", "0.42"},
                              {"anthropic-ratelimit-unified-7d-reset", secs(86400 * 3)},
                              {"anthropic-ratelimit-unified-7d_sonnet-utilization", "0.2"},
                              {"anthropic-ratelimit-unified-7d_sonnet-reset", secs(86400 * 2)},
                              {"anthropic-ratelimit-unified-overage-status", "allowed"}}),
                     Now);
        const Health::QuotaSnapshot *s = book.snapshot(QStringLiteral("A"));
        QVERIFY(s);
        QCOMPARE(s->windows.size(), 3);
        QCOMPARE(book.exhaustedUntil(QStringLiteral("A"), QStringLiteral("claude-sonnet-5"), Now), Now + 1'800'000);
        // Fresh for ten minutes only: a stale snapshot never removes anyone.
        QCOMPARE(book.exhaustedUntil(QStringLiteral("A"), QStringLiteral("claude-sonnet-5"), Now + Health::QuotaBook::FreshMs - 1), Now + 1'800'000);
        QCOMPARE(book.exhaustedUntil(QStringLiteral("A"), QStringLiteral("claude-sonnet-5"), Now + Health::QuotaBook::FreshMs), qint64(0));
        // Past the reset nothing removes it either.
        QCOMPARE(book.exhaustedUntil(QStringLiteral("A"), QStringLiteral("claude-sonnet-5"), Now + 1'800'000), qint64(0));
        // The longest window covering the model is the allowance quota-reset orders by; the
        // sonnet-only weekly window covers sonnet models, not haiku.
        QCOMPARE(*book.allowanceResetMs(QStringLiteral("A"), QStringLiteral("claude-haiku-5-5"), Now), Now + 86'400'000LL * 3);
        QCOMPARE(book.toJson(QStringLiteral("A"), Now).size(), 3);
        QVERIFY(!book.allowanceResetMs(QStringLiteral("B"), QStringLiteral("x"), Now));
    }

    void theOverallRejectedVerdictNamesTheBindingWindow()
    {
        Health::QuotaBook book;
        book.observe(QStringLiteral("A"),
                     headers({{"anthropic-ratelimit-unified-status", "rejected"},
                              {"anthropic-ratelimit-unified-representative-claim", "seven_day"},
                              {"anthropic-ratelimit-unified-reset", secs(7200)}}),
                     Now);
        QCOMPARE(book.exhaustedUntil(QStringLiteral("A"), QStringLiteral("claude-opus-5"), Now), Now + 7'200'000);
    }

    void anExhaustedWindowWithoutAKnownResetRemovesNobody()
    {
        Health::QuotaBook book;
        book.observe(QStringLiteral("A"), headers({{"anthropic-ratelimit-unified-5h-utilization", "1"}}), Now);
        QCOMPARE(book.exhaustedUntil(QStringLiteral("A"), QStringLiteral("claude-sonnet-5"), Now), qint64(0));
    }

    void codexWindowsReadPercentAndEitherResetSpelling()
    {
        Health::QuotaBook book;
        book.observe(QStringLiteral("C"),
                     headers({{"x-codex-primary-used-percent", "100"},
                              {"x-codex-primary-window-minutes", "300"},
                              {"x-codex-primary-reset-after-seconds", "600"},
                              {"x-codex-secondary-used-percent", "37.5"},
                              {"x-codex-secondary-reset-at", secs(86400)},
                              {"x-codex-secondary-reset-after-seconds", "5"}}),
                     Now);
        QCOMPARE(book.exhaustedUntil(QStringLiteral("C"), QStringLiteral("gpt-5.5"), Now), Now + 600'000);
        // The absolute reset wins over the countdown; the weekly window is the allowance.
        QCOMPARE(*book.allowanceResetMs(QStringLiteral("C"), QStringLiteral("gpt-5.5"), Now), Now + 86'400'000);
        const QJsonObject secondary = book.toJson(QStringLiteral("C"), Now).at(1).toObject();
        QCOMPARE(secondary.value(QLatin1String("used")).toDouble(), 0.375);
        QCOMPARE(secondary.value(QLatin1String("lengthSeconds")).toInteger(), qint64(7 * 86400));
    }

    void apiRateLimitsFeedHeadroomButNeverRemove()
    {
        Health::QuotaBook book;
        book.observe(QStringLiteral("K"),
                     headers({{"x-ratelimit-limit-requests", "100"},
                              {"x-ratelimit-remaining-requests", "0"},
                              {"x-ratelimit-reset-requests", "6m0s"},
                              {"x-ratelimit-limit-tokens", "1000"},
                              {"x-ratelimit-remaining-tokens", "800"}}),
                     Now);
        QCOMPARE(book.headroom(QStringLiteral("K"), Now), 0.0);
        QCOMPARE(book.exhaustedUntil(QStringLiteral("K"), QStringLiteral("gpt-5.2"), Now), qint64(0));
        book.observe(QStringLiteral("K"), headers({{"anthropic-ratelimit-requests-limit", "50"}, {"anthropic-ratelimit-requests-remaining", "40"}}),
                     Now + 1);
        QCOMPARE(book.headroom(QStringLiteral("K"), Now + 1), 0.8);
        QCOMPARE(book.headroom(QStringLiteral("K"), Now + 1 + Health::QuotaBook::FreshMs), -1.0);
        // A response without any quota header keeps the last snapshot.
        book.observe(QStringLiteral("K"), headers({{"content-type", "application/json"}}), Now + 2);
        QCOMPARE(book.snapshot(QStringLiteral("K"))->observedMs, Now + 1);
    }

    void theHealthWindowSlidesAndPublishesAfterAHundredServed()
    {
        Health::HealthWindow w;
        for (int i = 0; i < 99; ++i)
            w.record(QStringLiteral("S"), true, 200, Now + i * 1000);
        Health::HealthWindow::Stats s = w.stats(QStringLiteral("S"), Now + 99'000);
        QVERIFY(!s.published);
        QVERIFY(s.toJson().value(QLatin1String("note")).toString().startsWith(QLatin1String("not enough data")));
        w.record(QStringLiteral("S"), false, -1, Now + 99'500);
        w.record(QStringLiteral("S"), true, 400, Now + 100'000);
        s = w.stats(QStringLiteral("S"), Now + 100'000);
        QVERIFY(s.published);
        QCOMPARE(s.attempts, 101);
        QCOMPARE(s.failures, 1);
        QCOMPARE(s.successRate, 100.0 / 101.0);
        QCOMPARE(s.meanLatencyMs, (99 * 200 + 400) / 100.0);
        // Thirty minutes on, the window is empty; what was served is still counted.
        s = w.stats(QStringLiteral("S"), Now + 100'000 + Health::HealthWindow::WindowMs + 60'000);
        QCOMPARE(s.attempts, 0);
        QCOMPARE(s.successRate, -1.0);
        QVERIFY(s.published);
        QCOMPARE(w.stats(QStringLiteral("nobody"), Now).attempts, 0);
    }

    void aRequestNeedsWhatItsBodyUses_data()
    {
        QTest::addColumn<int>("endpoint");
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("used");
        QTest::newRow("chat plain") << int(Wire::Endpoint::ChatCompletions) << QByteArray("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                                    << QStringList{};
        QTest::newRow("chat tools stream") << int(Wire::Endpoint::ChatCompletions)
                                           << QByteArray("{\"stream\":true,\"tools\":[{\"type\":\"function\"}],\"messages\":[]}")
                                           << QStringList{QStringLiteral("tools"), QStringLiteral("streaming")};
        QTest::newRow("chat image schema")
            << int(Wire::Endpoint::ChatCompletions)
            << QByteArray(
                   "{\"response_format\":{\"type\":\"json_schema\"},\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\"}]}]}")
            << QStringList{QStringLiteral("structuredOutput"), QStringLiteral("imageInput")};
        QTest::newRow("messages image in tool result")
            << int(Wire::Endpoint::Messages)
            << QByteArray("{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"content\":[{\"type\":\"image\"}]}]}],"
                          "\"thinking\":{\"type\":\"enabled\"}}")
            << QStringList{QStringLiteral("imageInput"), QStringLiteral("reasoning")};
        QTest::newRow("responses") << int(Wire::Endpoint::Responses)
                                   << QByteArray("{\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_image\"}]}],"
                                                 "\"text\":{\"format\":{\"type\":\"json_schema\"}},\"tools\":[{}]}")
                                   << QStringList{QStringLiteral("tools"), QStringLiteral("structuredOutput"), QStringLiteral("imageInput")};
        QTest::newRow("responses string input") << int(Wire::Endpoint::Responses) << QByteArray("{\"input\":\"hi\",\"tools\":[]}") << QStringList{};
    }
    void aRequestNeedsWhatItsBodyUses()
    {
        QFETCH(int, endpoint);
        QFETCH(QByteArray, json);
        QFETCH(QStringList, used);
        QCOMPARE(Routing::RequestNeeds::of(Wire::Endpoint(endpoint), QJsonDocument::fromJson(json).object()).used(), used);
    }

    void aModelLackingWhatTheRequestUsesIsNamed()
    {
        Catalog::ModelInfo m;
        m.capabilities.tools = false;
        m.capabilities.imageInput = false;
        m.contextWindow = 1000;
        auto needs = Routing::RequestNeeds::of(Wire::Endpoint::ChatCompletions, body("{\"tools\":[{}],\"messages\":[]}"));
        QCOMPARE(needs.missingIn(m, 10), QStringLiteral("tool use"));
        needs = Routing::RequestNeeds::of(Wire::Endpoint::ChatCompletions, body("{\"messages\":[]}"));
        QCOMPARE(needs.missingIn(m, 10), QString());
        QCOMPARE(needs.missingIn(m, 5000), QStringLiteral("a context window of 1000 tokens (the prompt is about 5000)"));
        m.contextWindow = 0; // unknown: never refuses
        QCOMPARE(needs.missingIn(m, 5000), QString());
    }

    void theComparisonPriceWeighsInputAndOutput()
    {
        const Billing::Rates r{2.0, 10.0};
        QCOMPARE(Routing::comparisonPrice(r, 1, 1), 6.0);
        QCOMPARE(Routing::comparisonPrice(r, 3, 1), 4.0);
        QCOMPARE(Routing::comparisonPrice(r, 0, 1), 10.0);
        QCOMPARE(Routing::comparisonPrice(r, 0, 0), 6.0);
    }
};

QTEST_GUILESS_MAIN(TestRoutingSignals)
#include "TestRoutingSignals.moc"
