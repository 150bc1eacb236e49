#include "FakeSubscriptions.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QUrlQuery>

namespace Aile::Test {

namespace {

constexpr qint64 WeekMs = 7LL * 24 * 3600 * 1000;

QByteArray bearerOf(const ReceivedRequest &r)
{
    const QByteArray auth = r.headers.value("authorization");
    return auth.startsWith("Bearer ") ? auth.mid(7) : QByteArray();
}

Script anthropicError(int status, const char *type, const QString &message)
{
    Script s;
    s.status = status;
    s.headers.add("content-type", "application/json");
    s.body = QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("error")},
                                       {QStringLiteral("error"),
                                        QJsonObject{{QStringLiteral("type"), QString::fromLatin1(type)}, {QStringLiteral("message"), message}}}})
                 .toJson(QJsonDocument::Compact);
    return s;
}

Script openAiError(int status, const char *type, const QString &message, const QJsonObject &more = {})
{
    QJsonObject error = more;
    error.insert(QStringLiteral("type"), QString::fromLatin1(type));
    error.insert(QStringLiteral("message"), message);
    Script s;
    s.status = status;
    s.headers.add("content-type", "application/json");
    s.body = QJsonDocument(QJsonObject{{QStringLiteral("error"), error}}).toJson(QJsonDocument::Compact);
    return s;
}

bool hasBeta(const ReceivedRequest &r, const QByteArray &flag)
{
    for (const QByteArray &value : r.headers.values("anthropic-beta"))
        for (const QByteArray &f : value.split(','))
            if (f.trimmed() == flag)
                return true;
    return false;
}

QByteArray percent(double fraction)
{
    return QByteArray::number(fraction * 100, 'f', 1);
}

} // namespace

void FakeSubscriptions::attach(FakeUpstream &upstream)
{
    upstream.setFrontDoor([this](const ReceivedRequest &r, Http::HttpHeaders *extra) { return answer(r, extra); });
}

qint64 FakeSubscriptions::resetOf(const QByteArray &account, bool *spent) const
{
    const qint64 now = m_clock->nowMs();
    const qint64 until = m_spentUntil.value(account, 0);
    *spent = until > now;
    return *spent ? until : now + FiveHoursMs / 2;
}

std::optional<Script> FakeSubscriptions::answer(const ReceivedRequest &r, Http::HttpHeaders *extra)
{
    if (r.path.startsWith("/__fake/"))
        return control(r);
    if (r.path.contains("/backend-api/codex/"))
        return codex(r, extra);
    if (r.path.endsWith("/messages") || r.path.endsWith("/messages/count_tokens"))
        return anthropic(r, extra);
    return std::nullopt;
}

std::optional<Script> FakeSubscriptions::anthropic(const ReceivedRequest &r, Http::HttpHeaders *extra)
{
    // Anthropic's own answers to a subscription login in the wrong form.
    if (r.headers.value("x-api-key").startsWith("sk-ant-oat"))
        return anthropicError(401, "authentication_error", QStringLiteral("invalid x-api-key"));
    const QByteArray token = bearerOf(r);
    if (!token.startsWith("sk-ant-oat"))
        return std::nullopt; // an API key: not a subscription call
    if (!hasBeta(r, "oauth-2025-04-20"))
        return anthropicError(401, "authentication_error", QStringLiteral("OAuth authentication is currently not supported."));
    bool spent = false;
    const qint64 resetMs = resetOf(token, &spent);
    const qint64 nowMs = m_clock->nowMs();
    Http::HttpHeaders h;
    h.add("anthropic-ratelimit-unified-status", spent ? "rejected" : "allowed");
    h.add("anthropic-ratelimit-unified-5h-status", spent ? "rejected" : "allowed");
    h.add("anthropic-ratelimit-unified-5h-reset", QByteArray::number(resetMs / 1000));
    h.add("anthropic-ratelimit-unified-5h-utilization", spent ? "1.0" : QByteArray::number(m_used5h));
    h.add("anthropic-ratelimit-unified-7d-status", "allowed");
    h.add("anthropic-ratelimit-unified-7d-reset", QByteArray::number((nowMs + WeekMs / 2) / 1000));
    h.add("anthropic-ratelimit-unified-7d-utilization", QByteArray::number(m_used7d));
    h.add("anthropic-ratelimit-unified-representative-claim", "five_hour");
    h.add("anthropic-ratelimit-unified-reset", QByteArray::number(resetMs / 1000));
    if (!spent) {
        *extra = h;
        return std::nullopt;
    }
    Script s = anthropicError(429, "rate_limit_error", QStringLiteral("Error"));
    for (const auto &[name, value] : h.entries())
        s.headers.add(name, value);
    return s;
}

std::optional<Script> FakeSubscriptions::codex(const ReceivedRequest &r, Http::HttpHeaders *extra)
{
    const QByteArray account = r.headers.value("chatgpt-account-id");
    if (bearerOf(r).isEmpty())
        return openAiError(401, "invalid_request_error", QStringLiteral("Missing bearer authentication in header"));
    if (account.isEmpty())
        return openAiError(401, "invalid_request_error", QStringLiteral("Missing chatgpt-account-id header for a ChatGPT login"));
    bool spent = false;
    const qint64 resetMs = resetOf(account, &spent);
    const qint64 nowMs = m_clock->nowMs();
    Http::HttpHeaders h;
    h.add("x-codex-primary-used-percent", spent ? "100" : percent(m_used5h));
    h.add("x-codex-primary-window-minutes", "300");
    h.add("x-codex-primary-reset-after-seconds", QByteArray::number((resetMs - nowMs + 999) / 1000));
    h.add("x-codex-primary-reset-at", QByteArray::number(resetMs / 1000));
    h.add("x-codex-secondary-used-percent", percent(m_used7d));
    h.add("x-codex-secondary-window-minutes", "10080");
    h.add("x-codex-secondary-reset-after-seconds", QByteArray::number(WeekMs / 2000));
    h.add("x-codex-secondary-reset-at", QByteArray::number((nowMs + WeekMs / 2) / 1000));
    if (!spent) {
        *extra = h;
        return std::nullopt;
    }
    Script s = openAiError(429, "usage_limit_reached", QStringLiteral("The usage limit has been reached"),
                           QJsonObject{{QStringLiteral("resets_in_seconds"), (resetMs - nowMs + 999) / 1000}});
    for (const auto &[name, value] : h.entries())
        s.headers.add(name, value);
    return s;
}

std::optional<Script> FakeSubscriptions::control(const ReceivedRequest &r)
{
    const QUrlQuery q(QString::fromLatin1(r.query));
    const QByteArray account = q.queryItemValue(QStringLiteral("account")).toUtf8();
    Script s;
    s.headers.add("content-type", "application/json");
    if (r.path != "/__fake/exhaust" || account.isEmpty()) {
        s.status = 404;
        s.body = R"({"error":"POST /__fake/exhaust?account=<token or account id>&seconds=<n>"})";
        return s;
    }
    const qint64 seconds = q.queryItemValue(QStringLiteral("seconds")).toLongLong();
    exhaust(account, m_clock->nowMs() + seconds * 1000);
    s.body = R"({"ok":true})";
    return s;
}

} // namespace Aile::Test
