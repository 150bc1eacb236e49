#include "ProxyRequest.h"
#include "routing/PlanFacts.h"

#include "BudgetHold.h"

#include "TranslatedBody.h"
#include "UpstreamRequestBuilder.h"
#include "billing/Charge.h"
#include "billing/SpendBook.h"
#include "catalog/Catalog.h"
#include "core/EngineSettings.h"
#include "health/FailingSharers.h"
#include "health/QuotaBook.h"
#include "billing/PlanValue.h"
#include "store/TraceSink.h"
#include "translate/ForeignReasoning.h"
#include "http/HttpExchange.h"

#include <QtCore/QLoggingCategory>
#include <QtCore/QRandomGenerator>

#include <utility>

Q_LOGGING_CATEGORY(lcDispatch, "aile.engine.dispatch")

namespace Aile::Dispatch {

namespace {

QString newTraceId()
{
    return QStringLiteral("req_") + QString::number(QRandomGenerator::global()->generate64(), 16).rightJustified(16, QLatin1Char('0'));
}

QString priceLabel(const std::optional<Billing::Rates> &rates)
{
    if (!rates)
        return QStringLiteral("unpriced");
    return QStringLiteral("%1/%2").arg(rates->input, 0, 'f', 4).arg(rates->output, 0, 'f', 4);
}

// The inverse of priceLabel: a node's x-aile-price ($ per million tokens, input/output), or
// nothing when it names no usable price.
std::optional<Billing::Rates> ratesFromPriceLabel(const QString &label)
{
    const QStringList parts = label.split(QLatin1Char('/'));
    if (parts.size() != 2)
        return std::nullopt;
    bool inOk = false;
    bool outOk = false;
    const double in = parts[0].toDouble(&inOk);
    const double out = parts[1].toDouble(&outOk);
    if (!inOk || !outOk || !(in >= 0 && in < 1e6) || !(out >= 0 && out < 1e6))
        return std::nullopt;
    Billing::Rates r;
    r.input = in;
    r.output = out;
    r.cacheRead = in;
    r.cacheWrite = in;
    return r;
}

Store::TraceRecord baseTrace(const Http::HttpExchange *exchange, const Keys::ApiKey &key, Routing::ClientKind client,
                             const QString &modelAsked, qint64 now)
{
    Store::TraceRecord t;
    t.id = newTraceId();
    t.startedMs = now;
    t.keyId = key.id;
    t.keyName = key.name;
    t.client = Routing::clientName(client);
    t.endpoint = QString::fromLatin1(exchange->request().path);
    t.modelAsked = modelAsked;
    t.affinity = QStringLiteral("fresh");
    return t;
}

} // namespace

void recordRefusedRequest(const DispatchServices &services, const Http::HttpExchange *exchange, const Keys::ApiKey &key,
                          Routing::ClientKind client, int status, const QString &message)
{
    Store::TraceRecord t = baseTrace(exchange, key, client, QString(), services.clock.nowMs());
    t.status = status;
    t.error = message;
    if (services.traces)
        services.traces->add(t, {});
}

ProxyRequest::ProxyRequest(const DispatchServices &services, Http::HttpExchange *exchange, const Keys::ApiKey &key,
                           Wire::Endpoint endpoint, QJsonObject body, Routing::Plan plan, Routing::ClientKind client)
    : QObject(exchange), m_s(services), m_exchange(exchange), m_key(key), m_endpoint(endpoint),
      m_body(std::move(body)), m_plan(std::move(plan)), m_client(client)
{
    m_startedMs = m_s.clock.nowMs();
    m_clientStream = m_body.value(QLatin1String("stream")).toBool() && m_endpoint != Wire::Endpoint::CountTokens;
    m_trace = baseTrace(exchange, key, client, m_body.value(QLatin1String("model")).toString(), m_startedMs);
    m_trace.stream = m_clientStream;
    m_phaseLimits = m_plan.phaseLimits;   // the key's or the route's (docs/keys.md), read by the planner
    m_trace.route = m_plan.route;
    if (m_plan.orderedBySpeed)
        m_trace.orderedBy = QStringLiteral("speed");   // "a request ordered this way is marked on its usage row"

    connect(exchange, &Http::HttpExchange::clientGone, this, &ProxyRequest::handleClientGone);
    connect(exchange, &Http::HttpExchange::drained, this, &ProxyRequest::handleDrained);
    exchange->setBeforeLastBytes([self = QPointer<ProxyRequest>(this)] {
        if (self)
            self->record();
    });
}

ProxyRequest::~ProxyRequest()
{
    if (m_attempt && m_attempt->call)
        m_attempt->call->abort();
    stopWaiting();
    releaseSlot();
}

bool ProxyRequest::canMove(State from, State to)
{
    switch (from) {
    case State::Created:
        return to == State::Dialling || to == State::Finished;
    case State::Dialling:
        return to == State::Holding || to == State::Relaying || to == State::Finished;
    case State::Holding:
        return to == State::RelayingHeld || to == State::Finished;
    case State::Relaying:
    case State::RelayingHeld:
        return to == State::Finished;
    case State::Finished:
        return false;
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
    auto refusedRow = [this](const Routing::Target &t, const QString &reason, const QString &skip) {
        Store::AttemptRecord a;
        a.seq = int(m_trace.attemptRows.size()) + 1;
        a.provider = t.provider;
        a.model = t.model;
        a.target = m_plan.labelsTargets() ? t.label() : QString();
        a.outcome = QStringLiteral("refused");
        a.reason = reason;
        a.skip = skip;
        a.startedMs = m_startedMs;
        a.dispatched = false;
        return a;
    };
    for (const Routing::Target &t : m_plan.targets) {
        if (!t.refusal.isEmpty())
            m_trace.attemptRows.append(refusedRow(t, t.refusal, t.refusalCode));
        for (const Routing::Refusal &r : t.refusals) {
            Store::AttemptRecord a = refusedRow(t, r.reason, r.code);
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
    if (const auto refused = holdBudget(m_s.store, m_s.clock, m_key, m_plan, m_trace.id)) {   // team mode: budgets across instances
        answerError(refused->status, refused->message, refused->extra, -1);
        return;
    }
    moveTo(State::Dialling);
    if (m_clientStream && m_s.settings.holdAfterMs > 0)
        m_holdDeadline.start(&m_s.clock, m_s.settings.holdAfterMs, this, [this] { handleHold(); });
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
    Store::AttemptRecord a;
    a.seq = int(m_trace.attemptRows.size()) + 1;
    a.sharer = current().handle;
    a.sharerName = current().name;
    a.provider = current().provider;
    a.model = current().upstreamModel;
    a.target = m_plan.labelsTargets() ? target().label() : QString();
    a.outcome = QStringLiteral("refused");
    a.reason = reason;
    a.skip = skip;
    a.startedMs = m_s.clock.nowMs();
    a.dispatched = false;
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
    if (!prepareBody())
        return;
    if (m_firstTokenTarget != m_pos.target) {
        // A route's first-token limit runs per target, across every sharer tried for it.
        m_firstTokenDeadline.stop();
        m_firstTokenTarget = m_pos.target;
        if (firstTokenLimitApplies())
            m_firstTokenDeadline.start(&m_s.clock, m_plan.ttftMs, this, [this] { handleFirstTokenLimit(); });
    }
    const qint64 now = m_s.clock.nowMs();
    qint64 budget = m_s.settings.firstByteBudgetMs;
    bool budgetCut = false;
    if (m_dials > 0) {
        // The first attempt is never shortened; later ones get what is left of the budget.
        budget = m_s.settings.firstByteBudgetMs - (now - m_startedMs);
        if (budget <= 0) {
            m_lastFailure = QStringLiteral("the first-byte budget of %1 s is spent").arg(m_s.settings.firstByteBudgetMs / 1000);
            answerFailure();
            return;
        }
        budgetCut = true;
    }
    // The phase limits (docs/keys.md `phaseLimits`), a key setting: 30 s to the first byte of a stream, 180 s for an
    // answer that is not streamed.
    bool phaseCut = false;
    if (m_phaseLimits) {
        const qint64 phase = m_clientStream ? PhaseFirstByteMs : PhaseWholeAnswerMs;
        if (budget > phase) {
            budget = phase;
            phaseCut = true;
        }
    }
    const Routing::Candidate &c = current();
    const Catalog::Sharer *sharer = m_s.sharer(c.handle);
    ++m_dials;
    m_attempts.push_back(std::make_unique<Attempt>(m_pos.target, c, int(m_trace.attemptRows.size()) + 1,
                                                   m_plan.labelsTargets() ? target().label() : QString(), now));
    Attempt &a = *m_attempts.back();
    m_attempt = &a;
    a.budgetCut = budgetCut;
    a.phaseCut = phaseCut;
    if (m_s.health) {
        ++m_s.health->mutableOf(c.handle).inFlight;
        a.slotHeld = true;
    }
    a.row.plan = Routing::planFacts(m_plan, m_pos.target, m_pos.candidate);
    a.wire = upstreamWire();
    a.meter = std::make_unique<Wire::ResponseMeter>(a.wire, m_clientStream);
    a.echo = Wire::ModelEcho(target().echoModel);
    if (target().translated())
        noteTranslation(a.row.plan, target().translation, m_requestDropped);
    else if (!m_requestDropped.isEmpty())
        a.row.plan.insert(QStringLiteral("dropped"), QJsonArray::fromStringList(m_requestDropped));
    const Http::UpstreamRequest request = buildUpstreamRequest({m_s.catalog, m_s.settings.connectTimeoutMs, m_s.credentials}, *sharer, a.wire, m_exchange->request(), m_upstreamBody);
    qCDebug(lcDispatch) << m_trace.id << "dialling" << c.handle << request.url.toString(QUrl::RemoveQuery);
    a.call = m_s.upstream.send(request, this);
    connect(a.call, &Http::UpstreamCall::headReceived, this, &ProxyRequest::handleHead);
    connect(a.call, &Http::UpstreamCall::bodyData, this, &ProxyRequest::handleBody);
    connect(a.call, &Http::UpstreamCall::finished, this, &ProxyRequest::handleUpstreamFinished);
    connect(a.call, &Http::UpstreamCall::failed, this, &ProxyRequest::handleUpstreamFailed);
    // Connect + TLS has its own bound inside the client and sits outside this budget.
    a.firstByteDeadline.start(&m_s.clock, budget, this, [this] { handleFirstByteTimeout(); });
}

bool ProxyRequest::prepareBody()
{
    // A node-backed sharer is sent "<provider>/<model>", which its node routes (docs/team.md).
    const QString sentModel = current().node ? current().upstreamModel : target().model;
    const QString bodyFor = target().label() + QLatin1Char(' ') + sentModel;
    if (m_bodyFor == bodyFor)
        return true;
    m_bodyFor = bodyFor;
    m_requestDropped.clear();
    if (!target().translated()) {
        // Reasoning a translation wrote, or another provider signed, never reaches a provider that verifies it.
        QJsonObject clientBody = m_body;
        m_requestDropped = Translate::stripUnverifiableReasoning(m_endpoint, clientBody, current().node ? Catalog::nodeProvider() : target().provider);
        const UpstreamBody body = rewriteBody(m_endpoint, m_requestDropped.isEmpty() ? m_body : clientBody, sentModel);
        m_upstreamBody = body.bytes;
        m_injectedUsage = body.injectedUsage;
        return true;
    }
    // The plan already refused what cannot be translated; a body that still cannot is answered
    // the same 400 here, before it is dialled.
    const TranslatedBody body = translateBody(m_endpoint, target().translateTo, m_body, sentModel, m_trace.session,
                                               target().provider == QLatin1String("openai"));
    if (!body.translation.ok()) {
        answerError(400, body.translation.refusal + QStringLiteral(" (target %1)").arg(target().label()),
                    {{QStringLiteral("param"), body.translation.refusedField}, {QStringLiteral("code"), QStringLiteral("untranslatable")}});
        return false;
    }
    m_upstreamBody = body.upstream.bytes;
    m_injectedUsage = false;   // the stream translator reads the usage chunk; it never reaches the client as such
    m_requestDropped = body.translation.dropped;
    m_clientWantsUsage = body.translation.clientWantsUsage;
    m_customTools = body.translation.customTools;
    return true;
}

Http::HttpHeaders ProxyRequest::aileHeaders() const
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
    m_attempt->dropCall(this, true);
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
                         : m_plan.anyProvider  ? QStringLiteral("auto/") + m_plan.targets.value(0).model
                                               : m_plan.targets.value(0).label();
    const bool allRateLimited = !m_failureStatuses.isEmpty()
                                && std::all_of(m_failureStatuses.begin(), m_failureStatuses.end(), [](int s) { return s == 429; });
    if (allRateLimited) {
        const qint64 retry = m_earliestRetryMs > 0 ? m_earliestRetryMs - m_s.clock.nowMs() : -1;
        answerError(429, QStringLiteral("every sharer tried for %1 is rate limited; retry later. Last: %2").arg(what, m_lastFailure), {}, retry);
        return;
    }
    if (m_attempt && m_attempt->phaseTimedOut) {
        // Phase limits: a limit hit on the last attempt answers 524.
        answerError(524, QStringLiteral("no sharer for %1 answered within the phase limits of this key or route (%2 s to the first byte of a stream, "
                                        "%3 s for an answer not streamed); %4 tried. Last: %5")
                             .arg(what).arg(PhaseFirstByteMs / 1000).arg(PhaseWholeAnswerMs / 1000).arg(m_dials).arg(m_lastFailure));
        return;
    }
    if (m_dials == 0 && m_scanned > 0) {
        answerError(503, QStringLiteral("every sharer for %1 is busy or cooling down right now (%2 passed over); retry shortly")
                             .arg(what).arg(m_scanned));
        return;
    }
    answerError(503, QStringLiteral("no sharer could serve %1 (%2 tried); last failure: %3")
                         .arg(what).arg(m_dials).arg(m_lastFailure.isEmpty() ? QStringLiteral("none available") : m_lastFailure));
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
    stopWaiting();
    if (m_attempt)
        m_attempt->stopClocks();
    m_holdDeadline.stop();
    m_keepaliveDeadline.stop();
    m_firstTokenDeadline.stop();
    releaseSlot();
    record();
    if (m_attempt && m_attempt->call) {
        m_attempt->call->disconnect(this);
        m_attempt->call = nullptr;
    }
    deleteLater();
}

void ProxyRequest::record()
{
    if (m_recorded)
        return;
    m_recorded = true;
    const qint64 now = m_s.clock.nowMs();
    m_trace.durationMs = now - m_startedMs;
    m_trace.attempts = m_dials;
    QList<Store::LedgerEntry> ledger;
    if (m_served) {
        const Attempt &a = *m_served;
        const Routing::Target &t = m_plan.targets.at(a.targetIndex());
        const Routing::Candidate &c = a.candidate();
        m_trace.inputTokens = a.row.inputTokens;
        m_trace.outputTokens = a.row.outputTokens;
        if (Billing::isCharged(a.row.status, m_endpoint)) {
            const Catalog::Sharer *sharer = m_s.sharer(c.handle);
            const Catalog::ModelInfo *model = m_s.catalog.model(c.provider, c.upstreamModel);
            // Through a node: at the price its answer named (its x-aile-price), as its own ledger books it.
            const std::optional<Billing::Rates> nodeRates = c.node ? ratesFromPriceLabel(a.row.nodePrice) : std::nullopt;
            if (c.node)
                sharer = nullptr;
            Billing::Charge charge = Billing::chargeFor(a.usage, sharer, model, c.upstreamModel, nodeRates ? nodeRates : c.rates, c.quoteUsd, m_plan.costCapFor(t));
            Billing::valueOnPlan(charge, a.usage, sharer, model, c.upstreamModel, c.quoteUsd);   // a subscription spends nothing
            m_trace.costUsd = charge.costUsd;
            m_trace.absorbedUsd = charge.absorbedUsd;
            ledger.append(Billing::book(m_s.spend, {m_trace.id, m_key.id, t.route, t.spendKey(), c.handle}, charge, now));
        }
    }
    if (m_s.traces)
        m_s.traces->add(m_trace, ledger);
}

} // namespace Aile::Dispatch
