#pragma once

#include "HealthWindow.h"

#include <QtCore/QHash>
#include <QtCore/QRandomGenerator>
#include <QtCore/QSet>
#include <QtCore/QString>

#include <functional>

namespace Aile {
class Clock;
}

namespace Aile::Health {

/// Why an attempt failed, as far as the sharer's standing goes.
enum class Failure {
    RateLimited,  // 429, 529
    ServerError,  // other 5xx
    Connection,   // refused, reset, TLS, closed before a head
    Timeout,      // no head within the sharer's own (unshortened) budget
    CutStream,    // a stream that ended cleanly before the provider's end event
    ModelNoQuota, // Google's "limit: 0": this model only, on this account
    AuthRefused,  // 401/403 from the provider: a dead key
};

/// One sharer's standing, in memory only: a restart reads every sharer as neutral.
struct SharerHealth
{
    qint64 cooldownUntilMs = 0;
    QString cooldownReason;
    int ladderStep = 0;                   // consecutive failures that benched it
    qint64 benchedForMs = 0;              // the length of its last cooldown
    QHash<QString, qint64> modelOffUntil; // model → until (limit: 0)
    bool deadKey = false;
    bool deadByProbeOnly = false;
    int probe = 0; // 1 answered, -1 refused or failed, 0 unknown
    qint64 probeAtMs = 0;
    double ttfbMs = 0; // moving average of time to first byte
    int ttfbSamples = 0;
    double successRate = 1.0; // moving average of outcomes
    int outcomes = 0;
    double headroom = -1;  // share of the rate window left, 0..1; -1 unknown
    double throughput = 0; // moving average of output tokens per second
    int throughputSamples = 0;
    int inFlight = 0;
};

/// A verdict about an account that every instance on a shared store honours (team mode,
/// docs/team.md "Shared health"): a cooldown, a model taken off it, a dead key, or its return.
struct SharedVerdict
{
    enum class Kind { Cooldown, ModelOff, DeadKey, Back };
    Kind kind = Kind::Cooldown;
    QString handle;
    QString model;      // ModelOff only
    qint64 untilMs = 0; // Cooldown and ModelOff
    QString reason;
};

/// Health signals per sharer: the cooldown veto, the backoff ladder, dead keys, probe results,
/// capacity headroom, time to first byte and success rate. Feeds the tie draw.
class HealthBook
{
public:
    explicit HealthBook(Clock *clock);

    /// The backoff ladder: how long a sharer is benched after its n-th consecutive failure.
    static constexpr qint64 Ladder[] = {5'000, 15'000, 60'000, 300'000, 900'000, 3'600'000};
    static constexpr qint64 MaxRetryAfterMs = 24LL * 3600 * 1000;
    static constexpr qint64 CutStreamCooldownMs = 10 * 60 * 1000;

    const SharerHealth &of(const QString &handle) const;
    SharerHealth &mutableOf(const QString &handle) { return m_health[handle]; }

    /// Until when the sharer (or this model on it) may not be dialled; 0 when it may.
    qint64 coolingUntil(const QString &handle, const QString &model) const { return coolingUntil(of(handle), model); }
    /// The same for a standing already looked up (of()): a plan reads several of its signals.
    qint64 coolingUntil(const SharerHealth &h, const QString &model) const;

    /// A served request: clears the ladder and a dead key, feeds the averages.
    void recordSuccess(const QString &handle, qint64 ttfbMs);
    /// A failure of the sharer's own. retryAfterMs < 0 when the provider said nothing.
    /// Returns when the cooldown ends (0 if none).
    qint64 recordFailure(const QString &handle, const QString &model, Failure failure, qint64 retryAfterMs = -1);
    /// A timeout caused by the engine's own shortened budget: slowness is noted, nobody is benched.
    void recordBudgetCut(const QString &handle, qint64 elapsedMs);
    void recordProbe(const QString &handle, bool answered, bool credentialRefused);
    /// A passing model test or a re-link restores a dead key.
    void restore(const QString &handle);
    /// The user's "try it again now": ends the sharer's cooldown and restarts its backoff ladder.
    /// Returns why it was cooling (empty when it was not).
    QString clearCooldown(const QString &handle);
    void setHeadroom(const QString &handle, double headroom);
    /// Output tokens per second of a served answer (provider.sort = throughput).
    void recordThroughput(const QString &handle, double tokensPerSecond);
    /// Consecutive failures that trip the breaker: once its cooldown ends, the sharer is half-open.
    static constexpr int BreakerTrips = 3;
    /// A tripped breaker that let a sharer back after its cooldown, with no success since: on
    /// probation for as long again as it was benched (Degraded: after Available sharers).
    bool halfOpen(const QString &handle) const { return halfOpen(of(handle)); }
    bool halfOpen(const SharerHealth &h) const;
    /// Every attempt's outcome over the last 30 minutes (docs/rules/tiers-quota-health.md "Published health").
    const HealthWindow &window() const { return m_window; }

    /// The health factor in the tie draw, in (0, 1]; neutral (1) for a sharer with no history.
    double weight(const QString &handle) const { return weight(of(handle)); }
    static double weight(const SharerHealth &h);

    void setJitterSource(QRandomGenerator *rng) { m_rng = rng; }
    /// Team mode: called with each verdict this instance learns, to share it (SharedHealth).
    void setShare(std::function<void(const SharedVerdict &)> share) { m_share = std::move(share); }
    /// Another instance's verdict: honoured here as if learnt here (never shared back).
    void applyShared(const SharedVerdict &verdict);
    void reset()
    {
        m_health.clear();
        m_window.reset();
    }

private:
    void addOutcome(SharerHealth &h, bool ok);

    void share(SharedVerdict::Kind kind, const QString &handle, const QString &model, qint64 untilMs, const QString &reason);

    Clock *m_clock;
    QRandomGenerator *m_rng = nullptr;
    std::function<void(const SharedVerdict &)> m_share;
    QHash<QString, SharerHealth> m_health;
    HealthWindow m_window;
};

/// Reads a Retry-After value: delta-seconds or an HTTP date. -1 when absent or unreadable.
qint64 parseRetryAfterMs(const QByteArray &value, qint64 nowMs);

} // namespace Aile::Health
