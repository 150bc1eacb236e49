// Issue 17, the tool's own login (docs/subscriptions.md): a "credential": "client" sharer takes
// the request's subscription login, in exactly the form its provider requires, and nobody else
// ever sees it; a stored `claude setup-token` token goes in the OAuth form; a request without a
// login passes client-login sharers over with its reason, in the trace and in the dry run.
#include "SubscriptionFixture.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QStringList Sonnet{QStringLiteral("claude-sonnet-5")};
const QStringList Gpt55{QStringLiteral("gpt-5.5")};
using Headers = QList<QPair<QByteArray, QByteArray>>;
} // namespace

class TestClientLogin : public QObject
{
    Q_OBJECT
private:
    using F = SubscriptionFixture;

    static bool startClaude(F &f)
    {
        // The API-key sharer gets the upstream's base URL from the fixture; the subscription one too.
        return f.startWith(
            QJsonArray{F::clientLoginSharer(F::Sub, QStringLiteral("claude"), Sonnet, {}), sharer(F::Key, QStringLiteral("claude"), {}, Sonnet)});
    }
    static bool startCodex(F &f)
    {
        f.upstream = nullptr;
        // The Codex backend lives under /backend-api/codex; the API-key fallback is OpenAI's /v1.
        auto pending = std::make_unique<FakeUpstream>(&f.clock);
        if (!pending->listen())
            return false;
        const QString base = pending->baseUrl();
        f.upstream = std::move(pending);
        QJsonArray sharers{F::clientLoginSharer(F::Sub, QStringLiteral("codex"), Gpt55, base + QStringLiteral("/backend-api/codex")),
                           sharer(F::Key, QStringLiteral("codex"), base + QStringLiteral("/v1"), Gpt55)};
        f.engine = std::make_unique<TestEngine>(configWith(sharers, {}, QJsonObject{{QStringLiteral("probeIntervalMs"), 1e12}}), &f.clock);
        if (!f.engine->start())
            return false;
        f.subs.attach(*f.upstream);
        return true;
    }
    static QJsonObject rowOf(const QJsonArray &rows, const QString &handle)
    {
        for (const QJsonValue &v : rows)
            if (v.toObject().value(QLatin1String("sharer")).toString() == handle)
                return v.toObject();
        return {};
    }

private Q_SLOTS:
    void aClaudeLoginGoesToItsSharerOnlyInTheOAuthForm()
    {
        F f;
        QVERIFY(startClaude(f));
        // First turn: the subscription serves, with the login as an OAuth bearer and its beta flag.
        Reply r = f.postAs(QStringLiteral("/v1/messages"), F::messagesBody(), F::claudeCodeLogin());
        QCOMPARE(r.status, 200);
        QCOMPARE(F::servedBy(r), F::Sub.toLatin1());
        const ReceivedRequest &first = f.upstream->received().last();
        QCOMPARE(first.headers.value("authorization"), QByteArray("Bearer ") + F::ClaudeLogin);
        QVERIFY(first.headers.value("anthropic-beta").contains("oauth-2025-04-20"));
        QVERIFY(!first.headers.has("x-api-key"));
        QVERIFY(!first.headers.has("x-aile-key"));
        // Claude Code's usage display reads the windows of the sharer that served.
        QCOMPARE(r.header("anthropic-ratelimit-unified-5h-status"), QByteArray("allowed"));

        // The subscription fails: the failover to the API key carries the key's own credential
        // and the headers of an API-key call, never the login.
        f.upstream->enqueueFor(F::ClaudeLogin, FakeUpstream::error(500, QStringLiteral("overloaded"), true));
        r = f.postAs(QStringLiteral("/v1/messages"), F::messagesBody(), F::claudeCodeLogin());
        QCOMPARE(r.status, 200);
        QCOMPARE(F::servedBy(r), F::Key.toLatin1());
        const ReceivedRequest &fallback = f.upstream->received().last();
        QCOMPARE(fallback.headers.value("x-api-key"), F::Key.toLatin1());
        QVERIFY(!fallback.headers.has("authorization"));
        QVERIFY(!fallback.headers.value("anthropic-beta").contains("oauth"));
        QVERIFY(fallback.headers.value("anthropic-beta").contains("claude-code-20250219"));
        // Nothing fabricated: an API key served, so no subscription window goes back to the client.
        QVERIFY(r.header("anthropic-ratelimit-unified-5h-status").isEmpty());

        // Every request the fake saw: the login only ever went to the subscription sharer.
        QCOMPARE(int(f.upstream->received().size()), 3);
        for (const ReceivedRequest &seen : f.upstream->received())
            QCOMPARE(carries(seen, F::ClaudeLogin), FakeUpstream::credentialOf(seen) == F::ClaudeLogin);
        // …and never reached a trace, a reply or the listing.
        const QJsonObject trace = f.lastTrace();
        QVERIFY(!QJsonDocument(trace).toJson().contains(F::ClaudeLogin));
        QVERIFY(!r.body.contains(F::ClaudeLogin));
        QVERIFY(!f.admin(QStringLiteral("GET"), QStringLiteral("/sharers")).body.contains(F::ClaudeLogin));
    }

    void aChatGptLoginCarriesItsAccountToTheCodexBackendOnly()
    {
        F f;
        QVERIFY(startCodex(f));
        Reply r = f.postAs(QStringLiteral("/v1/responses"), F::responsesBody(), F::codexLogin());
        QCOMPARE(r.status, 200);
        QCOMPARE(F::servedBy(r), F::Sub.toLatin1());
        const ReceivedRequest &first = f.upstream->received().last();
        QCOMPARE(first.path, QByteArray("/backend-api/codex/responses"));
        QCOMPARE(first.headers.value("authorization"), QByteArray("Bearer ") + F::ChatGptToken);
        QCOMPARE(first.headers.value("chatgpt-account-id"), QByteArray(F::ChatGptAccount));
        QVERIFY(!first.headers.has("x-aile-key"));
        QCOMPARE(r.header("x-codex-primary-window-minutes"), QByteArray("300"));

        f.upstream->enqueueFor(F::ChatGptToken, FakeUpstream::error(503, QStringLiteral("busy")));
        r = f.postAs(QStringLiteral("/v1/responses"), F::responsesBody(), F::codexLogin());
        QCOMPARE(r.status, 200);
        QCOMPARE(F::servedBy(r), F::Key.toLatin1());
        const ReceivedRequest &fallback = f.upstream->received().last();
        QCOMPARE(fallback.path, QByteArray("/v1/responses"));
        QCOMPARE(fallback.headers.value("authorization"), QByteArray("Bearer ") + F::Key.toLatin1());
        QVERIFY(!fallback.headers.has("chatgpt-account-id"));
        QVERIFY(r.header("x-codex-primary-used-percent").isEmpty());
        for (const ReceivedRequest &seen : f.upstream->received()) {
            const bool subscription = seen.path.startsWith("/backend-api/codex/");
            QCOMPARE(carries(seen, F::ChatGptToken), subscription);
            QCOMPARE(carries(seen, F::ChatGptAccount), subscription);
        }
    }

    void aRequestWithoutALoginPassesClientLoginSharersOver_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<Headers>("headers");
        QTest::addColumn<bool>("codex");
        QTest::newRow("claude: the local key in Authorization, no login")
            << QStringLiteral("/v1/messages") << Headers{{"authorization", QByteArray("Bearer ") + TestKey}} << false;
        QTest::newRow("claude: x-aile-key, nothing in Authorization") << QStringLiteral("/v1/messages") << Headers{{"x-aile-key", TestKey}} << false;
        QTest::newRow("claude: a ChatGPT login is not a Claude login") << QStringLiteral("/v1/messages") << F::codexLogin() << false;
        QTest::newRow("codex: the local key in Authorization, no login")
            << QStringLiteral("/v1/responses") << Headers{{"authorization", QByteArray("Bearer ") + TestKey}} << true;
        QTest::newRow("codex: a bearer without its chatgpt-account-id")
            << QStringLiteral("/v1/responses") << Headers{{"authorization", QByteArray("Bearer ") + F::ChatGptToken}, {"x-aile-key", TestKey}}
            << true;
    }
    void aRequestWithoutALoginPassesClientLoginSharersOver()
    {
        QFETCH(QString, path);
        QFETCH(Headers, headers);
        QFETCH(bool, codex);
        F f;
        QVERIFY(codex ? startCodex(f) : startClaude(f));
        // Named in full: these requests do not all come from the tool that sends a bare model.
        const QByteArray body = codex ? F::responsesBody(QStringLiteral("codex/gpt-5.5")) : F::messagesBody(QStringLiteral("claude/claude-sonnet-5"));
        const Reply r = f.postAs(path, body, headers);
        QCOMPARE(r.status, 200);
        QCOMPARE(F::servedBy(r), F::Key.toLatin1());
        QCOMPARE(int(f.upstream->received().size()), 1);
        const QJsonObject row = rowOf(f.lastAttempts(), F::Sub);
        QCOMPARE(row.value(QLatin1String("reason")).toString(), QStringLiteral("no subscription login on this request"));
        QCOMPARE(row.value(QLatin1String("skip")).toString(), QStringLiteral("no_login"));
        QCOMPARE(row.value(QLatin1String("dispatched")).toBool(true), false);

        // The dry run says the same, naming the sharer.
        QJsonObject hs;
        for (const auto &[name, value] : headers)
            if (name != "authorization" && name != "x-aile-key")
                hs.insert(QString::fromLatin1(name), QString::fromLatin1(value));
        const QJsonObject ask{
            {QStringLiteral("endpoint"), path}, {QStringLiteral("body"), QJsonDocument::fromJson(body).object()}, {QStringLiteral("headers"), hs}};
        const Reply dry = f.admin(QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"), ask);
        QCOMPARE(dry.status, 200);
        const QByteArray text = dry.body;
        QVERIFY2(text.contains("no subscription login on this request"), text.constData());
    }

    void aDryRunWithTheLoginListsTheSubscriptionFirst()
    {
        F f;
        QVERIFY(startClaude(f));
        QJsonObject hs;
        for (const auto &[name, value] : F::claudeCodeLogin())
            hs.insert(QString::fromLatin1(name), QString::fromLatin1(value));
        const Reply dry = f.admin(QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"),
                                  QJsonObject{{QStringLiteral("endpoint"), QStringLiteral("/v1/messages")},
                                              {QStringLiteral("body"), QJsonDocument::fromJson(F::messagesBody()).object()},
                                              {QStringLiteral("headers"), hs}});
        QCOMPARE(dry.status, 200);
        QVERIFY(!dry.body.contains("no subscription login"));
        QVERIFY(!dry.body.contains(F::ClaudeLogin)); // a dry run never echoes the login
        QVERIFY(dry.body.indexOf(F::Sub.toLatin1()) < dry.body.indexOf(F::Key.toLatin1()));
        QVERIFY(f.upstream->received().isEmpty());
    }

    void aStoredSetupTokenGoesInTheOAuthForm_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("subscription") << QStringLiteral("subscription");
        QTest::newRow("api-key kind, but an OAuth token") << QStringLiteral("api-key");
    }
    void aStoredSetupTokenGoesInTheOAuthForm()
    {
        QFETCH(QString, kind);
        F f;
        qputenv("AILE_T_SETUP_TOKEN", "sk-ant-oat01-stored-setup-token");
        QJsonObject s = sharer(F::Sub, QStringLiteral("claude"), {}, Sonnet);
        s.insert(QStringLiteral("credential"), QStringLiteral("env:AILE_T_SETUP_TOKEN"));
        s.insert(QStringLiteral("kind"), kind);
        QVERIFY(f.startWith(QJsonArray{s}));
        // Any client (here the SDK, with its local key as Bearer): the stored token is the sharer's.
        const Reply r = f.postAs(QStringLiteral("/v1/messages"), F::messagesBody(QStringLiteral("claude/claude-sonnet-5")),
                                 {{"authorization", QByteArray("Bearer ") + TestKey}});
        QCOMPARE(r.status, 200); // the fake refuses x-api-key and a bearer without the flag (401)
        const ReceivedRequest &seen = f.upstream->received().last();
        QCOMPARE(seen.headers.value("authorization"), QByteArray("Bearer sk-ant-oat01-stored-setup-token"));
        QVERIFY(seen.headers.value("anthropic-beta").contains("oauth-2025-04-20"));
        QVERIFY(!seen.headers.has("x-api-key"));
        QCOMPARE(seen.headers.value("anthropic-version"), QByteArray("2023-06-01"));
    }

    void theFakeRefusesALoginInTheWrongForm_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<Headers>("headers");
        QTest::addColumn<QByteArray>("says");
        QTest::newRow("Claude login as x-api-key") << QStringLiteral("/v1/messages") << Headers{{"x-api-key", F::ClaudeLogin}}
                                                   << QByteArray("invalid x-api-key");
        QTest::newRow("Claude login without the OAuth flag")
            << QStringLiteral("/v1/messages") << Headers{{"authorization", QByteArray("Bearer ") + F::ClaudeLogin}}
            << QByteArray("OAuth authentication is currently not supported.");
        QTest::newRow("ChatGPT login without its account")
            << QStringLiteral("/backend-api/codex/responses") << Headers{{"authorization", QByteArray("Bearer ") + F::ChatGptToken}}
            << QByteArray("chatgpt-account-id");
    }
    void theFakeRefusesALoginInTheWrongForm()
    {
        QFETCH(QString, path);
        QFETCH(Headers, headers);
        QFETCH(QByteArray, says);
        F f;
        QVERIFY(f.startWith({}));
        const Reply r = send(QStringLiteral("POST"), f.upstream->baseUrl() + path, F::messagesBody(), headers);
        QCOMPARE(r.status, 401);
        QVERIFY2(r.body.contains(says), r.body.constData());
    }

    void aClientLoginSharerIsASubscriptionOfClaudeOrCodex()
    {
        F f;
        QVERIFY(f.startWith({}));
        QJsonObject s = F::clientLoginSharer(F::Sub, QStringLiteral("openai"), Gpt55, QStringLiteral("https://api.openai.com"));
        Reply r = f.admin(QStringLiteral("POST"), QStringLiteral("/sharers"), s);
        QCOMPARE(r.status, 400);
        QVERIFY2(r.body.contains("provider claude") && r.body.contains("codex"), r.body.constData());
        s = F::clientLoginSharer(F::Sub, QStringLiteral("claude"), Sonnet, QStringLiteral("https://api.anthropic.com"));
        r = f.admin(QStringLiteral("POST"), QStringLiteral("/sharers"), s);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QLatin1String("credential")).toString(), QStringLiteral("client"));
        QVERIFY(!r.json().value(QLatin1String("needsKey")).toBool());
        // Listed as usable, its credential the tool's own login; a model test says why it cannot run here.
        const QJsonArray rows = f.admin(QStringLiteral("GET"), QStringLiteral("/sharers")).json().value(QLatin1String("data")).toArray();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().toObject().value(QLatin1String("credentialStore")).toString(), QStringLiteral("client"));
        QVERIFY(rows.first().toObject().value(QLatin1String("available")).toBool());
        const Reply test = f.admin(QStringLiteral("POST"), QStringLiteral("/sharers/%1/test").arg(F::Sub),
                                   QJsonObject{{QStringLiteral("model"), QStringLiteral("claude-sonnet-5")}});
        QVERIFY2(test.body.contains("own subscription login"), test.body.constData());
    }
};

QTEST_GUILESS_MAIN(TestClientLogin)
#include "TestClientLogin.moc"
