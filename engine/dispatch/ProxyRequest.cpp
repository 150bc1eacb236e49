// One proxied request's own path: its state machine, the dial loop with failover, its answers of
// refusal and failure, and its booking. The answer's relay is ProxyRelay; its clocks are
// RequestDeadlines; its trace rows and ledger booking are RequestTrace.
#include "ProxyRequest.h"

#include "BudgetHold.h"

#include "catalog/Catalog.h"
#include "core/EngineSettings.h"
#include "health/FailingSharers.h"
#include "http/HttpExchange.h"
#include "routing/PlanFacts.h"
#include "store/TraceSink.h"
#include "TranslatedBody.h"
#include "UpstreamRequestBuilder.h"

#include <QtCore/QJsonArray>
#include <QtCore/QLoggingCategory>

#include <atomic>
#include <utility>

Q_LOGGING_CATEGORY(lcDispatch, "aile.engine.dispatch")

namespace Aile::Dispatch {

namespace {
std::atomic<int> g_liveRequests{0};
}

int ProxyRequest::live()
{
    return g_liveRequests.load();
}

ProxyRequest::ProxyRequest(const DispatchServices &services, Http::HttpExchange *exchange, const Keys::ApiKey &key, Wire::Endpoint endpoint,
                           QJsonObject body, Routing::Plan plan, Routing::ClientKind client)
    : m_s(services), m_exchange(exchange), m_key(key), m_endpoint(endpoint), m_body(std::move(body)),
      m_clientStream(m_body.value(QLatin1String("stream")).toBool() && endpoint != Wire::Endpoint::CountTokens), m_plan(std::move(plan)),
      m_client(client),
      // the key's or the route's phase limits (docs/keys.md), read by the planner
      m_deadlines(*this, m_s.clock, m_s.settings, this, m_clientStream, m_plan.phaseLimits),
      m_relay(*this, {m_s, m_key, m_endpoint, m_sent, m_affinity, m_deadlines, m_plan}, exchange)
{
    m_startedMs = m_s.clock.nowMs();
    m_trace = baseTrace(exchange, key, client, m_body.value(QLatin1String("model")).toString(), m_startedMs);
    m_trace.stream = m_clientStream;
    m_trace.route = m_plan.route;
    if (m_plan.orderedBySpeed)
        m_trace.orderedBy = QStringLiteral("speed"); // "a request ordered this way is marked on its usage row"

    ++g_liveRequests;
    // No connection, no shared count: the exchange tells the request by virtual call, and the
    // hook and the listener are taken back in the destructor (or dropped with the exchange).
    exchange->setListener(this);
    exchange->setBeforeLastBytes([this] { record(); });
}

ProxyRequest::~ProxyRequest()
{
    --g_liveRequests;
    if (m_exchange) {
        m_exchange->setBeforeLastBytes({});
        if (m_exchange->listener() == this)
            m_exchange->setListener(nullptr);
    }
    if (m_attempt && m_attempt->call)
        m_attempt->call->abort();
    m_deadlines.stopWaiting(m_s.pins);
    releaseSlot();
}

bool ProxyRequest::canMove(State from, State to)
{
    switch (from) {
    case State::Created: return to == State::Dialling || to == State::Finished;
    case State::Dialling: return to == State::Holding || to == State::Relaying || to == State::Finished;
    case State::Holding: return to == State::RelayingHeld || to == State::Finished;
    case State::Relaying:
    case State::RelayingHeld: return to == State::Finished;
    case State::Finished: return false;
    }
    return false;
}

const char *ProxyRequest::stateName(State state)
{
    switch (state) {
    case State::Created: return "created";
    case State::Dialling: return "dialling";
    case State::Holding: return "holding";
    case State::Relaying: return "relaying";
    case State::RelayingHeld: return "relaying_held";
    case State::Finished: return "finished";
    }
    return "?";
}

void ProxyRequest::moveTo(State next)
{
    if (!canMove(m_state, next)) {
        qCCritical(lcDispatch) << m_trace.id << "moved from" << stateName(m_state) << "to" << stateName(next);
        Q_ASSERT_X(false, "ProxyRequest::moveTo", "illegal state change");
    }
    m_state = next;
}

void ProxyRequest::start()
{
    // Every sharer passed over before a dial is a row of the trace, and so is a route's target
    // refused before any sharer was asked (a spent budget, a cost cap, …).
    auto nextSeq = [this] { return int(m_trace.attemptRows.size()) + 1; };
    for (const Routing::Target &t : m_plan.targets) {
        if (!t.refusal.isEmpty())
            m_trace.attemptRows.append(refusedRow(m_plan, t, nextSeq(), t.refusal, t.refusalCode, m_startedMs));
        for (const Routing::Refusal &r : t.refusals) {
            Store::AttemptRecord a = refusedRow(m_plan, t, nextSeq(), r.reason, r.code, m_startedMs);
            a.sharer = r.handle;
            a.sharerName = r.name;
            m_trace.attemptRows.append(a);
        }
    }
    m_trace.affinity = m_affinity.verdictFor({});
    if (!m_plan.ok()) {
        answerError(m_plan.status, m_plan.message, m_plan.extra, m_plan.retryAfterMs);
        return;
    }
    if (const auto refused = holdBudget(m_s.store, m_s.clock, m_key, m_plan, m_trace.id)) { // team mode: budgets across instances
        answerError(refused->status, refused->message, refused->extra, -1);
        return;
    }
    moveTo(State::Dialling);
    m_deadlines.startHold();
    dialNext();
}

bool ProxyRequest::advance()
{
    while (m_pos.target < m_plan.targets.size()) {
        if (m_pos.candidate + 1 < target().candidates.size()) {
            ++m_pos.candidate;
            return true;
        }
        ++m_pos.target;
        m_pos.candidate = -1;
    }
    return false;
}

int ProxyRequest::dialLimit() const
{
    // The setting, or the plan's own lower limit (a models chain makes at most three attempts).
    return m_plan.maxDials > 0 ? qMin(m_plan.maxDials, m_s.settings.maxDials) : m_s.settings.maxDials;
}

void ProxyRequest::refuseCandidate(const QString &reason, const QString &skip)
{
    // A pre-dispatch refusal is free: it does not count as a dial, only against the scan cap.
    ++m_scanned;
    Store::AttemptRecord a = refusedRow(m_plan, target(), int(m_trace.attemptRows.size()) + 1, reason, skip, m_s.clock.nowMs());
    a.sharer = current().handle;
    a.sharerName = current().name;
    a.provider = current().provider;
    a.model = current().upstreamModel;
    m_trace.attemptRows.append(a);
}

void ProxyRequest::dialNext(bool retryCurrent)
{
    if (finished())
        return;
    for (;;) {
        const bool again = std::exchange(retryCurrent, false);
        if (m_dials >= dialLimit() || m_scanned > m_s.settings.scanCap || !(again || advance())) {
            answerFailure();
            return;
        }
        const Routing::Candidate &c = current();
        const Catalog::Sharer *sharer = m_s.sharer(c.handle);
        if (!sharer)
            continue;
        // The plan was made before earlier attempts; look again at what changed since.
        const qint64 cooling = m_s.health ? m_s.health->coolingUntil(c.handle, c.upstreamModel) : 0;
        if (cooling > 0) {
            m_affinity.passedOver(c.handle, QStringLiteral("cooling"));
            refuseCandidate(QStringLiteral("cooling down"), QStringLiteral("cooldown"));
            continue;
        }
        if (sharer->slots > 0 && m_s.health && m_s.health->of(c.handle).inFlight >= sharer->slots) {
            if (waitForPinned(*sharer))
                return;
            m_affinity.passedOver(c.handle, QStringLiteral("busy"));
            refuseCandidate(QStringLiteral("busy: all %1 slots in use").arg(sharer->slots), QStringLiteral("busy"));
            continue;
        }
        break;
    }
    if (const auto refused = m_sent.build(m_endpoint, m_body, m_clientBytes, target(), current(), m_trace.session)) {
        answerError(400, refused->message, refused->extra);
        return;
    }
    m_deadlines.enterTarget(m_pos.target, firstTokenLimitApplies(), m_plan.ttftMs);
    const qint64 now = m_s.clock.nowMs();
    const RequestDeadlines::FirstByteBudget budget = m_deadlines.firstByteBudget(m_dials, m_startedMs);
    if (budget.spent) {
        m_lastFailure = QStringLiteral("the first-byte budget of %1 s is spent").arg(m_s.settings.firstByteBudgetMs / 1000);
        answerFailure();
        return;
    }
    const Routing::Candidate &c = current();
    const Catalog::Sharer *sharer = m_s.sharer(c.handle);
    ++m_dials;
    m_attempts.push_back(
        std::make_unique<Attempt>(m_pos.target, c, int(m_trace.attemptRows.size()) + 1, m_plan.labelsTargets() ? target().label() : QString(), now));
    Attempt &a = *m_attempts.back();
    m_attempt = &a;
    a.budgetCut = budget.budgetCut;
    a.phaseCut = budget.phaseCut;
    if (m_s.health) {
        ++m_s.health->mutableOf(c.handle).inFlight;
        a.slotHeld = true;
    }
    a.row.plan = Routing::planFacts(m_plan, m_pos.target, m_pos.candidate);
    a.wire = upstreamWire();
    a.meter = std::make_unique<Wire::ResponseMeter>(a.wire, m_clientStream);
    a.echo = Wire::ModelEcho(target().echoModel);
    if (target().translated())
        noteTranslation(a.row.plan, target().translation, m_sent.dropped);
    else if (!m_sent.dropped.isEmpty())
        a.row.plan.insert(QStringLiteral("dropped"), QJsonArray::fromStringList(m_sent.dropped));
    const Http::UpstreamRequest request =
        buildUpstreamRequest({m_s.catalog, m_s.settings.connectTimeoutMs, m_s.credentials}, *sharer, a.wire, m_exchange->request(), m_sent.bytes);
    qCDebug(lcDispatch) << m_trace.id << "dialling" << c.handle << request.url.toString(QUrl::RemoveQuery);
    // The relay is the call's listener: no connection, no QObject per call.
    a.call = m_s.upstream.send(request, m_relay);
    m_deadlines.armFirstByte(a, budget.ms);
}

Http::HttpHeaders ProxyRequest::answerHeaders() const
{
    Http::HttpHeaders h;
    h.add("x-aile-request-id", m_trace.id.toLatin1());
    h.add("x-aile-attempts", QByteArray::number(m_dials));
    if (m_pos.target < m_plan.targets.size() && m_pos.candidate >= 0) {
        const Routing::Candidate &c = current();
        h.add("x-aile-sharer", c.handle.toLatin1());
        h.add("x-aile-price", priceLabel(c.rates).toLatin1());
        h.add("x-aile-model", target().label().toUtf8());
        if (target().translated())
            h.add("x-aile-translated", target().translation.toLatin1());
    }
    h.add("x-aile-session-affinity", m_trace.affinity.toLatin1());
    return h;
}

void ProxyRequest::releaseSlot()
{
    if (!m_attempt || !m_attempt->slotHeld)
        return;
    m_attempt->slotHeld = false;
    if (!m_s.health)
        return;
    const QString &handle = m_attempt->candidate().handle;
    int &n = m_s.health->mutableOf(handle).inFlight;
    n = qMax(0, n - 1);
    if (m_s.pins)
        m_s.pins->slotFreed(handle); // a request waiting for this account may go
}

void ProxyRequest::endAttempt(const QString &outcome, const QString &reason)
{
    m_trace.attemptRows.append(m_attempt->end(outcome, reason));
}

void ProxyRequest::failOver(const Health::FailureClass &verdict, const QString &reason, qint64 retryAfterMs)
{
    m_attempt->stopClocks();
    m_attempt->dropCall(true);
    releaseSlot();
    const Routing::Candidate &c = m_attempt->candidate();
    if (verdict.failing == Health::FailureClass::Failing::Failure)
        m_s.failing.note(m_key, c.provider, c.handle, true, m_s.clock.nowMs());
    if (verdict.failure && m_s.health) {
        const qint64 until = m_s.health->recordFailure(c.handle, c.upstreamModel, *verdict.failure, retryAfterMs);
        if (m_attempt->row.status == 429 && until > 0)
            m_earliestRetryMs = m_earliestRetryMs == 0 ? until : qMin(m_earliestRetryMs, until);
    }
    m_failureStatuses.append(m_attempt->row.status);
    m_affinity.failed(c.handle); // a failing account loses the conversation's pin
    m_lastFailure = QStringLiteral("%1 (%2): %3").arg(c.name, verdict.outcome, reason);
    endAttempt(verdict.outcome, reason);
    dialNext();
}

void ProxyRequest::answerFailure()
{
    const QString what = !m_plan.route.isEmpty() ? QStringLiteral("route ") + m_plan.route
                         : m_plan.anyProvider    ? QStringLiteral("auto/") + m_plan.targets.value(0).model
                                                 : m_plan.targets.value(0).label();
    const bool allRateLimited =
        !m_failureStatuses.isEmpty() && std::all_of(m_failureStatuses.begin(), m_failureStatuses.end(), [](int s) { return s == 429; });
    if (allRateLimited) {
        const qint64 retry = m_earliestRetryMs > 0 ? m_earliestRetryMs - m_s.clock.nowMs() : -1;
        answerError(429, QStringLiteral("every sharer tried for %1 is rate limited; retry later. Last: %2").arg(what, m_lastFailure), {}, retry);
        return;
    }
    if (m_attempt && m_attempt->phaseTimedOut) {
        using D = RequestDeadlines; // phase limits: a limit hit on the last attempt answers 524
        answerError(524, QStringLiteral("no sharer for %1 answered within the phase limits of this key or route (%2 s to the first byte of a stream, "
                                        "%3 s for an answer not streamed); %4 tried. Last: %5")
                             .arg(what)
                             .arg(D::PhaseFirstByteMs / 1000)
                             .arg(D::PhaseWholeAnswerMs / 1000)
                             .arg(m_dials)
                             .arg(m_lastFailure));
        return;
    }
    if (m_dials == 0 && m_scanned > 0) {
        answerError(503,
                    QStringLiteral("every sharer for %1 is busy or cooling down right now (%2 passed over); retry shortly").arg(what).arg(m_scanned));
        return;
    }
    answerError(503, QStringLiteral("no sharer could serve %1 (%2 tried); last failure: %3")
                         .arg(what)
                         .arg(m_dials)
                         .arg(m_lastFailure.isEmpty() ? QStringLiteral("none available") : m_lastFailure));
}

void ProxyRequest::answerError(int status, const QString &message, const QJsonObject &extra, qint64 retryAfterMs)
{
    m_trace.status = held() ? 200 : status;
    m_trace.affinity = m_affinity.verdictFor({});
    m_trace.error = message;
    if (m_exchange && held()) {
        // The 200 went out long ago: the failure arrives as the wire's own error frame.
        m_exchange->writeChunk(Wire::errorEvent(m_endpoint, status, message));
        m_exchange->finishStream();
    } else if (m_exchange) {
        Http::HttpHeaders headers;
        headers.add("content-type", "application/json");
        headers.add("x-aile-request-id", m_trace.id.toLatin1());
        headers.add("x-aile-attempts", QByteArray::number(m_dials));
        headers.add("x-aile-session-affinity", m_trace.affinity.toLatin1());
        if (retryAfterMs >= 0)
            headers.add("retry-after", QByteArray::number((retryAfterMs + 999) / 1000));
        m_exchange->respond(status, headers, Wire::errorBody(Wire::errorShapeFor(m_endpoint), status, message, extra));
    }
    finish();
}

void ProxyRequest::finish()
{
    if (finished())
        return;
    moveTo(State::Finished);
    m_deadlines.stopWaiting(m_s.pins);
    if (m_attempt)
        m_attempt->stopClocks();
    m_deadlines.stopRequestClocks();
    releaseSlot();
    record();
    if (m_attempt)
        m_attempt->dropCall(true); // may run inside one of the call's own events: it is told nothing more
    // Deleted at the end of this event-loop turn, never inside one of its own calls. An answered
    // exchange is retired by its connection at the end of the turn, and this request, its
    // listener, goes with it (exchangeEnded): no event of its own is posted (a posted deleteLater writes the event loop's
    // eventfd to wake it, one system call per request: docs/performance.md "Change 3 (dispatch)").
    // An exchange that is not finished (the client left) may live on: then deleteLater.
    if (!m_exchange || !m_exchange->isFinished())
        deleteLater();
}

// The exchange is going (retired at the end of the turn its answer finished in, or with its
// connection): the request goes with it, as the exchange's QObject child used to.
void ProxyRequest::exchangeEnded()
{
    m_exchange = nullptr;
    m_relay.forgetExchange();
    delete this;
}

bool ProxyRequest::answerCommitted(Attempt &attempt, int status)
{
    const bool wasHeld = held();
    moveTo(wasHeld ? State::RelayingHeld : State::Relaying);
    m_served = &attempt;
    m_deadlines.stopRequestClocks();
    m_trace.status = wasHeld ? 200 : status;
    m_trace.sharer = current().handle;
    m_trace.sharerName = current().name;
    m_trace.modelServed = target().label();
    m_trace.ttfbMs = m_s.clock.nowMs() - m_startedMs;
    m_trace.affinity = m_affinity.verdictFor(current().handle);
    return wasHeld;
}

void ProxyRequest::noteRetryAt(qint64 atMs)
{
    m_earliestRetryMs = m_earliestRetryMs == 0 ? atMs : qMin(m_earliestRetryMs, atMs);
}

void ProxyRequest::noteClientGone()
{
    if (!m_served && !held())
        m_trace.status = 499;
    m_trace.error = QStringLiteral("the client disconnected");
}

bool ProxyRequest::holdDue()
{
    if (m_state != State::Dialling || !m_exchange)
        return false;
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
    return true;
}

bool ProxyRequest::keepaliveDue()
{
    if (m_state != State::Holding || !m_exchange)
        return false;
    m_exchange->writeChunk(": keepalive\n\n");
    return true;
}

void ProxyRequest::firstByteTimedOut()
{
    Attempt *a = m_attempt;
    if (!a || a->committed() || !a->call)
        return;
    a->call->abort();
    a->row.durationMs = m_s.clock.nowMs() - a->startedMs();
    const QString reason = QStringLiteral("no response head within %1 ms").arg(a->row.durationMs);
    // Under phase limits any attempt that times out before its first byte counts as past a limit:
    // when it is the last, the answer is 524 (the request's first-byte budget may bind first).
    a->phaseTimedOut = m_deadlines.phaseLimits();
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

void ProxyRequest::firstTokenLimitHit()
{
    if (m_state != State::Dialling && m_state != State::Holding)
        return;
    const QString reason = QStringLiteral("no output within route %1's first-token limit of %2 ms; not charged, the sharer not marked down")
                               .arg(m_plan.route)
                               .arg(m_plan.ttftMs);
    if (Attempt *a = m_attempt; a && a->call) {
        a->firstByteDeadline.stop();
        a->dropCall(true);
        releaseSlot();
        a->row.durationMs = m_s.clock.nowMs() - a->startedMs();
        m_affinity.failed(a->candidate().handle); // a dropped attempt never pins, and the pin leaves it
        m_lastFailure = QStringLiteral("%1 (ttft_dropped): %2").arg(a->candidate().name, reason);
        endAttempt(QStringLiteral("ttft_dropped"), reason);
    }
    // The rest of this target's sharers are passed over: the route moves to its next target.
    m_pos.candidate = int(target().candidates.size()) - 1;
    dialNext();
}

void ProxyRequest::idleLimitHit(qint64 limitMs)
{
    if (finished())
        return;
    m_relay.failAttempt(Http::UpstreamError::ClosedMidBody, QStringLiteral("the upstream said nothing for %1 s").arg(limitMs / 1000));
}

bool ProxyRequest::waitForPinned(const Catalog::Sharer &sharer)
{
    // A busy account holding the conversation is worth a short wait (SPEC §10); once, and never
    // under a route's first-token limit.
    if (!m_s.pins || m_deadlines.waitedFor(sharer.handle) || firstTokenLimitApplies())
        return false;
    return m_deadlines.waitFor(*m_s.pins, sharer.handle, m_affinity.busyWaitMs(sharer, m_clientStream));
}

void ProxyRequest::waitOver()
{
    if (!finished())
        dialNext(true);
}

void ProxyRequest::record()
{
    if (m_recorded)
        return;
    m_recorded = true;
    const qint64 now = m_s.clock.nowMs();
    m_trace.durationMs = now - m_startedMs;
    m_trace.attempts = m_dials;
    QList<Store::LedgerEntry> ledger = m_served ? bookServed(m_s, m_plan, m_endpoint, m_key, *m_served, m_trace, now) : QList<Store::LedgerEntry>();
    // Handed over, not copied: nothing reads the trace once it is recorded (m_recorded), and the
    // request is finishing (record runs as its last bytes leave, or from finish()).
    if (m_s.traces)
        m_s.traces->add(std::move(m_trace), std::move(ledger));
}

} // namespace Aile::Dispatch
