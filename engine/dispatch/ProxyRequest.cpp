#include "ProxyRequest.h"

#include "UpstreamRequestBuilder.h"
#include "core/EngineContext.h"
#include "core/TraceSink.h"
#include "http/HttpExchange.h"
#include "store/Store.h"

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

// What fails over: rate limits, overload, other server errors, a refused credential, a model the
// account does not have. A 400 (and the other 4xx) is the request's own fault: passed through.
bool failsOver(int status)
{
    return status == 429 || status == 404 || status == 401 || status == 403 || status == 408 || status >= 500;
}

// Upstream headers worth passing to the client beside the body.
bool relayedHeader(const QByteArray &n)
{
    return n == "content-type" || n == "request-id" || n == "x-request-id" || n == "openai-processing-ms"
           || n == "retry-after" || n.startsWith("x-ratelimit-") || n.startsWith("anthropic-ratelimit-");
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

void recordRefusedRequest(EngineContext &ctx, const Http::HttpExchange *exchange, const Keys::ApiKey &key,
                          Routing::ClientKind client, int status, const QString &message)
{
    Store::TraceRecord t = baseTrace(exchange, key, client, QString(), ctx.clock->nowMs());
    t.status = status;
    t.error = message;
    if (ctx.traces)
        ctx.traces->add(t, {});
}

ProxyRequest::ProxyRequest(EngineContext &context, Http::HttpExchange *exchange, const Keys::ApiKey &key,
                           Wire::Endpoint endpoint, QJsonObject body, Routing::Plan plan, Routing::ClientKind client)
    : QObject(exchange), m_ctx(context), m_exchange(exchange), m_key(key), m_endpoint(endpoint),
      m_body(std::move(body)), m_plan(std::move(plan)), m_client(client)
{
    m_startedMs = m_ctx.clock->nowMs();
    m_clientStream = m_body.value(QLatin1String("stream")).toBool() && m_endpoint != Wire::Endpoint::CountTokens;
    m_trace = baseTrace(exchange, key, client, m_body.value(QLatin1String("model")).toString(), m_startedMs);
    m_trace.stream = m_clientStream;
    m_phaseLimits = key.routing.value(QLatin1String("phaseLimits")).toBool(false) || m_plan.phaseLimits;   // docs/keys.md
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
    if (m_call)
        m_call->abort();
    stopWaiting();
    releaseSlot();
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
    if (m_clientStream && m_ctx.settings.holdAfterMs > 0)
        m_holdDeadline.start(m_ctx.clock, m_ctx.settings.holdAfterMs, this, [this] { handleHold(); });
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
    return m_plan.maxDials > 0 ? qMin(m_plan.maxDials, m_ctx.settings.maxDials) : m_ctx.settings.maxDials;
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
    a.startedMs = m_ctx.clock->nowMs();
    a.dispatched = false;
    m_trace.attemptRows.append(a);
}

void ProxyRequest::dialNext()
{
    if (m_finished)
        return;
    for (;;) {
        const bool again = std::exchange(m_retryCurrent, false);
        if (m_dials >= dialLimit() || m_scanned > m_ctx.settings.scanCap || !(again || advance())) {
            answerFailure();
            return;
        }
        const Routing::Candidate &c = current();
        const Catalog::Sharer *sharer = m_ctx.sharer(c.handle);
        if (!sharer)
            continue;
        // The plan was made before earlier attempts; look again at what changed since.
        const qint64 cooling = m_ctx.health ? m_ctx.health->coolingUntil(c.handle, c.upstreamModel) : 0;
        if (cooling > 0) {
            m_affinity.passedOver(c.handle, QStringLiteral("cooling"));
            refuseCandidate(QStringLiteral("cooling down"), QStringLiteral("cooldown"));
            continue;
        }
        if (sharer->slots > 0 && m_ctx.health && m_ctx.health->of(c.handle).inFlight >= sharer->slots) {
            if (waitForPinned(*sharer))
                return;
            m_affinity.passedOver(c.handle, QStringLiteral("busy"));
            refuseCandidate(QStringLiteral("busy: all %1 slots in use").arg(sharer->slots), QStringLiteral("busy"));
            continue;
        }
        break;
    }
    if (m_firstTokenTarget != m_pos.target) {
        // A route's first-token limit runs per target, across every sharer tried for it.
        m_firstTokenDeadline.stop();
        m_firstTokenTarget = m_pos.target;
        if (firstTokenLimitApplies())
            m_firstTokenDeadline.start(m_ctx.clock, m_plan.ttftMs, this, [this] { handleFirstTokenLimit(); });
    }
    m_awaitingOutput = false;
    m_awaitedBytes.clear();
    const qint64 now = m_ctx.clock->nowMs();
    qint64 budget = m_ctx.settings.firstByteBudgetMs;
    m_budgetCut = false;
    if (m_dials > 0) {
        // The first attempt is never shortened; later ones get what is left of the budget.
        budget = m_ctx.settings.firstByteBudgetMs - (now - m_startedMs);
        if (budget <= 0) {
            m_lastFailure = QStringLiteral("the first-byte budget of %1 s is spent").arg(m_ctx.settings.firstByteBudgetMs / 1000);
            answerFailure();
            return;
        }
        m_budgetCut = true;
    }
    // Seed 003's phase limits, a key setting: 30 s to the first byte of a stream, 180 s for an
    // answer that is not streamed.
    m_phaseCut = false;
    m_phaseTimedOut = false;
    if (m_phaseLimits) {
        const qint64 phase = m_clientStream ? PhaseFirstByteMs : PhaseWholeAnswerMs;
        if (budget > phase) {
            budget = phase;
            m_phaseCut = true;
        }
    }
    const Routing::Candidate &c = current();
    const Catalog::Sharer *sharer = m_ctx.sharer(c.handle);
    ++m_dials;
    if (m_ctx.health) {
        ++m_ctx.health->mutableOf(c.handle).inFlight;
        m_slotHeld = true;
    }
    m_attempt = Store::AttemptRecord();
    m_attempt.seq = int(m_trace.attemptRows.size()) + 1;
    m_attempt.sharer = c.handle;
    m_attempt.sharerName = c.name;
    m_attempt.provider = c.provider;
    m_attempt.model = c.upstreamModel;
    m_attempt.target = m_plan.labelsTargets() ? target().label() : QString();
    m_attempt.startedMs = now;
    m_attempt.quoteUsd = c.quoteUsd.value_or(-1);
    m_attemptStartedMs = now;
    m_draining = false;
    m_errorBody.clear();
    m_meter = std::make_unique<Wire::ResponseMeter>(m_endpoint, m_clientStream);
    if (m_bodyFor != target().label()) {
        const UpstreamBody body = rewriteBody(m_endpoint, m_body, target().model);
        m_upstreamBody = body.bytes;
        m_injectedUsage = body.injectedUsage;
        m_bodyFor = target().label();
    }
    const Http::UpstreamRequest request = buildUpstreamRequest(m_ctx, *sharer, m_endpoint, m_exchange->request(), m_upstreamBody);
    qCDebug(lcDispatch) << m_trace.id << "dialling" << c.handle << request.url.toString(QUrl::RemoveQuery);
    m_call = m_ctx.upstream->send(request, this);
    connect(m_call, &Http::UpstreamCall::headReceived, this, &ProxyRequest::handleHead);
    connect(m_call, &Http::UpstreamCall::bodyData, this, &ProxyRequest::handleBody);
    connect(m_call, &Http::UpstreamCall::finished, this, &ProxyRequest::handleUpstreamFinished);
    connect(m_call, &Http::UpstreamCall::failed, this, &ProxyRequest::handleUpstreamFailed);
    // Connect + TLS has its own bound inside the client and sits outside this budget.
    m_firstByteDeadline.start(m_ctx.clock, budget, this, [this] { handleFirstByteTimeout(); });
}

void ProxyRequest::handleHead()
{
    m_firstByteDeadline.stop();
    const qint64 now = m_ctx.clock->nowMs();
    m_attempt.ttfbMs = now - m_attemptStartedMs;
    m_attempt.status = m_call->status();
    // Rate-limit and quota headers: subscription windows (seed 002 §6) and capacity headroom.
    m_ctx.quota.observe(current().handle, m_call->headers(), now);
    if (const double headroom = m_ctx.quota.headroom(current().handle, now); m_ctx.health && headroom >= 0)
        m_ctx.health->setHeadroom(current().handle, headroom);
    if (failsOver(m_call->status())) {
        m_draining = true; // read the error body, then move on
        return;
    }
    if (m_firstTokenDeadline.isActive() && m_call->status() < 300 && m_call->headers().value("content-type").startsWith("text/event-stream")) {
        // Under a route's first-token limit the client gets nothing, not even headers, until the
        // target produces output.
        m_awaitingOutput = true;
        m_meter = std::make_unique<Wire::ResponseMeter>(m_endpoint, true);
        return;
    }
    commit(m_call->status());
}

void ProxyRequest::commit(int status)
{
    m_committed = true;
    m_holdDeadline.stop();
    m_keepaliveDeadline.stop();
    m_firstTokenDeadline.stop();
    const bool awaited = std::exchange(m_awaitingOutput, false);
    const QByteArray contentType = m_call->headers().value("content-type");
    m_sse = contentType.startsWith("text/event-stream");
    if (!awaited)
        m_meter = std::make_unique<Wire::ResponseMeter>(m_endpoint, m_sse);
    m_trace.status = m_held ? 200 : status;
    m_trace.sharer = current().handle;
    m_trace.sharerName = current().name;
    m_trace.modelServed = target().label();
    m_trace.ttfbMs = m_ctx.clock->nowMs() - m_startedMs;
    m_trace.affinity = m_affinity.verdictFor(current().handle);
    m_lastActivityMs = m_ctx.clock->nowMs();
    m_idleDeadline.start(m_ctx.clock, idleLimitMs(), this, [this] { handleIdleCheck(); });
    if (m_held) {
        if (awaited)
            relay(std::exchange(m_awaitedBytes, {}));
        return; // the client already has its 200; the answer's events follow the keepalives
    }
    Http::HttpHeaders headers = aileHeaders();
    for (const auto &[name, value] : m_call->headers().entries())
        if (relayedHeader(name))
            headers.add(name, value);
    if (m_sse)
        headers.set("cache-control", "no-cache");
    qint64 length = -1;
    const QByteArray upstreamLength = m_call->headers().value("content-length");
    if (!m_sse && !upstreamLength.isEmpty() && m_call->headers().value("transfer-encoding").isEmpty())
        length = upstreamLength.toLongLong();
    m_exchange->startStream(status, headers, length);
    if (awaited)
        relay(std::exchange(m_awaitedBytes, {}));
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
    }
    h.add("x-aile-session-affinity", m_trace.affinity.toLatin1());
    return h;
}

void ProxyRequest::handleBody(const QByteArray &bytes)
{
    if (m_draining) {
        if (m_errorBody.size() < 64 * 1024)
            m_errorBody += bytes.left(64 * 1024 - m_errorBody.size());
        return;
    }
    if (m_awaitingOutput) {
        for (const Wire::SseEvent &ev : m_meter->feedStream(bytes))
            if (!(m_injectedUsage && ev.usageOnly))
                m_awaitedBytes += ev.raw;
        if (m_meter->sawOutput() || m_meter->sawErrorEvent() || m_meter->sawEndEvent())
            commit(m_attempt.status);
        return;
    }
    if (!m_committed)
        return;
    m_lastActivityMs = m_ctx.clock->nowMs();
    if (!m_sse) {
        m_meter->feedBody(bytes);
        relay(bytes);
        return;
    }
    const QList<Wire::SseEvent> events = m_meter->feedStream(bytes);
    QByteArray out;
    for (const Wire::SseEvent &ev : events) {
        // The usage-only chunk we asked for on the client's behalf is read, not relayed.
        if (m_injectedUsage && ev.usageOnly)
            continue;
        out += ev.raw;
    }
    relay(out);
}

void ProxyRequest::relay(const QByteArray &bytes)
{
    if (bytes.isEmpty() || !m_exchange)
        return;
    m_exchange->writeChunk(bytes);
    if (m_call && m_exchange->pendingBytes() > Http::HttpExchange::HighWaterBytes)
        m_call->pauseReading();
}

void ProxyRequest::handleDrained()
{
    if (m_call)
        m_call->resumeReading();
}

void ProxyRequest::handleUpstreamFinished()
{
    m_firstByteDeadline.stop();
    m_idleDeadline.stop();
    m_attempt.durationMs = m_ctx.clock->nowMs() - m_attemptStartedMs;
    if (m_draining) {
        const int status = m_attempt.status;
        const QString detail = QString::fromUtf8(m_errorBody.left(300)).simplified();
        const QString reason = QStringLiteral("HTTP %1: %2").arg(status).arg(detail);
        const qint64 retryAfter = Health::parseRetryAfterMs(m_call->headers().value("retry-after"), m_ctx.clock->nowMs());
        std::optional<Health::Failure> failure;
        if (status == 401 || status == 403)
            failure = Health::Failure::AuthRefused;
        else if ((status == 429 || status == 400) && m_errorBody.contains("limit: 0"))
            failure = Health::Failure::ModelNoQuota; // Google: this key has no quota for this model
        else if (status == 429 || status == 529)
            failure = Health::Failure::RateLimited;
        else if (status >= 500 || status == 408)
            failure = Health::Failure::ServerError;
        // A 404 is the account not serving this model: fail over, bench nobody.
        failOver(QStringLiteral("failed_over"), reason, failure, retryAfter);
        return;
    }
    if (m_awaitingOutput)
        commit(m_attempt.status);   // it ended without output: the client gets what it said
    m_meter->finish();
    // Whatever is left unterminated in the SSE buffer still goes to the client as it came.
    if (m_sse)
        relay(m_meter->takePendingStream());
    const Wire::Usage usage = m_meter->usage();
    m_attempt.inputTokens = usage.inputTokens;
    m_attempt.outputTokens = usage.outputTokens;
    QString outcome = QStringLiteral("served");
    QString reason;
    const QString handle = current().handle;
    if (m_meter->sawErrorEvent()) {
        outcome = QStringLiteral("error_event");
        reason = m_meter->errorMessage();
        if (m_ctx.health)
            m_ctx.health->recordFailure(handle, current().upstreamModel, Health::Failure::ServerError);
        m_affinity.failed(handle);
    } else if (m_sse && !m_meter->sawEndEvent() && (m_endpoint == Wire::Endpoint::Messages || m_endpoint == Wire::Endpoint::Responses)) {
        // An account at its quota edge often ends a stream early but cleanly: cool it for 10 minutes.
        outcome = QStringLiteral("cut");
        reason = QStringLiteral("the stream ended before the provider's end event; the sharer cools down for 10 minutes");
        if (m_ctx.health)
            m_ctx.health->recordFailure(handle, current().upstreamModel, Health::Failure::CutStream);
        m_affinity.failed(handle);
    } else if (m_attempt.status >= 400) {
        outcome = QStringLiteral("passed_through");
        reason = QStringLiteral("HTTP %1").arg(m_attempt.status);
    } else {
        if (m_ctx.health) {
            m_ctx.health->recordSuccess(handle, m_attempt.ttfbMs);
            // Output tokens per second after the first byte (provider.sort = throughput).
            const qint64 generatingMs = m_ctx.clock->nowMs() - m_attemptStartedMs - qMax<qint64>(0, m_attempt.ttfbMs);
            if (usage.outputTokens > 0 && generatingMs > 0)
                m_ctx.health->recordThroughput(handle, double(usage.outputTokens) * 1000.0 / double(generatingMs));
        }
        // Only an answer that ended cleanly pins its account.
        m_trace.pin = m_affinity.served(handle, current().name, m_meter->reasoningTokens(), m_meter->toolCallIds());
    }
    if (outcome != QLatin1String("passed_through"))
        m_ctx.failing.note(m_key, current().provider, handle, outcome != QLatin1String("served"), m_ctx.clock->nowMs());
    releaseSlot();
    endAttempt(outcome, reason);
    if (m_exchange) {
        if (m_held && m_attempt.status >= 400)
            m_exchange->writeChunk(Wire::errorEvent(m_endpoint, m_attempt.status, QString::fromUtf8(m_meter->takePendingStream())));
        m_exchange->finishStream();
    }
    finish();
}

void ProxyRequest::handleUpstreamFailed(Http::UpstreamError error, const QString &detail)
{
    m_firstByteDeadline.stop();
    m_idleDeadline.stop();
    m_attempt.durationMs = m_ctx.clock->nowMs() - m_attemptStartedMs;
    if (m_committed) {
        // Bytes already reached the client: nothing fails over now. Tell it in the wire's terms.
        const Wire::Usage usage = m_meter->usage();
        m_attempt.inputTokens = usage.inputTokens;
        m_attempt.outputTokens = usage.outputTokens;
        if (m_ctx.health)
            m_ctx.health->recordFailure(current().handle, current().upstreamModel, Health::Failure::Connection);
        m_affinity.failed(current().handle);
        m_ctx.failing.note(m_key, current().provider, current().handle, true, m_ctx.clock->nowMs());
        releaseSlot();
        endAttempt(QStringLiteral("cut"), detail);
        if (m_exchange) {
            if (m_sse || m_held) {
                m_exchange->writeChunk(Wire::errorEvent(m_endpoint, 502, QStringLiteral("the upstream connection broke mid-answer: %1").arg(detail)));
                m_exchange->finishStream();
            } else {
                m_exchange->abortStream();
            }
        }
        finish();
        return;
    }
    failOver(Http::upstreamErrorName(error), detail, Health::Failure::Connection);
}

void ProxyRequest::handleClientGone()
{
    if (m_finished)
        return;
    m_firstByteDeadline.stop();
    m_idleDeadline.stop();
    if (m_call)
        m_call->abort();
    releaseSlot();
    if (m_attempt.seq > 0 && (m_trace.attemptRows.isEmpty() || m_trace.attemptRows.last().seq != m_attempt.seq)) {
        m_attempt.durationMs = m_ctx.clock->nowMs() - m_attemptStartedMs;
        if (m_meter) {
            m_attempt.inputTokens = m_meter->usage().inputTokens;
            m_attempt.outputTokens = m_meter->usage().outputTokens;
        }
        // The client left: nothing counts against the sharer, and nothing is retried.
        endAttempt(QStringLiteral("client_gone"), QStringLiteral("the client disconnected"));
    }
    if (!m_committed && !m_held)
        m_trace.status = 499;
    m_trace.error = QStringLiteral("the client disconnected");
    finish();
}

void ProxyRequest::releaseSlot()
{
    if (m_slotHeld && m_ctx.health && m_pos.target < m_plan.targets.size() && m_pos.candidate >= 0) {
        int &n = m_ctx.health->mutableOf(current().handle).inFlight;
        n = qMax(0, n - 1);
        if (m_ctx.pins)
            m_ctx.pins->slotFreed(current().handle); // a request waiting for this account may go
    }
    m_slotHeld = false;
}

void ProxyRequest::endAttempt(const QString &outcome, const QString &reason)
{
    m_attempt.outcome = outcome;
    m_attempt.reason = reason;
    m_trace.attemptRows.append(m_attempt);
}

void ProxyRequest::failOver(const QString &outcome, const QString &reason, std::optional<Health::Failure> failure, qint64 retryAfterMs)
{
    if (m_call) {
        m_call->disconnect(this);
        m_call->abort();
        m_call->deleteLater();
        m_call = nullptr;
    }
    releaseSlot();
    if (failure && *failure != Health::Failure::Timeout)
        m_ctx.failing.note(m_key, current().provider, current().handle, true, m_ctx.clock->nowMs());
    if (failure && m_ctx.health) {
        const qint64 until = m_ctx.health->recordFailure(current().handle, current().upstreamModel, *failure, retryAfterMs);
        if (m_attempt.status == 429 && until > 0)
            m_earliestRetryMs = m_earliestRetryMs == 0 ? until : qMin(m_earliestRetryMs, until);
    }
    m_failureStatuses.append(m_attempt.status);
    m_affinity.failed(current().handle); // a failing account loses the conversation's pin
    m_lastFailure = QStringLiteral("%1 (%2): %3").arg(current().name, outcome, reason);
    endAttempt(outcome, reason);
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
        const qint64 retry = m_earliestRetryMs > 0 ? m_earliestRetryMs - m_ctx.clock->nowMs() : -1;
        answerError(429, QStringLiteral("every sharer tried for %1 is rate limited; retry later. Last: %2").arg(what, m_lastFailure), {}, retry);
        return;
    }
    if (m_phaseTimedOut) {
        // Seed 003: a limit hit on the last attempt answers 524.
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
    m_trace.status = m_held ? 200 : status;
    m_trace.affinity = m_affinity.verdictFor({});
    m_trace.error = message;
    if (m_exchange && m_held) {
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
    if (m_finished)
        return;
    m_finished = true;
    stopWaiting();
    m_firstByteDeadline.stop();
    m_idleDeadline.stop();
    m_holdDeadline.stop();
    m_keepaliveDeadline.stop();
    m_firstTokenDeadline.stop();
    releaseSlot();
    record();
    if (m_call) {
        m_call->disconnect(this);
        m_call = nullptr;
    }
    deleteLater();
}

void ProxyRequest::record()
{
    if (m_recorded)
        return;
    m_recorded = true;
    const qint64 now = m_ctx.clock->nowMs();
    m_trace.durationMs = now - m_startedMs;
    m_trace.attempts = m_dials;
    QList<Store::LedgerEntry> ledger;
    if (m_committed && m_pos.target < m_plan.targets.size() && m_pos.candidate >= 0) {
        const Routing::Candidate &c = current();
        m_trace.inputTokens = m_attempt.inputTokens;
        m_trace.outputTokens = m_attempt.outputTokens;
        const bool billable = m_attempt.status >= 200 && m_attempt.status < 300 && m_endpoint != Wire::Endpoint::CountTokens;
        if (billable && m_meter && m_meter->usage().known()) {
            const Wire::Usage u = m_meter->usage();
            // Billing uses the band the provider's reported prompt falls in.
            const Catalog::Sharer *sharer = m_ctx.sharer(c.handle);
            std::optional<Billing::Rates> rates = c.rates;
            if (sharer)
                rates = Billing::ratesFor(*sharer, m_ctx.catalog.model(c.provider, c.upstreamModel), c.upstreamModel,
                                          qMax<qint64>(0, u.inputTokens) + u.cacheReadTokens + u.cacheWriteTokens);
            if (rates)
                m_trace.costUsd = Billing::costOf(*rates, u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens);
            // Never charged above the cost cap: the sharer absorbs what the usage adds past it.
            const std::optional<double> cap = target().costCapUsd ? target().costCapUsd : m_plan.costCapUsd;
            if (cap && m_trace.costUsd > *cap) {
                m_trace.absorbedUsd = m_trace.costUsd - *cap;
                m_trace.costUsd = *cap;
            }
        }
        if (billable) {
            Store::LedgerEntry e;
            e.traceId = m_trace.id;
            e.atMs = now;
            e.day = Store::utcDay(now);
            e.keyId = m_key.id;
            e.route = target().route;
            e.target = target().calls.isEmpty() ? target().label() : target().calls;   // a route target's spend: what it calls
            e.sharer = c.handle;
            e.costUsd = m_trace.costUsd;
            e.absorbedUsd = m_trace.absorbedUsd;
            ledger.append(e);
            m_ctx.spend.add(e);   // budgets see it now; the store writer commits it within a transaction
        }
    }
    if (m_ctx.traces)
        m_ctx.traces->add(m_trace, ledger);
}

} // namespace Aile::Dispatch
