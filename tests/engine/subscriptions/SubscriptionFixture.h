#pragma once

#include "engine/routing/RoutingFixture.h"
#include "testsupport/FakeSubscriptions.h"

namespace Aile::Test {

/// A Claude subscription login, a ChatGPT login and their sharers on the fake upstream's two
/// subscription front doors (FakeSubscriptions), beside API-key sharers, on one ManualClock.
struct SubscriptionFixture : RoutingFixture
{
    static constexpr const char *ClaudeLogin = "sk-ant-oat01-test-login-5f3a9c";
    static constexpr const char *ChatGptToken = "eyJhbGciOiJub25lIn0.eyJ0ZXN0Ijp0cnVlfQ.c2ln";
    static constexpr const char *ChatGptAccount = "acct-test-7d21";
    inline static const QString Sub = QStringLiteral("L00000000000005b1"); // client login
    inline static const QString Key = QStringLiteral("L000000000000a9e1"); // API key

    FakeSubscriptions subs{&clock};

    /// Starts the engine; the fake's subscription front doors are attached first.
    bool startWith(const QJsonArray &sharers, const QJsonObject &settings = {})
    {
        if (!start(sharers, {}, settings))
            return false;
        subs.attach(*upstream);
        return true;
    }

    /// A subscription sharer using the client's login; priority 10 ranks it above API keys.
    static QJsonObject clientLoginSharer(const QString &handle, const QString &provider, const QStringList &models, const QString &baseUrl)
    {
        QJsonObject o = sharer(handle, provider, baseUrl, models);
        o.insert(QStringLiteral("credential"), QStringLiteral("client"));
        o.insert(QStringLiteral("kind"), QStringLiteral("subscription"));
        o.insert(QStringLiteral("priority"), 10);
        return o;
    }

    /// What Claude Code sends with CLAUDE_CODE_OAUTH_TOKEN and ANTHROPIC_CUSTOM_HEADERS="x-aile-key: …".
    static QList<QPair<QByteArray, QByteArray>> claudeCodeLogin()
    {
        return {{"authorization", QByteArray("Bearer ") + ClaudeLogin},
                {"x-aile-key", TestKey},
                {"anthropic-version", "2023-06-01"},
                {"anthropic-beta", "claude-code-20250219,oauth-2025-04-20,interleaved-thinking-2025-05-14"},
                {"user-agent", "claude-cli/2.1.197 (external, sdk-cli)"},
                {"x-app", "cli"}};
    }
    /// What the Codex CLI sends signed in with ChatGPT, with http_headers = { "x-aile-key" = … }.
    static QList<QPair<QByteArray, QByteArray>> codexLogin()
    {
        return {{"authorization", QByteArray("Bearer ") + ChatGptToken},
                {"chatgpt-account-id", ChatGptAccount},
                {"x-aile-key", TestKey},
                {"originator", "codex_exec"},
                {"user-agent", "codex_exec/0.171.0 (Debian 12; x86_64) dumb"}};
    }

    /// A request with only these headers (no local key in Authorization).
    Reply postAs(const QString &path, const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers)
    {
        return AsyncClient::wait(client.post(engine->baseUrl() + path, body, headers));
    }
    static QByteArray messagesBody(const QString &model = QStringLiteral("claude-sonnet-5"))
    {
        return QJsonDocument(QJsonObject{{QStringLiteral("model"), model},
                                         {QStringLiteral("max_tokens"), 100},
                                         {QStringLiteral("system"), QStringLiteral("You are Claude Code, Anthropic's official CLI for Claude.")},
                                         {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                             {QStringLiteral("content"), QStringLiteral("hi")}}}}})
            .toJson(QJsonDocument::Compact);
    }
    static QByteArray responsesBody(const QString &model = QStringLiteral("gpt-5.5"))
    {
        return QJsonDocument(QJsonObject{{QStringLiteral("model"), model}, {QStringLiteral("input"), QStringLiteral("hi")}})
            .toJson(QJsonDocument::Compact);
    }
    static QByteArray servedBy(const Reply &r) { return r.header("x-aile-sharer"); }
};

/// Every place a received request could carry a secret: header values and the body.
inline bool carries(const ReceivedRequest &r, const QByteArray &secret)
{
    for (const auto &[name, value] : r.headers.entries())
        if (value.contains(secret))
            return true;
    return r.body.contains(secret) || r.query.contains(secret);
}

} // namespace Aile::Test
