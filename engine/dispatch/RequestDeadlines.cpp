// The clocks of one proxied request: the hold that keeps a slow stream's client warm, the
// first-byte budget, a route's first-token limit, the silence between events, and the short wait
// for a busy account that holds the conversation. What a clock running out means is the owner's
// (ProxyRequest, through DeadlineOwner).
#include "RequestDeadlines.h"

#include "Attempt.h"

#include "core/EngineSettings.h"
#include "routing/Affinity.h"

namespace Aile::Dispatch {

RequestDeadlines::RequestDeadlines(DeadlineOwner &owner, Clock &clock, const EngineSettings &settings, QObject *context, bool clientStream,
                                   bool phaseLimits)
    : m_owner(owner), m_clock(clock), m_settings(settings), m_context(context), m_clientStream(clientStream), m_phaseLimits(phaseLimits)
{ }

void RequestDeadlines::startHold()
{
    if (m_clientStream && m_settings.holdAfterMs > 0)
        m_hold.start(&m_clock, m_settings.holdAfterMs, m_context, [this] { handleHold(); });
}

void RequestDeadlines::handleHold()
{
    if (m_firstToken.isActive()) {
        // A target under a route's first-token limit: nothing reaches the client while it waits.
        m_hold.start(&m_clock, 1000, m_context, [this] { handleHold(); });
        return;
    }
    if (m_owner.holdDue())
        startKeepalives();
}

void RequestDeadlines::startKeepalives()
{
    if (!m_owner.keepaliveDue())
        return;
    m_keepalive.start(&m_clock, m_settings.holdKeepaliveMs, m_context, [this] { startKeepalives(); });
}

void RequestDeadlines::stopRequestClocks()
{
    m_hold.stop();
    m_keepalive.stop();
    m_firstToken.stop();
}

RequestDeadlines::FirstByteBudget RequestDeadlines::firstByteBudget(int dials, qint64 startedMs) const
{
    FirstByteBudget b;
    b.ms = m_settings.firstByteBudgetMs;
    if (dials > 0) {
        // The first attempt is never shortened; later ones get what is left of the budget.
        b.ms = m_settings.firstByteBudgetMs - (m_clock.nowMs() - startedMs);
        if (b.ms <= 0) {
            b.spent = true;
            return b;
        }
        b.budgetCut = true;
    }
    // The phase limits (docs/keys.md `phaseLimits`), a key setting: 30 s to the first byte of a
    // stream, 180 s for an answer that is not streamed.
    if (m_phaseLimits) {
        const qint64 phase = m_clientStream ? PhaseFirstByteMs : PhaseWholeAnswerMs;
        if (b.ms > phase) {
            b.ms = phase;
            b.phaseCut = true;
        }
    }
    return b;
}

void RequestDeadlines::armFirstByte(Attempt &attempt, qint64 budgetMs)
{
    attempt.firstByteDeadline.start(&m_clock, budgetMs, m_context, [this] { m_owner.firstByteTimedOut(); });
}

void RequestDeadlines::armIdle(Attempt &attempt)
{
    attempt.idleDeadline.start(&m_clock, idleLimitMs(&attempt), m_context, [this, a = &attempt] { handleIdle(a); });
}

void RequestDeadlines::handleIdle(Attempt *a)
{
    if (!a->call)
        return; // armed from the response head on, committed or not
    const qint64 idle = m_clock.nowMs() - a->lastActivityMs;
    if (idle < idleLimitMs(a)) {
        a->idleDeadline.start(&m_clock, idleLimitMs(a) - idle, m_context, [this, a] { handleIdle(a); });
        return;
    }
    m_owner.idleLimitHit(idleLimitMs(a));
}

qint64 RequestDeadlines::idleLimitMs(const Attempt *attempt) const
{
    // Phase limits: 60 s of silence between two events of a stream.
    return m_phaseLimits && attempt && attempt->sse ? qMin(m_settings.idleTimeoutMs, PhaseBetweenEventsMs) : m_settings.idleTimeoutMs;
}

void RequestDeadlines::enterTarget(int target, bool applies, qint64 ttftMs)
{
    if (m_firstTokenTarget == target)
        return;
    // A route's first-token limit runs per target, across every sharer tried for it.
    m_firstToken.stop();
    m_firstTokenTarget = target;
    if (applies)
        m_firstToken.start(&m_clock, ttftMs, m_context, [this] { m_owner.firstTokenLimitHit(); });
}

bool RequestDeadlines::waitFor(Routing::PinBook &pins, const QString &handle, qint64 waitMs)
{
    if (m_waitedFor == handle || waitMs <= 0)
        return false;
    m_waitedFor = handle;
    m_waitingFor = handle;
    auto resume = [this, pins = &pins] {
        if (m_waitingFor.isEmpty())
            return; // already woken (the slot freed and the deadline both fire)
        stopWaiting(pins);
        m_owner.waitOver();
    };
    pins.wait(handle, m_context, resume);
    m_wait.start(&m_clock, waitMs, m_context, resume);
    return true;
}

void RequestDeadlines::stopWaiting(Routing::PinBook *pins)
{
    m_wait.stop();
    if (!m_waitingFor.isEmpty() && pins)
        pins->stopWaiting(m_waitingFor, m_context);
    m_waitingFor.clear();
}

} // namespace Aile::Dispatch
