#include "HealthWindow.h"

namespace Aile::Health {

void HealthWindow::record(const QString &handle, bool ok, qint64 latencyMs, qint64 nowMs)
{
    Sharer &s = m_sharers[handle];
    const qint64 minute = nowMs / BucketMs;
    Bucket &b = s.buckets[size_t(minute % Buckets)];
    if (b.minute != minute)
        b = Bucket{minute};
    ++b.attempts;
    if (ok) {
        ++s.served;
        if (latencyMs >= 0) {
            b.latencySumMs += latencyMs;
            ++b.latencies;
        }
    } else {
        ++b.failures;
    }
}

HealthWindow::Stats HealthWindow::stats(const QString &handle, qint64 nowMs) const
{
    Stats out;
    const auto it = m_sharers.constFind(handle);
    if (it == m_sharers.constEnd())
        return out;
    const qint64 minute = nowMs / BucketMs;
    qint64 latencySum = 0;
    int latencies = 0;
    for (const Bucket &b : it->buckets) {
        // A bucket belongs to the window when its minute is one of the last 30.
        if (b.minute < 0 || b.minute > minute || minute - b.minute >= Buckets)
            continue;
        out.attempts += b.attempts;
        out.failures += b.failures;
        latencySum += b.latencySumMs;
        latencies += b.latencies;
    }
    if (out.attempts > 0)
        out.successRate = double(out.attempts - out.failures) / out.attempts;
    if (latencies > 0)
        out.meanLatencyMs = double(latencySum) / latencies;
    out.served = it->served;
    out.published = it->served >= PublishAfter;
    return out;
}

QJsonObject HealthWindow::Stats::toJson() const
{
    if (!published)
        return QJsonObject{{QStringLiteral("published"), false},
                           {QStringLiteral("served"), served},
                           {QStringLiteral("note"), QStringLiteral("not enough data: published after %1 served requests").arg(PublishAfter)}};
    return QJsonObject{{QStringLiteral("published"), true},
                       {QStringLiteral("served"), served},
                       {QStringLiteral("attempts30m"), attempts},
                       {QStringLiteral("successRate30m"), successRate >= 0 ? QJsonValue(successRate) : QJsonValue(QJsonValue::Null)},
                       {QStringLiteral("latencyMs30m"), meanLatencyMs >= 0 ? QJsonValue(qRound64(meanLatencyMs)) : QJsonValue(QJsonValue::Null)}};
}

} // namespace Aile::Health
