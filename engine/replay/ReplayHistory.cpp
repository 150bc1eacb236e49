// What a replay reads of the past (docs/replay.md): the key's recorded requests and, from their
// attempt rows, when a sharer could not serve.
#include "ReplayHistory.h"

#include "store/ReplayRows.h"

#include <algorithm>

namespace Aile::Replay {

QList<Store::TraceRecord> loadHistory(const Store::Store &store, const QString &keyId, qint64 sinceMs, int limit, bool *truncated)
{
    // One more tells whether any were left out.
    QList<Store::TraceRecord> rows = Store::replayRows(store, keyId, sinceMs, limit + 1);
    if (truncated)
        *truncated = rows.size() > limit;
    if (rows.size() > limit)
        rows.resize(limit);
    std::reverse(rows.begin(), rows.end()); // the store answers newest first; a day's spend adds up oldest first
    return rows;
}

QString HealthTimeline::failureOf(const Store::AttemptRecord &a)
{
    if (!a.dispatched) {
        // Passed over before any dial: only the sharer's own state counts as its health.
        static const QStringList sharerStates{QStringLiteral("cooldown"), QStringLiteral("quota_exhausted"), QStringLiteral("dead_key"),
                                              QStringLiteral("no_credential")};
        return sharerStates.contains(a.skip) ? a.skip : QString();
    }
    if (a.outcome == QLatin1String("served") || a.outcome == QLatin1String("client_gone"))
        return {};
    if (a.status == 429)
        return QStringLiteral("rate_limited");
    if (a.status >= 500 || a.status == 401 || a.status == 403)
        return QStringLiteral("http_%1").arg(a.status);
    if (a.status == 0 && !a.outcome.isEmpty())
        return a.outcome; // no answer: timeout, connection refused, cut
    return {};
}

HealthTimeline::HealthTimeline(const QList<Store::TraceRecord> &history, qint64 holdMs)
{
    QHash<QString, QList<qint64>> servedAt;
    for (const Store::TraceRecord &t : history) {
        for (const Store::AttemptRecord &a : t.attemptRows) {
            if (a.sharer.isEmpty())
                continue;
            if (a.outcome == QLatin1String("served")) {
                servedAt[a.sharer].append(qMax(t.startedMs, a.startedMs));
                continue;
            }
            const QString why = failureOf(a);
            // From the request's own start: replayed at that moment, the request meets the state it met.
            if (!why.isEmpty())
                m_spans[a.sharer].append(Span{t.startedMs, t.startedMs + holdMs, why});
        }
    }
    for (auto it = m_spans.begin(); it != m_spans.end(); ++it) {
        QList<qint64> served = servedAt.value(it.key());
        std::sort(served.begin(), served.end());
        std::sort(it->begin(), it->end(), [](const Span &a, const Span &b) { return a.fromMs < b.fromMs; });
        for (Span &s : *it) {
            // The next served answer of the sharer ends what the record knows of its trouble.
            const auto next = std::upper_bound(served.begin(), served.end(), s.fromMs);
            if (next != served.end() && *next < s.untilMs)
                s.untilMs = *next;
        }
    }
}

QString HealthTimeline::downAt(const QString &handle, qint64 atMs) const
{
    const auto found = m_spans.constFind(handle);
    if (found == m_spans.constEnd())
        return {};
    const QList<Span> &spans = *found;
    // The latest span starting at or before atMs; spans are short, so the one before it is checked too.
    auto it = std::upper_bound(spans.begin(), spans.end(), atMs, [](qint64 at, const Span &s) { return at < s.fromMs; });
    for (int back = 0; back < 4 && it != spans.begin(); ++back) {
        --it;
        if (atMs < it->untilMs)
            return it->why;
    }
    return {};
}

int HealthTimeline::spans() const
{
    int n = 0;
    for (const QList<Span> &s : m_spans)
        n += int(s.size());
    return n;
}

} // namespace Aile::Replay
