// docs/routing.md "Naming the provider" and SPEC §4: how a request names its provider, and the
// errors when it does not, through the real engine.
#include "RoutingFixture.h"

using namespace Aile;
using namespace Aile::Test;

using Headers = QList<QPair<QByteArray, QByteArray>>;
Q_DECLARE_METATYPE(Headers)

class TestProviderNaming : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(f.start(QJsonArray{
            sharer(QStringLiteral("L00000000000000a1"), QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2"), QStringLiteral("gpt-5.5")}),
            sharer(QStringLiteral("L00000000000000c1"), QStringLiteral("claude"), {},
                   {QStringLiteral("claude-sonnet-5"), QStringLiteral("claude-sonnet-5-5")}),
            sharer(QStringLiteral("L00000000000000d1"), QStringLiteral("codex"), {}, {QStringLiteral("gpt-5.5")}),
            sharer(QStringLiteral("L00000000000000e1"), QStringLiteral("openrouter"), {},
                   {QStringLiteral("anthropic/claude-sonnet-5"), QStringLiteral("deepseek/deepseek-chat")}),
        }));
    }

    void init() { f.upstream->clearScripts(); }

    void naming_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("model");
        QTest::addColumn<Headers>("headers");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("dialled"); // the sharer that served, when 200
        QTest::addColumn<QString>("upstreamModel");
        QTest::addColumn<QString>("messageHas"); // for errors
        const QString chat = QStringLiteral("/v1/chat/completions");
        const QString messages = QStringLiteral("/v1/messages");
        // "Every request names its provider: a prefix, a bare name plus x-aile-provider, or a bare name on a provider-pinned key."
        QTest::newRow("prefix") << chat << "openai/gpt-5.2" << Headers{} << 200 << "L00000000000000a1"
                                << "gpt-5.2"
                                << "";
        QTest::newRow("bare + x-aile-provider") << chat << "gpt-5.2" << Headers{{"x-aile-provider", "openai"}} << 200 << "L00000000000000a1"
                                                << "gpt-5.2"
                                                << "";
        // "A bare name alone is a 400"
        QTest::newRow("bare alone") << chat << "gpt-5.2" << Headers{} << 400 << ""
                                    << ""
                                    << "names no provider";
        // "with two exceptions: a bare name from Claude Code routes to claude"
        QTest::newRow("bare from Claude Code") << messages << "claude-sonnet-5"
                                               << Headers{{"user-agent", "claude-cli/2.1.332 (external, sdk-cli)"}, {"x-app", "cli"}} << 200
                                               << "L00000000000000c1"
                                               << "claude-sonnet-5"
                                               << "";
        // "and one from the Codex CLI routes to codex"
        QTest::newRow("bare from Codex CLI") << "/v1/responses"
                                             << "gpt-5.5"
                                             << Headers{{"originator", "codex_exec"}, {"user-agent", "codex_exec/0.171.0 (Debian 12; x86_64)"}} << 200
                                             << "L00000000000000d1"
                                             << "gpt-5.5"
                                             << "";
        // "unknown prefix → 400, pointing you to GET /v1/models"
        QTest::newRow("unknown prefix") << chat << "nosuch/gpt-5.2" << Headers{} << 400 << ""
                                        << ""
                                        << "GET /v1/models";
        // "a provider that cannot speak the endpoint you posted to → 404, naming the provider and the path"
        QTest::newRow("provider cannot speak endpoint") << chat << "claude/claude-sonnet-5" << Headers{} << 404 << ""
                                                        << ""
                                                        << "provider claude does not serve /v1/chat/completions";
        QTest::newRow("codex on messages") << messages << "codex/gpt-5.5" << Headers{} << 404 << ""
                                           << ""
                                           << "provider codex does not serve /v1/messages";
        // "known provider, no sharer → 503, naming that provider"
        QTest::newRow("known provider, no sharer") << chat << "gemini/gemini-3.1-pro" << Headers{} << 503 << ""
                                                   << ""
                                                   << "provider gemini";
        // "A provider named by header, key pin or route receives the model exactly as written"
        QTest::newRow("model as written") << chat << "openai/gpt-5.2" << Headers{} << 200 << "L00000000000000a1"
                                          << "gpt-5.2"
                                          << "";
        // "An aggregator such as openrouter takes namespaced ids (deepseek/…) as written."
        QTest::newRow("aggregator namespaced id") << chat << "openrouter/deepseek/deepseek-chat" << Headers{} << 200 << "L00000000000000e1"
                                                  << "deepseek/deepseek-chat"
                                                  << "";
        QTest::newRow("aggregator pinned by header")
            << chat << "deepseek/deepseek-chat" << Headers{{"x-aile-provider", "openrouter"}} << 200 << "L00000000000000e1"
            << "deepseek/deepseek-chat"
            << "";
        // "codex/gpt-5.6-sol on a key pinned to claude … is a 400 naming both providers and the fix"
        QTest::newRow("pinned mismatch by header") << messages << "codex/gpt-5.6-sol" << Headers{{"x-aile-provider", "claude"}} << 400 << ""
                                                   << ""
                                                   << "names provider codex, but x-aile-provider pins provider claude";
        // auto/ (docs/routing.md "Naming the provider")
        QTest::newRow("auto/ cheapest provider") << chat << "auto/gpt-5.2" << Headers{} << 200 << "L00000000000000a1"
                                                 << "gpt-5.2"
                                                 << "";
        QTest::newRow("auto/ alone") << chat << "auto/" << Headers{} << 400 << ""
                                     << ""
                                     << "bare model id";
        QTest::newRow("auto/ with a provider") << chat << "auto/claude/claude-sonnet-5" << Headers{} << 400 << ""
                                               << ""
                                               << "bare model id";
        QTest::newRow("auto/local") << chat << "auto/local/llama3" << Headers{} << 400 << ""
                                    << ""
                                    << "bare model id";
        QTest::newRow("auto/ beside one provider") << chat << "auto/gpt-5.2" << Headers{{"x-aile-provider", "openai"}} << 400 << ""
                                                   << ""
                                                   << "different things";
        QTest::newRow("auto/ with capacity local") << chat << "auto/gpt-5.2" << Headers{{"x-aile-capacity", "local"}} << 400 << ""
                                                   << ""
                                                   << "x-aile-capacity: local";
        QTest::newRow("x-aile-provider: any") << chat << "gpt-5.2" << Headers{{"x-aile-provider", "any"}} << 200 << "L00000000000000a1"
                                              << "gpt-5.2"
                                              << "";
        QTest::newRow("auto/ on embeddings") << "/v1/embeddings"
                                             << "auto/text-embedding-3-small" << Headers{} << 400 << ""
                                             << ""
                                             << "chat endpoints only";
        QTest::newRow("auto/ nobody lists it") << chat << "auto/no-such-model" << Headers{} << 404 << ""
                                               << ""
                                               << "no provider lists no-such-model";
        // "a version's dot and dash count as one spelling" + "an id ending in it"
        QTest::newRow("auto/ dot and dash") << messages << "auto/claude-sonnet-5.5" << Headers{} << 200 << "L00000000000000c1"
                                            << "claude-sonnet-5-5"
                                            << "";
        QTest::newRow("auto/ limited by a comma list")
            << chat << "auto/claude-sonnet-5" << Headers{{"x-aile-provider", "openrouter,claude"}} << 200 << "L00000000000000e1"
            << "anthropic/claude-sonnet-5"
            << "";
    }

    void naming()
    {
        QFETCH(QString, path);
        QFETCH(QString, model);
        QFETCH(Headers, headers);
        QFETCH(int, status);
        QFETCH(QString, dialled);
        QFETCH(QString, upstreamModel);
        QFETCH(QString, messageHas);
        const qsizetype before = f.upstream->received().size();
        const Reply r = f.post(path, RoutingFixture::chatBody(model), headers);
        QVERIFY2(r.status == status, qPrintable(QStringLiteral("%1: %2").arg(r.status).arg(QString::fromUtf8(r.body))));
        if (status == 200) {
            QCOMPARE(f.upstream->received().size(), before + 1);
            const ReceivedRequest &up = f.upstream->received().last();
            QCOMPARE(QString::fromLatin1(FakeUpstream::credentialOf(up)), dialled);
            QCOMPARE(up.json().value(QLatin1String("model")).toString(), upstreamModel);
        } else {
            // Refused before anything is held: no sharer was dialled.
            QCOMPARE(f.upstream->received().size(), before);
            QVERIFY2(errorMessage(r).contains(messageHas), qPrintable(errorMessage(r)));
            // The error is in the wire's own shape.
            if (path == QLatin1String("/v1/messages"))
                QCOMPARE(r.json().value(QLatin1String("type")).toString(), QStringLiteral("error"));
            // And the refusal is still a trace row.
            QCOMPARE(f.lastTrace().value(QLatin1String("status")).toInt(), status);
        }
    }

    void pinnedKeyMismatchNamesBothProviders()
    {
        RoutingFixture pinned;
        QVERIFY(
            pinned.start(QJsonArray{sharer(QStringLiteral("L00000000000000c1"), QStringLiteral("claude"), {}, {QStringLiteral("claude-sonnet-5")})},
                         QJsonObject{{QStringLiteral("provider"), QStringLiteral("claude")}}));
        // "a bare name on a provider-pinned key"
        QCOMPARE(pinned.post(QStringLiteral("/v1/messages"), RoutingFixture::chatBody(QStringLiteral("claude-sonnet-5"))).status, 200);
        const Reply r = pinned.post(QStringLiteral("/v1/messages"), RoutingFixture::chatBody(QStringLiteral("codex/gpt-5.6-sol")));
        QCOMPARE(r.status, 400);
        QVERIFY(errorMessage(r).contains(QLatin1String("provider codex")));
        QVERIFY(errorMessage(r).contains(QLatin1String("pins provider claude")));
        QVERIFY(errorMessage(r).contains(QLatin1String("send the bare id gpt-5.6-sol")));
        // A key limited to one provider cannot be widened by auto/.
        const Reply a = pinned.post(QStringLiteral("/v1/messages"), RoutingFixture::chatBody(QStringLiteral("auto/claude-sonnet-5")));
        QCOMPARE(a.status, 400);
        QVERIFY(errorMessage(a).contains(QLatin1String("cannot widen")));
    }

    void providersFourHundredIsPassedThroughAndNotCharged()
    {
        // "A model that provider does not serve is its refusal to give: its 400 is passed through"
        f.upstream->enqueueFor("L00000000000000a1", FakeUpstream::error(400, QStringLiteral("The model `gpt-nope` does not exist")));
        const Reply r = f.chat(QStringLiteral("openai/gpt-5.2"));
        QCOMPARE(r.status, 400);
        QVERIFY(r.body.contains("gpt-nope"));
        QCOMPARE(f.lastTrace().value(QLatin1String("costUsd")).toDouble(), 0.0);
    }

    void providersFourOhFourFailsOverAndEndsAs503()
    {
        // "and a 404 fails over to the next sharer and ends as a 503. Either way you are not charged."
        RoutingFixture two;
        QVERIFY(two.start(
            QJsonArray{sharer(QStringLiteral("L00000000000000a1"), QStringLiteral("openai"), {}, {QStringLiteral("gpt-9")},
                              QJsonObject{{QStringLiteral("price"),
                                           QJsonObject{{QStringLiteral("models"),
                                                        QJsonObject{{QStringLiteral("gpt-9"),
                                                                     QJsonObject{{QStringLiteral("input"), 1}, {QStringLiteral("output"), 1}}}}}}}}),
                       sharer(QStringLiteral("L00000000000000a2"), QStringLiteral("openai"), {}, {QStringLiteral("gpt-9")},
                              QJsonObject{{QStringLiteral("price"),
                                           QJsonObject{{QStringLiteral("models"),
                                                        QJsonObject{{QStringLiteral("gpt-9"), QJsonObject{{QStringLiteral("input"), 2},
                                                                                                          {QStringLiteral("output"), 2}}}}}}}})}));
        two.upstream->enqueueFor("L00000000000000a1", FakeUpstream::error(404, QStringLiteral("model not found")));
        two.upstream->enqueueFor("L00000000000000a2", FakeUpstream::error(404, QStringLiteral("model not found")));
        const Reply r = two.chat(QStringLiteral("openai/gpt-9"));
        QCOMPARE(r.status, 503);
        QCOMPARE(two.dialled().size(), 2);
        QCOMPARE(r.header("x-aile-attempts"), QByteArray("2"));
        QCOMPARE(two.spentToday(), 0.0);
        // A 404 benches nobody: the next request dials the first sharer again.
        QCOMPARE(two.chat(QStringLiteral("openai/gpt-9")).status, 200);
        QCOMPARE(two.dialled().at(2), QStringLiteral("L00000000000000a1"));
    }
};

QTEST_GUILESS_MAIN(TestProviderNaming)
#include "TestProviderNaming.moc"
