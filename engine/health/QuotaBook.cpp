#include "QuotaBook.h"

#include "http/HttpHeaders.h"

#include <QtCore/QDateTime>
#include <QtCore/QJsonObject>
#include <QtCore/QLoggingCategory>

Q_LOGGING_CATEGORY(lcQuota, "aile.health", QtWarningMsg) // HealthBook's category: on once a log is set up

namespace Aile::Health {
namespace {

QString isoTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODate);
}

bool fresh(const QuotaSnapshot &s, qint64 now)
{
    return now - s.observedMs < QuotaBook::FreshMs;
}

} // namespace

void QuotaBook::observe(const QString &handle, const Http::HttpHeaders &headers, qint64 nowMs)
{
    QuotaSnapshot s;
    s.observedMs = nowMs;
    s.windows = readQuotaHeaders(headers, nowMs);
    if (s.windows.isEmpty())
        return;
    // A subscription window running out, or coming back, is a change of the sharer's standing.
    auto exhausted = [](const QuotaSnapshot &q) {
        qint64 until = 0;
        for (const QuotaWindow &w : q.windows)
            if (w.subscription && w.exhausted)
                until = qMax(until, qMax<qint64>(1, w.resetAtMs)); // 1: exhausted, reset unknown
        return until;
    };
    const QuotaSnapshot *before = snapshot(handle);
    const qint64 was = before ? exhausted(*before) : 0;
    const qint64 now = exhausted(s);
    if (now && !was)
        qCInfo(lcQuota).noquote() << QStringLiteral("sharer=%1 state=quota_window_exhausted until=%2")
                                         .arg(handle, now > 1 ? QDateTime::fromMSecsSinceEpoch(now, Qt::UTC).toString(Qt::ISODate)
                                                              : QStringLiteral("unknown"));
    else if (!now && was)
        qCInfo(lcQuota).noquote() << QStringLiteral("sharer=%1 state=back was=quota_window_exhausted").arg(handle);
    m_book.insert(handle, s);
}

const QuotaSnapshot *QuotaBook::snapshot(const QString &handle) const
{
    const auto it = m_book.constFind(handle);
    return it == m_book.constEnd() ? nullptr : &it.value();
}

qint64 QuotaBook::exhaustedUntil(const QString &handle, const QString &model, qint64 nowMs) const
{
    const QuotaSnapshot *s = snapshot(handle);
    const qint64 seen = s && fresh(*s, nowMs) ? spentUntil(s->windows, model, nowMs) : 0;
    return qMax(seen, spentUntil(m_held.value(handle), model, nowMs));
}

qint64 QuotaBook::holdRefused(const QString &handle, const QString &model, const Http::HttpHeaders &refusal, qint64 nowMs)
{
    const QList<QuotaWindow> windows = readQuotaHeaders(refusal, nowMs);
    const qint64 until = spentUntil(windows, model, nowMs);
    if (until <= 0)
        return 0;
    QList<QuotaWindow> &held = m_held[handle];
    held.removeIf([nowMs](const QuotaWindow &w) { return w.resetAtMs <= nowMs; });
    for (const QuotaWindow &w : windows)
        if (w.subscription && w.exhausted && w.covers(model) && w.resetAtMs > nowMs) {
            held.append(w);
            if (m_share)
                m_share(handle, w);
        }
    return until;
}

void QuotaBook::applyShared(const QString &handle, const QuotaWindow &window, qint64 nowMs)
{
    if (window.resetAtMs <= nowMs)
        return;
    QList<QuotaWindow> &held = m_held[handle];
    held.removeIf([&](const QuotaWindow &w) { return w.resetAtMs <= nowMs || (w.name == window.name && w.resetAtMs <= window.resetAtMs); });
    held.append(window);
}

std::optional<qint64> QuotaBook::allowanceResetMs(const QString &handle, const QString &model, qint64 nowMs) const
{
    const QuotaSnapshot *s = snapshot(handle);
    if (!s || !fresh(*s, nowMs))
        return std::nullopt;
    const QuotaWindow *longest = nullptr;
    for (const QuotaWindow &w : s->windows)
        if (w.subscription && w.covers(model) && w.resetAtMs > 0
            && (!longest || w.lengthMs > longest->lengthMs || (w.lengthMs == longest->lengthMs && w.resetAtMs > longest->resetAtMs)))
            longest = &w;
    return longest ? std::optional<qint64>(longest->resetAtMs) : std::nullopt;
}

double QuotaBook::headroom(const QString &handle, qint64 nowMs) const
{
    const QuotaSnapshot *s = snapshot(handle);
    if (!s || !fresh(*s, nowMs))
        return -1;
    double left = -1;
    for (const QuotaWindow &w : s->windows)
        if (!w.subscription && w.usedFraction >= 0)
            left = left < 0 ? 1.0 - w.usedFraction : qMin(left, 1.0 - w.usedFraction);
    return left;
}

QJsonArray QuotaBook::toJson(const QString &handle, qint64 nowMs) const
{
    QJsonArray out;
    const QuotaSnapshot *s = snapshot(handle);
    if (!s)
        return out;
    for (const QuotaWindow &w : s->windows) {
        QJsonObject o{{QStringLiteral("name"), w.name},
                      {QStringLiteral("kind"), w.subscription ? QStringLiteral("subscription") : QStringLiteral("rate")},
                      {QStringLiteral("used"), w.usedFraction >= 0 ? QJsonValue(w.usedFraction) : QJsonValue(QJsonValue::Null)},
                      {QStringLiteral("exhausted"), w.exhausted},
                      {QStringLiteral("fresh"), fresh(*s, nowMs)},
                      {QStringLiteral("observedAt"), isoTime(s->observedMs)}};
        if (w.resetAtMs > 0)
            o.insert(QStringLiteral("resetsAt"), isoTime(w.resetAtMs));
        if (w.lengthMs > 0)
            o.insert(QStringLiteral("lengthSeconds"), w.lengthMs / 1000);
        if (!w.coversModelsWith.isEmpty())
            o.insert(QStringLiteral("models"), QStringLiteral("*%1*").arg(w.coversModelsWith));
        out.append(o);
    }
    return out;
}

} // namespace Aile::Health
