// The providers' rate-limit and quota response headers, read into windows (QuotaBook keeps them).
#include "QuotaHeaders.h"

#include "http/HttpHeaders.h"

#include <QtCore/QDateTime>
#include <QtCore/QMap>
#include <QtCore/QRegularExpression>

#include <algorithm>
#include <optional>

namespace Aile::Health {
namespace {

constexpr qint64 HourMs = 3600 * 1000;
constexpr qint64 DayMs = 24 * HourMs;

std::optional<double> number(const QByteArray &v)
{
    bool ok = false;
    const double d = v.trimmed().toDouble(&ok);
    return ok ? std::optional<double>(d) : std::nullopt;
}

/// "5h" → 5 hours, "7d" and "7d_sonnet" → 7 days; anything else unknown.
qint64 claimLength(const QString &claim)
{
    static const QRegularExpression re(QStringLiteral("^(\\d+)([hd])"));
    const auto m = re.match(claim);
    if (!m.hasMatch())
        return 0;
    return m.captured(1).toLongLong() * (m.captured(2) == QLatin1String("h") ? HourMs : DayMs);
}

/// Anthropic's subscription windows: anthropic-ratelimit-unified-<claim>-{utilization,reset,status}.
void readAnthropicUnified(const Http::HttpHeaders &h, qint64 now, QList<QuotaWindow> &out)
{
    static const QByteArray prefix("anthropic-ratelimit-unified-");
    QMap<QString, QuotaWindow> claims;
    for (const Http::HttpHeaders::Entry &e : h.entries()) {
        if (!e.first.startsWith(prefix))
            continue;
        const QByteArray rest = e.first.mid(prefix.size());
        for (const char *suffix : {"-utilization", "-reset", "-status"}) {
            if (!rest.endsWith(suffix))
                continue;
            const QString claim = QString::fromLatin1(rest.left(rest.size() - qsizetype(qstrlen(suffix))));
            if (claim.isEmpty() || claim.startsWith(QLatin1String("overage")) || !claim.at(0).isDigit())
                break;
            QuotaWindow &w = claims[claim];
            w.name = claim;
            w.subscription = true;
            w.lengthMs = claimLength(claim);
            if (const qsizetype us = claim.indexOf(QLatin1Char('_')); us > 0)
                w.coversModelsWith = claim.mid(us + 1);
            if (qstrcmp(suffix, "-utilization") == 0) {
                if (auto u = number(e.second))
                    w.usedFraction = qBound(0.0, *u, 1.0);
            } else if (qstrcmp(suffix, "-reset") == 0) {
                w.resetAtMs = parseResetMs(e.second, now);
            } else if (e.second.trimmed() == "rejected") {
                w.exhausted = true;
            }
            break;
        }
    }
    // The overall verdict names the binding window ("five_hour", "seven_day").
    if (h.value(prefix + "status").trimmed() == "rejected") {
        const QByteArray claim = h.value(prefix + "representative-claim").trimmed();
        const QString name = claim == "seven_day" ? QStringLiteral("7d") : claim == "five_hour" ? QStringLiteral("5h") : QString();
        if (!name.isEmpty()) {
            QuotaWindow &w = claims[name];
            w.name = name;
            w.subscription = true;
            w.lengthMs = claimLength(name);
            w.exhausted = true;
            if (w.resetAtMs == 0)
                w.resetAtMs = parseResetMs(h.value(prefix + "reset"), now);
        }
    }
    for (QuotaWindow &w : claims) {
        if (w.usedFraction >= 1.0)
            w.exhausted = true;
        out.append(w);
    }
}

/// The Codex (ChatGPT plan) windows: x-codex-{primary,secondary}-{used-percent,window-minutes,
/// reset-at,reset-after-seconds}. The absolute reset wins over the countdown.
void readCodex(const Http::HttpHeaders &h, qint64 now, QList<QuotaWindow> &out)
{
    for (const char *which : {"primary", "secondary"}) {
        const QByteArray p = QByteArray("x-codex-") + which + '-';
        const auto used = number(h.value(p + "used-percent"));
        const QByteArray resetAt = h.value(p + "reset-at");
        const auto resetAfter = number(h.value(p + "reset-after-seconds"));
        if (!used && resetAt.isEmpty() && !resetAfter)
            continue;
        QuotaWindow w;
        w.name = QString::fromLatin1(which);
        w.subscription = true;
        if (used)
            w.usedFraction = qBound(0.0, *used / 100.0, 1.0);
        w.exhausted = used && *used >= 100.0;
        if (!resetAt.isEmpty())
            w.resetAtMs = parseResetMs(resetAt, now);
        if (w.resetAtMs == 0 && resetAfter && *resetAfter >= 0)
            w.resetAtMs = now + qint64(*resetAfter * 1000);
        // Without a stated length, the plans' usual ones: 5 hours and a week.
        if (const auto minutes = number(h.value(p + "window-minutes")); minutes && *minutes > 0)
            w.lengthMs = qint64(*minutes * 60 * 1000);
        else
            w.lengthMs = qstrcmp(which, "primary") == 0 ? 5 * HourMs : 7 * DayMs;
        out.append(w);
    }
}

/// API rate limits: x-ratelimit-{limit,remaining,reset}-{requests,tokens} and Anthropic's
/// anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}.
void readRateLimits(const Http::HttpHeaders &h, qint64 now, QList<QuotaWindow> &out)
{
    auto add = [&](const QString &name, const QByteArray &limit, const QByteArray &remaining, const QByteArray &reset) {
        const auto l = number(limit), r = number(remaining);
        if (!l || !r || *l <= 0)
            return;
        QuotaWindow w;
        w.name = name;
        w.usedFraction = qBound(0.0, 1.0 - *r / *l, 1.0);
        w.exhausted = *r <= 0;
        w.resetAtMs = parseResetMs(reset, now);
        out.append(w);
    };
    for (const char *what : {"requests", "tokens"})
        add(QString::fromLatin1(what), h.value(QByteArray("x-ratelimit-limit-") + what), h.value(QByteArray("x-ratelimit-remaining-") + what),
            h.value(QByteArray("x-ratelimit-reset-") + what));
    for (const char *what : {"requests", "tokens", "input-tokens", "output-tokens"}) {
        const QByteArray p = QByteArray("anthropic-ratelimit-") + what + '-';
        add(QString::fromLatin1(what), h.value(p + "limit"), h.value(p + "remaining"), h.value(p + "reset"));
    }
}

} // namespace

QList<QuotaWindow> readQuotaHeaders(const Http::HttpHeaders &headers, qint64 nowMs)
{
    QList<QuotaWindow> windows;
    // Every answer passes here: one look at the names first, and nothing more for an answer that
    // carries no rate-limit or quota header (the readers below ask for some twenty names each).
    const bool any = std::any_of(headers.entries().begin(), headers.entries().end(), [](const Http::HttpHeaders::Entry &e) {
        return e.first.startsWith("x-ratelimit-") || e.first.startsWith("anthropic-ratelimit-") || e.first.startsWith("x-codex-");
    });
    if (!any)
        return windows;
    readAnthropicUnified(headers, nowMs, windows);
    readCodex(headers, nowMs, windows);
    readRateLimits(headers, nowMs, windows);
    return windows;
}

qint64 spentUntil(const QList<QuotaWindow> &windows, const QString &model, qint64 nowMs)
{
    qint64 until = 0;
    for (const QuotaWindow &w : windows)
        if (w.subscription && w.exhausted && w.covers(model) && w.resetAtMs > nowMs)
            until = qMax(until, w.resetAtMs);
    return until;
}

qint64 parseResetMs(const QByteArray &raw, qint64 now)
{
    const QByteArray v = raw.trimmed();
    if (v.isEmpty())
        return 0;
    if (const auto n = number(v)) {
        if (*n > 1e12)
            return qint64(*n); // epoch milliseconds
        if (*n > 1e9)
            return qint64(*n * 1000);                 // epoch seconds
        return *n >= 0 ? now + qint64(*n * 1000) : 0; // seconds from now
    }
    // A Go-style duration, as OpenAI writes it: "6m0s", "1.5s", "20ms", "1h2m".
    static const QRegularExpression duration(QStringLiteral("^(?:(\\d+(?:\\.\\d+)?)(ms|h|m|s))+$"));
    const QString text = QString::fromLatin1(v);
    if (duration.match(text).hasMatch()) {
        static const QRegularExpression part(QStringLiteral("(\\d+(?:\\.\\d+)?)(ms|h|m|s)"));
        double ms = 0;
        for (auto it = part.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            const double x = m.captured(1).toDouble();
            const QString unit = m.captured(2);
            ms += unit == QLatin1String("h") ? x * HourMs : unit == QLatin1String("m") ? x * 60000 : unit == QLatin1String("s") ? x * 1000 : x;
        }
        return now + qint64(ms);
    }
    const QDateTime at = QDateTime::fromString(text, Qt::ISODateWithMs);
    return at.isValid() ? at.toMSecsSinceEpoch() : 0;
}

} // namespace Aile::Health
