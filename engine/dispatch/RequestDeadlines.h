#pragma once

#include "core/Clock.h"

#include <QtCore/QString>

class QObject;

namespace Aile {
struct EngineSettings;
namespace Catalog {
struct Sharer;
}
namespace Routing {
class PinBook;
}

namespace Dispatch {

class Attempt;

/// What the request does when one of its clocks runs out (ProxyRequest implements it).
class DeadlineOwner
{
public:
    /// No head within the edge-hold delay: the client gets its 200 now (false: not holding after all).
    virtual bool holdDue() = 0;
    /// The held stream is still waiting: one keepalive comment (false: it no longer holds).
    virtual bool keepaliveDue() = 0;
    /// The current attempt had no response head within its first-byte budget.
    virtual void firstByteTimedOut() = 0;
    /// A route's first-token limit ran out for the current target.
    virtual void firstTokenLimitHit() = 0;
    /// The current attempt's upstream was silent for limitMs.
    virtual void idleLimitHit(qint64 limitMs) = 0;
    /// The wait for a busy pinned account is over (its slot freed, or the wait ran out).
    virtual void waitOver() = 0;

protected:
    ~DeadlineOwner() = default;
};

/// The clocks of one proxied request, and the arithmetic of its limits: the edge hold that keeps
/// a slow stream's client warm and its keepalives, each attempt's first-byte budget and idle
/// silence, a route's first-token limit (per target, across every sharer tried for it), and the
/// short wait for a busy account that holds the conversation. It decides when; the owner decides
/// what happens (docs/hardening.md "Upstreams", docs/keys.md `phaseLimits`).
class RequestDeadlines
{
public:
    static constexpr qint64 PhaseFirstByteMs = 30'000; // phase limits, a key setting (docs/keys.md `phaseLimits`)
    static constexpr qint64 PhaseBetweenEventsMs = 60'000;
    static constexpr qint64 PhaseWholeAnswerMs = 180'000;

    /// context: the object whose destruction cancels every pending clock (the request).
    RequestDeadlines(DeadlineOwner &owner, Clock &clock, const EngineSettings &settings, QObject *context, bool clientStream, bool phaseLimits);

    bool phaseLimits() const { return m_phaseLimits; }

    /// The edge hold (a streamed request only): holdDue() after settings.holdAfterMs.
    void startHold();
    /// The held 200 went out: keepalives every settings.holdKeepaliveMs while it waits.
    void startKeepalives();
    /// Stops the request-wide clocks (hold, keepalive, first token), as a committed answer does.
    void stopRequestClocks();

    /// The first-byte budget of a dial: the setting for the first dial; for a later one what is left
    /// of it since startedMs (spent when nothing is); a phase limit may shorten either.
    struct FirstByteBudget
    {
        qint64 ms = 0;
        bool spent = false;     // nothing left: no further dial
        bool budgetCut = false; // a later dial, on what was left of the budget
        bool phaseCut = false;  // the key's phase limit is the shorter bound
    };
    FirstByteBudget firstByteBudget(int dials, qint64 startedMs) const;
    /// Arms the attempt's first-byte deadline (connect + TLS has its own bound inside the client).
    void armFirstByte(Attempt &attempt, qint64 budgetMs);
    /// From the response head on, the attempt's silence is bounded by the idle limit.
    void armIdle(Attempt &attempt);
    /// The silence allowed between two reads: the idle timeout, or the phase limit between a stream's events.
    qint64 idleLimitMs(const Attempt *attempt) const;

    /// A route's first-token limit for target (started once per target; applies: it binds this one).
    void enterTarget(int target, bool applies, qint64 ttftMs);
    bool firstTokenActive() const { return m_firstToken.isActive(); }
    void stopFirstToken() { m_firstToken.stop(); }

    /// Waits up to waitMs for the busy account handle (once per account): waitOver() when its slot
    /// frees or the time runs out. False when it was already waited for.
    bool waitFor(Routing::PinBook &pins, const QString &handle, qint64 waitMs);
    bool waitedFor(const QString &handle) const { return m_waitedFor == handle; }
    void stopWaiting(Routing::PinBook *pins);

private:
    void handleHold();
    void handleIdle(Attempt *attempt);

    DeadlineOwner &m_owner;
    Clock &m_clock;
    const EngineSettings &m_settings;
    QObject *m_context;
    bool m_clientStream;
    bool m_phaseLimits;
    Deadline m_hold;
    Deadline m_keepalive;
    Deadline m_firstToken;       // a route's ttftMs, across every sharer tried for one target
    int m_firstTokenTarget = -1; // the target that deadline runs for
    Deadline m_wait;
    QString m_waitingFor; // the busy account this request waits for
    QString m_waitedFor;  // the account it already waited for once
};

} // namespace Dispatch
} // namespace Aile
