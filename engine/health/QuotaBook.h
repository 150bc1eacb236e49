#pragma once

#include "QuotaHeaders.h"

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <functional>
#include <optional>

namespace Aile::Health {

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
    void forget(const QString &handle)
    {
        m_book.remove(handle);
        m_held.remove(handle);
    }
    /// After a 429 whose headers say a subscription window covering the model is
    /// spent: holds the sharer out for that model until the reset the refusal gave, however old
    /// the snapshot grows (a refusal is the provider's word, not a guess). Returns the reset; 0
    /// when the refusal named no spent window with a reset ahead (the usual backoff then applies).
    qint64 holdRefused(const QString &handle, const QString &model, const Http::HttpHeaders &refusal, qint64 nowMs);
    /// Team mode: called with each spent window a refusal confirmed, to share it (SharedHealth).
    void setShare(std::function<void(const QString &handle, const QuotaWindow &window)> share) { m_share = std::move(share); }
    /// Another instance's confirmed spent window: held here too until its reset.
    void applyShared(const QString &handle, const QuotaWindow &window, qint64 nowMs);

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
    QHash<QString, QList<QuotaWindow>> m_held; // spent windows a 429 confirmed, until their reset
    std::function<void(const QString &, const QuotaWindow &)> m_share;
};

} // namespace Aile::Health
