// Issue 5 (docs/keys.md "Every routing setting" and "The same levers as headers"): the
// price ceiling and floor, sharer and provider lists, data collection, self-hosted capacity,
// verified, region, and the non-chat endpoints, through the real engine.
#include "KeysFixture.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1"); // cheapest
const QString B = QStringLiteral("L00000000000000a2");
const QString C = QStringLiteral("L00000000000000a3"); // dearest
const QString G = QStringLiteral("L00000000000000b1"); // gemini (policy unknown)
const QString H = QStringLiteral("L00000000000000c1"); // claude haiku (long-context band)
const QString Local = QStringLiteral("L00000000000000d1");
const QString M = QStringLiteral("L00000000000000e1"); // openai, a model without a list price
const QString Gpt = QStringLiteral("openai/gpt-5.2");
} // namespace

class TestKeyLevers : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

    Reply chat(const QList<QPair<QByteArray, QByteArray>> &headers, const QString &model = Gpt) { return f.chat(model, headers); }

private Q_SLOTS:
    void init()
    {
        const QStringList gpt{QStringLiteral("gpt-5.2"), QStringLiteral("text-embedding-3-small"), QStringLiteral("omni-moderation-latest")};
        QVERIFY(f.start(
            QJsonArray{sharer(C, QStringLiteral("openai"), {}, gpt, atPercent(90)), sharer(A, QStringLiteral("openai"), {}, gpt, atPercent(40)),
                       sharer(B, QStringLiteral("openai"), {}, gpt, atPercent(60)),
                       sharer(G, QStringLiteral("gemini"), {}, {QStringLiteral("gemini-3.5-flash")}),
                       sharer(H, QStringLiteral("claude"), {}, {QStringLiteral("claude-haiku-5-5")}),
                       sharer(Local, QStringLiteral("local"), {}, {QStringLiteral("llama3")},
                              QJsonObject{{QStringLiteral("price"),
                                           QJsonObject{{QStringLiteral("models"),
                                                        QJsonObject{{QStringLiteral("llama3"), QJsonObject{{QStringLiteral("input"), 0.1},
                                                                                                           {QStringLiteral("output"), 0.1}}}}}}}}),
                       sharer(M, QStringLiteral("openai"), {}, {QStringLiteral("mystery-1")})}));
    }
    void cleanup() { setKeyRouting(f, {}); }

    // --- Price ceiling and floor ----------------------------------------------------------

    void maxPriceAbsoluteAndPercent()
    {
        // gpt-5.2 lists $1.75/$14: A is at $5.6 out, B $8.4, C $12.6.
        Reply r = chat({{"x-aile-max-price", "9"}});
        QCOMPARE(r.status, 200);
        r = chat({{"x-aile-max-price", "50%"}, {"x-aile-sharer", QByteArray(B.toLatin1() + "," + C.toLatin1())}});
        QCOMPARE(r.status, 503);
        QCOMPARE(refusedBy(r), QStringLiteral("x-aile-max-price"));
        QVERIFY2(errorMessage(r).startsWith(QLatin1String("every sharer online for openai/gpt-5.2 is priced above x-aile-max-price")),
                 qPrintable(errorMessage(r)));
        QCOMPARE(f.upstream->received().size(), 1);
    }

    void aPercentNeedsAPricedModelBeforeTheValueIsRead()
    {
        Reply r = chat({{"x-aile-max-price", "80%"}}, QStringLiteral("openai/mystery-1"));
        QCOMPARE(r.status, 404);
        QVERIFY2(errorMessage(r).contains(QLatin1String("has no published list price")), qPrintable(errorMessage(r)));
        // Even a malformed percentage: the price is looked for first.
        QCOMPARE(chat({{"x-aile-max-price", "lots%"}}, QStringLiteral("openai/mystery-1")).status, 404);
        QCOMPARE(chat({{"x-aile-min-price", "20%"}}, QStringLiteral("openai/mystery-1")).status, 404);
        // On a priced model the malformed value is a 400; a malformed absolute value is always one.
        r = chat({{"x-aile-max-price", "lots%"}});
        QCOMPARE(r.status, 400);
        QCOMPARE(refusedBy(r), QStringLiteral("x-aile-max-price"));
        QCOMPARE(chat({{"x-aile-max-price", "cheap"}}, QStringLiteral("openai/mystery-1")).status, 400);
        QCOMPARE(f.upstream->received().size(), 0);
    }

    void theCeilingIsCheckedAtTheLongContextRate()
    {
        // claude-haiku-5-5: $0.1/$0.5, past 100,000 prompt tokens $0.5/$2.5 for the whole request.
        QJsonObject body{{QStringLiteral("model"), QStringLiteral("claude/claude-haiku-5-5")},
                         {QStringLiteral("max_tokens"), 10},
                         {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                             {QStringLiteral("content"), QStringLiteral("hi")}}}}};
        QCOMPARE(f.post(QStringLiteral("/v1/messages"), bodyOf(body), {{"x-aile-max-price", "1"}}).status, 200);
        body.insert(QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                       {QStringLiteral("content"), QString(440000, QLatin1Char('a'))}}});
        const Reply r = f.post(QStringLiteral("/v1/messages"), bodyOf(body), {{"x-aile-max-price", "1"}});
        QCOMPARE(r.status, 503);
        QVERIFY2(errorMessage(r).contains(QLatin1String("priced above x-aile-max-price")), qPrintable(errorMessage(r)));
        QCOMPARE(f.upstream->received().size(), 1);
    }

    void aHeaderRaisesTheKeysFloorNeverLowersIt()
    {
        setKeyRouting(f, {{QStringLiteral("minPricePercent"), 50}});
        // A (40%) is under the key's floor: a lower header does not bring it back.
        Reply r = chat({{"x-aile-min-price", "10%"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), B.toLatin1());
        // A higher header raises it past B (60%): C serves.
        r = chat({{"x-aile-min-price", "70%"}});
        QCOMPARE(r.header("x-aile-sharer"), C.toLatin1());
        // Above everyone: a 503 naming where the floor lives.
        r = chat({{"x-aile-min-price", "95%"}});
        QCOMPARE(r.status, 503);
        QVERIFY2(errorMessage(r).contains(QLatin1String("every sharer online for openai/gpt-5.2 is priced more than")), qPrintable(errorMessage(r)));
        QCOMPARE(refusedBy(r), QStringLiteral("x-aile-min-price"));
        setKeyRouting(f, {{QStringLiteral("minPricePercent"), 95}});
        r = chat({});
        QCOMPARE(r.status, 503);
        QCOMPARE(refusedBy(r), QStringLiteral("this API key's price floor"));
    }

    // --- Sharer and provider lists ------------------------------------------------------------

    void excludeAndAllowSharersKeepPriceOrder()
    {
        Reply r = chat({{"x-aile-exclude-sharer", A.toLatin1()}});
        QCOMPARE(r.header("x-aile-sharer"), B.toLatin1());
        bool seen = false;
        for (const QJsonValue &v : f.lastAttempts())
            seen = seen
                   || (v.toObject().value(QLatin1String("sharer")).toString() == A
                       && v.toObject().value(QLatin1String("reason")).toString() == QLatin1String("blocked by x-aile-exclude-sharer"));
        QVERIFY(seen);
        // Only the listed ones, cheapest of them first; old names too, in any case.
        r = chat({{"x-aile-sharer", QByteArray(C.toUpper().toLatin1() + "," + B.toLatin1())}});
        QCOMPARE(r.header("x-aile-sharer"), B.toLatin1());
        r = chat({{"x-aile-lender", C.toLatin1()}});
        QCOMPARE(r.header("x-aile-sharer"), C.toLatin1());
        r = chat({{"x-aile-exclude-lender", QByteArray(A.toLatin1() + "," + B.toLatin1())}});
        QCOMPARE(r.header("x-aile-sharer"), C.toLatin1());
        QCOMPARE(f.dialled(), (QStringList{B, B, C, C}));
    }

    void listHeadersAreBounded()
    {
        QByteArray fiftyOne;
        for (int i = 0; i < 51; ++i)
            fiftyOne += (i ? "," : "") + QStringLiteral("L%1").arg(i + 1, 16, 16, QLatin1Char('0')).toLatin1();
        Reply r = chat({{"x-aile-exclude-sharer", fiftyOne}});
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("names 51 sharers; at most 50")), qPrintable(errorMessage(r)));
        QByteArray big = fiftyOne;
        while (big.size() <= 4096)
            big += "," + A.toLatin1();
        r = chat({{"x-aile-sharer", big}});
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("at most 4 KiB")), qPrintable(errorMessage(r)));
        QCOMPARE(refusedBy(r), QStringLiteral("x-aile-sharer"));
        QCOMPARE(chat({{"x-aile-sharer", "bob"}}).status, 400);
        QCOMPARE(chat({{"x-aile-exclude-provider", "acme"}}).status, 200); // an unknown id excludes nothing
        QCOMPARE(f.dialled().size(), 1);
    }

    void headersOnlyNarrowTheKeysLists()
    {
        setKeyRouting(f, {{QStringLiteral("neverSharers"), QJsonArray{A}}, {QStringLiteral("onlySharers"), QJsonArray{A, B}}});
        // The key's never list wins over its only list; a header naming a blocked sharer is a 400.
        Reply r = chat({{"x-aile-sharer", A.toLatin1()}});
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("which this API key blocks")), qPrintable(errorMessage(r)));
        r = chat({{"x-aile-sharer", C.toLatin1()}});
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("outside this API key's allowed sharers")), qPrintable(errorMessage(r)));
        QCOMPARE(chat({}).header("x-aile-sharer"), B.toLatin1());
        QCOMPARE(f.dialled(), QStringList{B});
    }

    void theDocumented503TextsWithRefusedBy()
    {
        setKeyRouting(f, {{QStringLiteral("neverSharers"), QJsonArray{A, B, C}}});
        Reply r = chat({});
        QCOMPARE(r.status, 503);
        QCOMPARE(errorMessage(r), QStringLiteral("every sharer online for openai/gpt-5.2 is blocked by this API key"));
        QCOMPARE(refusedBy(r), QStringLiteral("x-aile-exclude-sharer"));
        setKeyRouting(f, {});
        r = chat({{"x-aile-exclude-sharer", QByteArray(A.toLatin1() + "," + B.toLatin1() + "," + C.toLatin1())}});
        QCOMPARE(errorMessage(r), QStringLiteral("every sharer online for openai/gpt-5.2 is blocked by x-aile-exclude-sharer"));
        setKeyRouting(f, {{QStringLiteral("onlySharers"), QJsonArray{QStringLiteral("L00000000000000ff")}}});
        r = chat({});
        QCOMPARE(r.status, 503);
        QCOMPARE(
            errorMessage(r),
            QStringLiteral("none of this API key's allowed sharers (L00000000000000ff) has a machine online and sharing openai/gpt-5.2 right now"));
        QCOMPARE(refusedBy(r), QStringLiteral("x-aile-sharer"));
        QCOMPARE(f.upstream->received().size(), 0);
    }

    void anExcludedProviderIsA400()
    {
        setKeyRouting(f, {{QStringLiteral("excludeProviders"), QJsonArray{QStringLiteral("openai")}}});
        Reply r = chat({});
        QCOMPARE(r.status, 400);
        QCOMPARE(errorMessage(r), QStringLiteral("this API key excludes provider openai"));
        setKeyRouting(f, {});
        r = chat({{"x-aile-exclude-provider", "gemini, openai"}});
        QCOMPARE(r.status, 400);
        QCOMPARE(refusedBy(r), QStringLiteral("x-aile-exclude-provider"));
        QCOMPARE(f.upstream->received().size(), 0);
    }

    void aKeyPinnedToOneSharer()
    {
        setKeyRouting(f, {{QStringLiteral("sharer"), C}});
        QCOMPARE(chat({}).header("x-aile-sharer"), C.toLatin1());
        QCOMPARE(chat({{"x-aile-sharer", A.toLatin1()}}).status, 400);
        QCOMPARE(f.dialled(), QStringList{C});
    }

    // --- Data collection, self-hosted, verified, region ---------------------------------------

    void dataCollectionDenyFailsClosed()
    {
        // OpenAI does not train on API prompts.
        QCOMPARE(chat({{"x-aile-data-collection", "deny"}}).status, 200);
        // Gemini's policy depends on the key's billing: unknown, refused before anything is held.
        Reply r = chat({{"x-aile-data-collection", "deny"}}, QStringLiteral("gemini/gemini-3.5-flash"));
        QCOMPARE(r.status, 400);
        QCOMPARE(refusedBy(r), QStringLiteral("x-aile-data-collection"));
        QVERIFY2(errorMessage(r).contains(QLatin1String("unknown")), qPrintable(errorMessage(r)));
        // Self-hosted: the sharer's own machine reads the prompt.
        r = chat({{"x-aile-data-collection", "deny"}}, QStringLiteral("local/llama3"));
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("refuses self-hosted models")), qPrintable(errorMessage(r)));
        // The key's setting: an allow header cannot lift it.
        setKeyRouting(f, {{QStringLiteral("dataCollection"), QStringLiteral("deny")}});
        QCOMPARE(chat({{"x-aile-data-collection", "allow"}}, QStringLiteral("gemini/gemini-3.5-flash")).status, 400);
        QCOMPARE(chat({{"x-aile-data-collection", "maybe"}}).status, 400);
        QCOMPARE(f.upstream->received().size(), 1);
    }

    void selfHostedCapacityVerifiedAndRegion()
    {
        QCOMPARE(chat({}, QStringLiteral("local/llama3")).status, 200);
        setKeyRouting(f, {{QStringLiteral("allowSelfHosted"), false}});
        Reply r = chat({}, QStringLiteral("local/llama3"));
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("does not allow self-hosted models")), qPrintable(errorMessage(r)));
        QCOMPARE(chat({{"x-aile-capacity", "local"}}).status, 400);
        setKeyRouting(f, {});
        QCOMPARE(chat({{"x-aile-capacity", "cloud"}}).status, 400);
        r = chat({{"x-aile-capacity", "node"}});
        QCOMPARE(r.status, 503);
        QCOMPARE(refusedBy(r), QStringLiteral("x-aile-capacity"));
        // Verified: only sharers that passed a test of the model.
        r = chat({{"x-aile-verified", "1"}});
        QCOMPARE(r.status, 503);
        QCOMPARE(refusedBy(r), QStringLiteral("x-aile-verified"));
        f.engine->context().sharer(B)->tested << QStringLiteral("gpt-5.2");
        QCOMPARE(chat({{"x-aile-verified", "1"}}).header("x-aile-sharer"), B.toLatin1());
        // x-aile-region is ignored.
        QCOMPARE(chat({{"x-aile-region", "eu-west"}}).header("x-aile-sharer"), A.toLatin1());
    }

    void theListingUsesTheSamePipeline()
    {
        const Reply r = send(QStringLiteral("GET"), f.engine->baseUrl() + QStringLiteral("/sharers?model=openai/gpt-5.2&min-price=50%25"), {},
                             {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(r.json().value(QLatin1String("data")).toArray().first().toObject().value(QLatin1String("handle")).toString(), B);
    }

    // --- Non-chat endpoints -----------------------------------------------------------------

    void embeddingsTakeTheSameHeadersAndPins()
    {
        auto embed = [&](const QString &model, const QList<QPair<QByteArray, QByteArray>> &headers) {
            return f.post(QStringLiteral("/v1/embeddings"),
                          bodyOf(QJsonObject{{QStringLiteral("model"), model}, {QStringLiteral("input"), QStringLiteral("hello")}}), headers);
        };
        Reply r = embed(QStringLiteral("openai/text-embedding-3-small"), {});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), A.toLatin1());
        QVERIFY(ledgerToday(f).first > 0);
        QCOMPARE(embed(QStringLiteral("openai/text-embedding-3-small"), {{"x-aile-exclude-sharer", A.toLatin1()}}).header("x-aile-sharer"),
                 B.toLatin1());
        setKeyRouting(f, {{QStringLiteral("onlySharers"), QJsonArray{C}}});
        QCOMPARE(embed(QStringLiteral("openai/text-embedding-3-small"), {}).header("x-aile-sharer"), C.toLatin1());
        setKeyRouting(f, {});
        // <provider>/<model> only.
        QCOMPARE(embed(QStringLiteral("auto/text-embedding-3-small"), {}).status, 400);
        QCOMPARE(embed(QStringLiteral("text-embedding-3-small"), {{"x-aile-provider", "openai"}}).status, 400);
        QCOMPARE(embed(QStringLiteral("openai/text-embedding-3-small"), {{"x-aile-capacity", "local"}}).status, 400);
        // Max and min price bind embeddings (token-priced)…
        r = embed(QStringLiteral("openai/text-embedding-3-small"), {{"x-aile-min-price", "95%"}});
        QCOMPARE(r.status, 503);
        QCOMPARE(refusedBy(r), QStringLiteral("x-aile-min-price"));
        // … and are skipped on moderation (priced per unit).
        r = f.post(QStringLiteral("/v1/moderations"),
                   bodyOf(QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/omni-moderation-latest")},
                                      {QStringLiteral("input"), QStringLiteral("hi")}}),
                   {{"x-aile-min-price", "95%"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(f.upstream->received().size(), 4);
    }
};

QTEST_GUILESS_MAIN(TestKeyLevers)
#include "TestKeyLevers.moc"
