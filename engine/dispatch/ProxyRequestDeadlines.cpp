// The clocks of one proxied request (ProxyRequest.cpp has the rest): the hold that keeps a slow
// stream's client warm, the first-byte budget, a route's first-token limit, the silence between
// events, and the short wait for a busy account that holds the conversation.
#include "ProxyRequest.h"

#include "billing/SpendBook.h"
#include "catalog/Catalog.h"
#include "core/EngineSettings.h"
#include "health/FailingSharers.h"
#include "health/QuotaBook.h"
#include "http/HttpExchange.h"
#include "routing/Affinity.h"

namespace Aile::Dispatch {

void ProxyRequest::handleHold()
{
    if (m_state != State::Dialling || !m_exchange)
        return;
    if (m_firstTokenDeadline.isActive()) {
        // A target under a route's first-token limit: nothing reaches the client while it waits.
        m_holdDeadline.start(&m_s.clock, 1000, this, [this] { handleHold(); });
        return;
    }
    // No head after the hold delay: commit to 200 and keep the line warm until the answer exists.
    // The per-attempt headers are not known yet; the provider and model are when failover cannot
    // change them.
    moveTo(State::Holding);
    Http::HttpHeaders h;
    h.add("content-type", "text/event-stream");
    h.add("cache-control", "no-cache");
    h.add("x-aile-request-id", m_trace.id.toLatin1());
    h.add("x-aile-edge-hold", QByteArray::number(m_s.settings.holdAfterMs / 1000) + "s");
    if (!m_plan.anyProvider && m_plan.targets.size() == 1)
        h.add("x-aile-model", m_plan.targets.first().label().toUtf8());
    h.add("x-aile-session-affinity", m_trace.affinity.toLatin1());
    m_exchange->startStream(200, h);
    sendKeepalive();
}

void ProxyRequest::sendKeepalive()
{
    if (m_state != State::Holding || !m_exchange)
        return;
    m_exchange->writeChunk(": keepalive\n\n");
    m_keepaliveDeadline.start(&m_s.clock, m_s.settings.holdKeepaliveMs, this, [this] { sendKeepalive(); });
}

void ProxyRequest::handleFirstByteTimeout()
{
    Attempt *a = m_attempt;
    if (!a || a->committed() || !a->call)
        return;
    a->call->abort();
    a->row.durationMs = m_s.clock.nowMs() - a->startedMs();
    const QString reason = QStringLiteral("no response head within %1 ms").arg(a->row.durationMs);
    // Under phase limits any attempt that times out before its first byte counts as past a limit:
    // when it is the last, the answer is 524 (the request's first-byte budget may bind first).
    a->phaseTimedOut = m_phaseLimits;
    const Health::FailureClass verdict = Health::classifyFirstByteTimeout(a->phaseCut, a->budgetCut);
    // The key's own phase limit, or our own shortened budget, cut it: the next sharer is tried and
    // its slowness is noted; it is not benched for it.
    if (!verdict.failure && m_s.health)
        m_s.health->recordBudgetCut(a->candidate().handle, a->row.durationMs);
    failOver(verdict, a->phaseCut ? QStringLiteral("%1 (this key's phase limit)").arg(reason) : reason);
}

bool ProxyRequest::firstTokenLimitApplies() const
{
    if (m_plan.ttftMs <= 0 || !m_clientStream || m_pos.target >= m_plan.targets.size())
        return false;
    const Catalog::ProviderInfo *provider = m_s.catalog.provider(target().provider);
    if (provider && provider->selfHosted)
        return false;
    // The last target tried is never cut: none with a sharer after it, or no attempt left after this one.
    if (m_dials + 1 >= dialLimit())
        return false;
    for (qsizetype t = m_pos.target + 1; t < m_plan.targets.size(); ++t)
        if (!m_plan.targets.at(t).candidates.isEmpty())
            return true;
    return false;
}

void ProxyRequest::handleFirstTokenLimit()
{
    if (m_state != State::Dialling && m_state != State::Holding)
        return;
    const QString reason = QStringLiteral("no output within route %1's first-token limit of %2 ms; not charged, the sharer not marked down")
                               .arg(m_plan.route).arg(m_plan.ttftMs);
    if (Attempt *a = m_attempt; a && a->call) {
        a->firstByteDeadline.stop();
        a->dropCall(this, true);
        releaseSlot();
        a->row.durationMs = m_s.clock.nowMs() - a->startedMs();
        m_affinity.failed(a->candidate().handle);   // a dropped attempt never pins, and the pin leaves it
        m_lastFailure = QStringLiteral("%1 (ttft_dropped): %2").arg(a->candidate().name, reason);
        endAttempt(QStringLiteral("ttft_dropped"), reason);
    }
    // The rest of this target's sharers are passed over: the route moves to its next target.
    m_pos.candidate = int(target().candidates.size()) - 1;
    dialNext();
}

void ProxyRequest::handleIdleCheck()
{
    Attempt *a = m_attempt;
    if (finished() || !a || !a->call)
        return;   // armed from the response head on, committed or not
    const qint64 idle = m_s.clock.nowMs() - a->lastActivityMs;
    if (idle < idleLimitMs()) {
        a->idleDeadline.start(&m_s.clock, idleLimitMs() - idle, this, [this] { handleIdleCheck(); });
        return;
    }
    failAttempt(Http::UpstreamError::ClosedMidBody,
                         QStringLiteral("the upstream said nothing for %1 s").arg(idleLimitMs() / 1000));
}

bool ProxyRequest::waitForPinned(const Catalog::Sharer &sharer)
{
    // A busy account holding the conversation is worth a short wait (SPEC §10); once, and never
    // under a route's first-token limit.
    if (!m_s.pins || m_waitedFor == sharer.handle || firstTokenLimitApplies())
        return false;
    const qint64 waitMs = m_affinity.busyWaitMs(sharer, m_clientStream);
    if (waitMs <= 0)
        return false;
    m_waitedFor = sharer.handle;
    m_waitingFor = sharer.handle;
    auto resume = [this] {
        if (m_waitingFor.isEmpty() || finished())
            return; // already woken (the slot freed and the deadline both fire)
        stopWaiting();
        dialNext(true);
    };
    m_s.pins->wait(sharer.handle, this, resume);
    m_waitDeadline.start(&m_s.clock, waitMs, this, resume);
    return true;
}

void ProxyRequest::stopWaiting()
{
    m_waitDeadline.stop();
    if (!m_waitingFor.isEmpty() && m_s.pins)
        m_s.pins->stopWaiting(m_waitingFor, this);
    m_waitingFor.clear();
}

qint64 ProxyRequest::idleLimitMs() const
{
    // Phase limits: 60 s of silence between two events of a stream.
    return m_phaseLimits && m_attempt && m_attempt->sse ? qMin(m_s.settings.idleTimeoutMs, PhaseBetweenEventsMs) : m_s.settings.idleTimeoutMs;
}

} // namespace Aile::Dispatch
