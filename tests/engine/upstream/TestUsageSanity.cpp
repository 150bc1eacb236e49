// docs/hardening.md "Upstreams": usage an upstream reports is sanity-checked before it becomes a
// charge. Real engine, fake upstream, one ManualClock.
#include "../routing/RoutingFixture.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1");
}

class TestUsageSanity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void unbelievableUsageIsUnknownAndTheQuoteIsCharged_data()
    {
        QTest::addColumn<QJsonValue>("prompt");
        QTest::addColumn<QJsonValue>("completion");
        QTest::addColumn<QString>("why");
        // "today 1e13 reported tokens charge $10,000,000 and lock the key out; 1e308 is stored as INT64_MIN"
        QTest::newRow("1e13 output tokens") << QJsonValue(12) << QJsonValue(1e13) << "completion_tokens = 1e+13 is not a token count";
        QTest::newRow("1e308 prompt tokens") << QJsonValue(1e308) << QJsonValue(5) << "prompt_tokens = 1e+308 is not a token count";
        QTest::newRow("negative") << QJsonValue(-5) << QJsonValue(5) << "prompt_tokens = -5 is not a token count";
        QTest::newRow("a fraction") << QJsonValue(12.5) << QJsonValue(5) << "prompt_tokens = 12.5 is not a token count";
        QTest::newRow("a string") << QJsonValue(QStringLiteral("12")) << QJsonValue(5) << "prompt_tokens = \"12\" is not a token count";
        // gpt-5.2 holds 400,000 tokens and writes at most 128,000 (the catalogue).
        QTest::newRow("more than the model can hold") << QJsonValue(5'000'000) << QJsonValue(5) << "more than gpt-5.2's context window";
    }

    void unbelievableUsageIsUnknownAndTheQuoteIsCharged()
    {
        QFETCH(QJsonValue, prompt);
        QFETCH(QJsonValue, completion);
        QFETCH(QString, why);
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")})}));
        f.upstream->enqueue(FakeUpstream::chatCompletionWithUsage(prompt, completion));
        const Reply r = f.chat(QStringLiteral("openai/gpt-5.2"));
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.contains("Hello!"));
        const QJsonObject trace = f.lastTrace();
        const QJsonObject attempt = trace.value(QLatin1String("attemptRows")).toArray().first().toObject();
        QCOMPARE(attempt.value(QLatin1String("outcome")).toString(), QStringLiteral("served"));
        const QString note = attempt.value(QLatin1String("reason")).toString();
        QVERIFY2(note.startsWith(QLatin1String("usage rejected: ")) && note.contains(why) && note.endsWith(QLatin1String("charged the quote")),
                 qPrintable(note));
        // Unknown, never garbage: the trace and the attempt say -1.
        QCOMPARE(trace.value(QLatin1String("inputTokens")).toDouble(), -1.0);
        QCOMPARE(trace.value(QLatin1String("outputTokens")).toDouble(), -1.0);
        QCOMPARE(attempt.value(QLatin1String("inputTokens")).toDouble(), -1.0);
        // What is charged is the quote the request was admitted on.
        const double quote = attempt.value(QLatin1String("quoteUsd")).toDouble();
        QVERIFY(quote > 0 && quote < 0.01);
        QCOMPARE(trace.value(QLatin1String("costUsd")).toDouble(), quote);
        QCOMPARE(f.spentToday(), quote);
        // The key is not locked out.
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 200);
    }

    void believableUsageIsChargedAsReported()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")})}));
        f.upstream->enqueue(FakeUpstream::chatCompletionWithUsage(QJsonValue(120'000), QJsonValue(2'000)));
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 200);
        const QJsonObject trace = f.lastTrace();
        const QJsonObject attempt = trace.value(QLatin1String("attemptRows")).toArray().first().toObject();
        QCOMPARE(attempt.value(QLatin1String("reason")).toString(), QString());
        QCOMPARE(trace.value(QLatin1String("inputTokens")).toDouble(), 120'000.0);
        QVERIFY(trace.value(QLatin1String("costUsd")).toDouble() > attempt.value(QLatin1String("quoteUsd")).toDouble());
    }

    void cachedPromptTokensAreChargedOnceAtTheCacheRate()
    {
        // OpenAI's wires count cached tokens inside prompt_tokens: 100,000 prompt tokens of which
        // 80,000 were cached are 20,000 at the input rate and 80,000 at the cache rate, not both.
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")})}));
        f.upstream->enqueue(FakeUpstream::chatCompletionWithUsage(QJsonValue(100'000), QJsonValue(1'000), QJsonValue(80'000)));
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 200);
        const QJsonObject trace = f.lastTrace();
        // gpt-5.2 in the shipped catalogue: $1.75 in, $14 out, $0.175 cached, per million tokens.
        const double expected = (20'000 * 1.75 + 80'000 * 0.175 + 1'000 * 14.0) / 1e6;
        QVERIFY2(qAbs(trace.value(QLatin1String("costUsd")).toDouble() - expected) < 1e-9,
                 qPrintable(QString::number(trace.value(QLatin1String("costUsd")).toDouble(), 'f', 6)));
    }
};

QTEST_GUILESS_MAIN(TestUsageSanity)
#include "TestUsageSanity.moc"
