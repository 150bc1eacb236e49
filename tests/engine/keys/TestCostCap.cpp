// Issue 5 (docs/keys.md "Every routing setting", the cost cap): x-aile-max-cost and the key's maxCostUsd, the
// lowest binding; value rules; 4096 sent when the body names no cap; sharers quoting above it
// passed over; 402 with nothing charged; never charged above it; the 400s where nothing bounds
// the answer; embeddings.
#include "KeysFixture.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1"); // 40% of list
const QString B = QStringLiteral("L00000000000000a2"); // 60%
const QString C = QStringLiteral("L00000000000000a3"); // 90%
const QString E = QStringLiteral("L00000000000000e1"); // embeddings at a high quote of its own
const QString Gpt = QStringLiteral("openai/gpt-5.2");
} // namespace

class TestCostCap : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

    Reply chat(const QList<QPair<QByteArray, QByteArray>> &headers, const QJsonObject &body = userChat(Gpt, {{QStringLiteral("max_tokens"), 100}}))
    {
        return f.post(QStringLiteral("/v1/chat/completions"), bodyOf(body), headers);
    }

private Q_SLOTS:
    void init()
    {
        const QStringList gpt{QStringLiteral("gpt-5.2")};
        QJsonObject embedQuote{
            {QStringLiteral("price"),
             QJsonObject{{QStringLiteral("models"), QJsonObject{{QStringLiteral("text-embedding-3-small"),
                                                                 QJsonObject{{QStringLiteral("input"), 1000}, {QStringLiteral("output"), 0}}}}}}}};
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, gpt, atPercent(40)),
                                   sharer(B, QStringLiteral("openai"), {}, gpt, atPercent(60)),
                                   sharer(C, QStringLiteral("openai"), {}, gpt, atPercent(90)),
                                   sharer(E, QStringLiteral("openai"), {}, {QStringLiteral("text-embedding-3-small")}, embedQuote),
                                   sharer(QStringLiteral("L00000000000000d1"), QStringLiteral("local"), {}, {QStringLiteral("llama3")}),
                                   sharer(QStringLiteral("L00000000000000f1"), QStringLiteral("codex"), {}, {QStringLiteral("gpt-5.5")})}));
    }
    void cleanup() { setKeyRouting(f, {}); }

    void theValueRules_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<int>("status");
        QTest::newRow("zero") << QByteArray("0") << 400;
        QTest::newRow("negative") << QByteArray("-1") << 400;
        QTest::newRow("above 10000") << QByteArray("10000.01") << 400;
        QTest::newRow("7 decimals") << QByteArray("0.1234567") << 400;
        QTest::newRow("words") << QByteArray("cheap") << 400;
        QTest::newRow("exponent") << QByteArray("1e3") << 400;
        QTest::newRow("dollar") << QByteArray("$0.50") << 200;
        QTest::newRow("10000") << QByteArray("10000") << 200;
        QTest::newRow("6 decimals") << QByteArray("0.123456") << 200;
    }
    void theValueRules()
    {
        QFETCH(QByteArray, value);
        QFETCH(int, status);
        const Reply r = chat({{"x-aile-max-cost", value}});
        QCOMPARE(r.status, status);
        if (status == 400) {
            QCOMPARE(refusedBy(r), QStringLiteral("x-aile-max-cost"));
            QVERIFY2(errorMessage(r).contains(QLatin1String("is not a cost cap")), qPrintable(errorMessage(r)));
            QCOMPARE(f.upstream->received().size(), 0);
        }
    }

    void dearerSharersArePassedOverAndAllAboveIs402()
    {
        // Quotes: A ≈ $0.00058, B ≈ $0.00087, C ≈ $0.0013 for 100 output tokens.
        Reply r = chat({{"x-aile-max-cost", "0.0007"}, {"x-aile-exclude-sharer", A.toLatin1()}});
        QCOMPARE(r.status, 402);
        QCOMPARE(refusedBy(r), QStringLiteral("x-aile-max-cost"));
        QVERIFY2(errorMessage(r).contains(QLatin1String("quotes above the cost cap: the cheapest quote is $0.000")), qPrintable(errorMessage(r)));
        QVERIFY2(errorMessage(r).contains(QLatin1String("the cap $0.000700 (x-aile-max-cost); nothing was charged")), qPrintable(errorMessage(r)));
        const QJsonObject error = r.json().value(QLatin1String("error")).toObject();
        QVERIFY(error.value(QLatin1String("cheapestQuoteUsd")).toDouble() > 0.0007);
        QCOMPARE(f.upstream->received().size(), 0);
        QCOMPARE(ledgerToday(f).first, 0.0);
        // B and C are passed over (trace rows, not dials); A serves.
        r = chat({{"x-aile-max-cost", "0.0007"}});
        QCOMPARE(r.header("x-aile-sharer"), A.toLatin1());
        QCOMPARE(f.dialled(), QStringList{A});
        int above = 0;
        for (const QJsonValue &v : f.lastAttempts())
            above += v.toObject().value(QLatin1String("reason")).toString().contains(QLatin1String("above the cost cap")) ? 1 : 0;
        QCOMPARE(above, 2);
    }

    void theLowestCapBinds()
    {
        setKeyRouting(f, {{QStringLiteral("maxCostUsd"), 0.0007}});
        Reply r = chat({{"x-aile-max-cost", "1"}, {"x-aile-exclude-sharer", A.toLatin1()}});
        QCOMPARE(r.status, 402);
        QVERIFY2(errorMessage(r).contains(QLatin1String("this API key's max cost per request")), qPrintable(errorMessage(r)));
        setKeyRouting(f, {{QStringLiteral("maxCostUsd"), 1}});
        r = chat({{"x-aile-max-cost", "0.0007"}, {"x-aile-exclude-sharer", A.toLatin1()}});
        QCOMPARE(r.status, 402);
        QVERIFY2(errorMessage(r).contains(QLatin1String("(x-aile-max-cost)")), qPrintable(errorMessage(r)));
        QCOMPARE(f.upstream->received().size(), 0);
    }

    void aBodyWithoutACapIsSent4096()
    {
        QCOMPARE(chat({{"x-aile-max-cost", "1"}}, userChat(Gpt)).status, 200);
        QCOMPARE(f.upstream->received().last().json().value(QLatin1String("max_tokens")).toInt(), 4096);
        // Its own cap is kept; without a cost cap nothing is added.
        QCOMPARE(chat({{"x-aile-max-cost", "1"}}).status, 200);
        QCOMPARE(f.upstream->received().last().json().value(QLatin1String("max_tokens")).toInt(), 100);
        QCOMPARE(chat({}, userChat(Gpt)).status, 200);
        QVERIFY(!f.upstream->received().last().json().contains(QLatin1String("max_tokens")));
        // 4096 tokens of output are quoted: a cap under that quote refuses it.
        QCOMPARE(chat({{"x-aile-max-cost", "0.01"}}, userChat(Gpt)).status, 402);
    }

    void neverChargedAboveTheCap()
    {
        // The provider reports far more than was quoted: the key is billed the cap, the sharer absorbs the rest.
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::chatCompletion(QStringLiteral("long"), 1000, 100));
        QCOMPARE(chat({{"x-aile-max-cost", "0.001"}}).status, 200);
        const auto [cost, absorbed] = ledgerToday(f);
        QCOMPARE(cost, 0.001);
        // (1000 × $1.75 + 100 × $14) / 1e6 at 40% = $0.00126
        QVERIFY2(qAbs(absorbed - 0.00026) < 1e-9, qPrintable(QString::number(absorbed, 'g', 12)));
        QCOMPARE(f.lastTrace().value(QLatin1String("costUsd")).toDouble(), 0.001);
    }

    void whatTheOutputCapCannotBoundIs400()
    {
        auto refused = [&](const Reply &r, const char *says) {
            QCOMPARE(r.status, 400);
            QCOMPARE(refusedBy(r), QStringLiteral("x-aile-max-cost"));
            QVERIFY2(errorMessage(r).contains(QLatin1String(says)), qPrintable(errorMessage(r)));
            QVERIFY2(errorMessage(r).contains(QLatin1String("send the request without a cost cap")), qPrintable(errorMessage(r)));
        };
        const QList<QPair<QByteArray, QByteArray>> cap{{"x-aile-max-cost", "1"}};
        refused(chat(cap, userChat(Gpt, {{QStringLiteral("n"), 2}})), "n=2 choices");
        refused(chat(cap, userChat(QStringLiteral("local/llama3"), {{QStringLiteral("n_predict"), 64}})), "n_predict");
        refused(
            f.post(QStringLiteral("/v1/responses"),
                   bodyOf(QJsonObject{{QStringLiteral("model"), QStringLiteral("codex/gpt-5.5")}, {QStringLiteral("input"), QStringLiteral("hi")}}),
                   cap),
            "provider codex sends no output cap upstream");
        refused(chat(cap, userChat(Gpt, {{QStringLiteral("thinking"), QJsonObject{{QStringLiteral("type"), QStringLiteral("enabled")},
                                                                                  {QStringLiteral("budget_tokens"), 2000}}}})),
                "thinking budget on top of the output cap");
        refused(
            chat(cap, userChat(Gpt, {{QStringLiteral("tools"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("web_search")}}}}})),
            "declares web_search, a server-side tool openai bills on its reported usage");
        QCOMPARE(f.upstream->received().size(), 0);
        // Without a cap they are served.
        QCOMPARE(chat({}, userChat(Gpt, {{QStringLiteral("n"), 2}})).status, 200);
        QCOMPARE(chat({}, userChat(Gpt, {{QStringLiteral("tools"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("web_search")}}}}}))
                     .status,
                 200);
    }

    void embeddingsAreCheckedBeforeAnythingIsHeldAnd402IsFinal()
    {
        auto embed = [&](const QByteArray &cap) {
            return f.post(QStringLiteral("/v1/embeddings"),
                          bodyOf(QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/text-embedding-3-small")},
                                             {QStringLiteral("input"), QStringLiteral("hello")}}),
                          {{"x-aile-max-cost", cap}});
        };
        // About 20 prompt tokens at $1000/Mtok quote $0.02.
        Reply r = embed("0.01");
        QCOMPARE(r.status, 402);
        QCOMPARE(f.upstream->received().size(), 0);
        // Under a cap the reported tokens bill, capped at the cap (8 tokens: $0.008).
        r = embed("0.05");
        QCOMPARE(r.status, 200);
        QCOMPARE(ledgerToday(f).first, 0.008);
    }
};

QTEST_GUILESS_MAIN(TestCostCap)
#include "TestCostCap.moc"
