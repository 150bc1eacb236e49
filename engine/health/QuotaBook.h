#pragma once

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace Aile::Http {
class HttpHeaders;
}

namespace Aile::Health {

/// One rate or quota window a provider reported on a response.
struct QuotaWindow
{
    QString name;               // "5h", "7d", "7d_sonnet", "primary", "secondary", "requests", "tokens"
    double usedFraction = -1;   // 0..1; -1 unknown
    qint64 resetAtMs = 0;       // 0 unknown
    qint64 lengthMs = 0;        // the window's length when known (5 hours, 7 days, …)
    bool exhausted = false;     // the provider said so, or nothing is left
    bool subscription = false;  // a plan's allowance (Anthropic unified, Codex), not an API rate limit
    QString coversModelsWith;   // empty: every model; else models whose id contains it ("sonnet")

    bool covers(const QString &model) const { return coversModelsWith.isEmpty() || model.contains(coversModelsWith); }
};

/// What one sharer's latest response said of its windows, and when.
struct QuotaSnapshot
{
    qint64 observedMs = 0;
    QList<QuotaWindow> windows;
};

/// Quota windows per sharer, read from the providers' own rate-limit response headers:
/// Anthropic's unified 5-hour and weekly utilisation and reset headers, the Codex primary and
/// secondary used-percent and reset headers, and the standard x-ratelimit-* (and Anthropic API
/// key anthropic-ratelimit-*) headers. Nothing is ever fetched: the request path never waits for
/// a quota read. In memory only.
class QuotaBook
{
public:
    /// A snapshot older than this never removes anyone (docs/rules/tiers-quota-health.md).
    static constexpr qint64 FreshMs = 10 * 60 * 1000;

    /// Reads a response's headers; a response without any quota header changes nothing.
    void observe(const QString &handle, const Http::HttpHeaders &headers, qint64 nowMs);
    const QuotaSnapshot *snapshot(const QString &handle) const;
    void forget(const QString &handle) { m_book.remove(handle); }

    /// When a fresh snapshot shows a subscription window covering the model exhausted with a
    /// known reset still ahead: that reset. Unknown, stale or failed quota: 0 (never removes).
    qint64 exhaustedUntil(const QString &handle, const QString &model, qint64 nowMs) const;
    /// For router.selection = "quota-reset": the reset of the longest fresh subscription window
    /// covering the model (a weekly window rather than a 5-hour one); unset without fresh data.
    std::optional<qint64> allowanceResetMs(const QString &handle, const QString &model, qint64 nowMs) const;
    /// The share of the tightest fresh API rate window left, 0..1; -1 when unknown.
    double headroom(const QString &handle, qint64 nowMs) const;

    /// The windows for the listing and the GUI (name, used, reset, exhausted, fresh).
    QJsonArray toJson(const QString &handle, qint64 nowMs) const;

private:
    QHash<QString, QuotaSnapshot> m_book;
};

/// A reset as providers write it: epoch seconds, RFC 3339, or a duration ("6m0s", "1.5s", "20ms").
/// Returns the absolute time in ms, or 0 when unreadable.
qint64 parseResetMs(const QByteArray &value, qint64 nowMs);

} // namespace Aile::Health
