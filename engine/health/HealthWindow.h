#pragma once

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QString>

#include <array>

namespace Aile::Health {

/// The measured state of each sharer over a sliding 30-minute window (docs/rules/tiers-quota-health.md "Published health"):
/// every attempt feeds it, and its success rate and latency are published once the sharer has
/// served 100 requests ("not enough data" before). A client that disconnects is not counted
/// against the sharer: the caller does not record it. Minute buckets, so memory is fixed per sharer.
class HealthWindow
{
public:
    static constexpr qint64 WindowMs = 30 * 60 * 1000;
    static constexpr qint64 BucketMs = 60 * 1000;
    static constexpr int Buckets = int(WindowMs / BucketMs);
    static constexpr qint64 PublishAfter = 100;

    struct Stats
    {
        int attempts = 0; // in the window
        int failures = 0;
        double successRate = -1;   // -1 without attempts in the window
        double meanLatencyMs = -1; // time to first byte of the successes, -1 without any
        qint64 served = 0;         // successes since start (memory only)
        bool published = false;    // served >= 100
        QJsonObject toJson() const;
    };

    /// One attempt's outcome; latencyMs is the time to first byte of a success (ignored otherwise).
    void record(const QString &handle, bool ok, qint64 latencyMs, qint64 nowMs);
    Stats stats(const QString &handle, qint64 nowMs) const;
    void reset() { m_sharers.clear(); }

private:
    struct Bucket
    {
        qint64 minute = -1;
        int attempts = 0;
        int failures = 0;
        qint64 latencySumMs = 0;
        int latencies = 0;
    };
    struct Sharer
    {
        std::array<Bucket, Buckets> buckets;
        qint64 served = 0;
    };
    QHash<QString, Sharer> m_sharers;
};

} // namespace Aile::Health
