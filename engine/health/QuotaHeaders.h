#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QString>

namespace Aile::Http {
class HttpHeaders;
}

namespace Aile::Health {

/// One rate or quota window a provider reported on a response.
struct QuotaWindow
{
    QString name;              // "5h", "7d", "7d_sonnet", "primary", "secondary", "requests", "tokens"
    double usedFraction = -1;  // 0..1; -1 unknown
    qint64 resetAtMs = 0;      // 0 unknown
    qint64 lengthMs = 0;       // the window's length when known (5 hours, 7 days, …)
    bool exhausted = false;    // the provider said so, or nothing is left
    bool subscription = false; // a plan's allowance (Anthropic unified, Codex), not an API rate limit
    QString coversModelsWith;  // empty: every model; else models whose id contains it ("sonnet")

    bool covers(const QString &model) const { return coversModelsWith.isEmpty() || model.contains(coversModelsWith); }
};

/// The windows one response's headers report (docs/subscriptions.md "Quota windows"):
/// - Anthropic's subscription windows, `anthropic-ratelimit-unified-<claim>-{utilization,reset,status}`
///   (claims 5h, 7d, 7d_sonnet, …), and the overall `-status` with `-representative-claim`;
/// - the Codex backend's `x-codex-{primary,secondary}-{used-percent,window-minutes,reset-at,
///   reset-after-seconds}`;
/// - API rate limits: `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` and Anthropic's
///   `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}`.
QList<QuotaWindow> readQuotaHeaders(const Http::HttpHeaders &headers, qint64 nowMs);

/// Of a subscription's windows, the reset that ends a refusal: the latest reset among the spent
/// windows covering the model (the windows bind together: a 5-hour window that reopens sooner
/// does not help while the week is spent). 0 when no spent window gives a reset ahead.
qint64 spentUntil(const QList<QuotaWindow> &windows, const QString &model, qint64 nowMs);

/// A reset as providers write it: epoch seconds, RFC 3339, or a duration ("6m0s", "1.5s", "20ms").
/// Returns the absolute time in ms, or 0 when unreadable.
qint64 parseResetMs(const QByteArray &value, qint64 nowMs);

} // namespace Aile::Health
