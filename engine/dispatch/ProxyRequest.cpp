#include "ProxyRequest.h"

#include "UpstreamRequestBuilder.h"
#include "core/EngineContext.h"
#include "core/TraceSink.h"
#include "http/HttpExchange.h"
#include "store/Store.h"

#include <QtCore/QLoggingCategory>
#include <QtCore/QRandomGenerator>

Q_LOGGING_CATEGORY(lcDispatch, "aile.engine.dispatch")

namespace Aile::Dispatch {

namespace {

QString newTraceId()
{
    quint64 a = QRandomGenerator::global()->generate64();
    return QStringLiteral("req_") + QString::number(a, 16).rightJustified(16, QLatin1Char('0'));
}

QString priceLabel(const std::optional<Billing::Rates> &rates)
{
    if (!rates)
        return QStringLiteral("unpriced");
    return QStringLiteral("%1/%2").arg(rates->input, 0, 'f', 4).arg(rates->output, 0, 'f', 4);
}

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

} // namespace

ProxyRequest::ProxyRequest(EngineContext &context, Http::HttpExchange *exchange, const Keys::ApiKey &key,
                           Wire::Endpoint endpoint, QJsonObject body, Routing::Plan plan, Routing::ClientKind client)
    : QObject(exchange), m_ctx(context), m_exchange(exchange), m_key(key), m_endpoint(endpoint),
      m_body(std::move(body)), m_plan(std::move(plan)), m_client(client)
{
    m_startedMs = m_ctx.clock->nowMs();
    m_clientStream = m_body.value(QLatin1String("stream")).toBool() && m_endpoint != Wire::Endpoint::CountTokens;
    m_trace.id = newTraceId();
    m_trace.startedMs = m_startedMs;
    m_trace.keyId = key.id;
    m_trace.keyName = key.name;
    m_trace.client = Routing::clientName(client);
    m_trace.endpoint = QString::fromLatin1(exchange->request().path);
    m_trace.modelAsked = m_body.value(QLatin1String("model")).toString();
    m_trace.stream = m_clientStream;
    m_trace.affinity = QStringLiteral("fresh");
    connect(exchange, &Http::HttpExchange::clientGone, this, &ProxyRequest::handleClientGone);
    connect(exchange, &Http::HttpExchange::drained, this, &ProxyRequest::handleDrained);
}

ProxyRequest::~ProxyRequest()
{
    if (m_call)
        m_call->abort();
}

void ProxyRequest::start()
{
    const UpstreamBody body = rewriteBody(m_endpoint, m_body, m_plan.model);
    m_upstreamBody = body.bytes;
    m_injectedUsage = body.injectedUsage;
    for (const Routing::Refusal &r : m_plan.refusals) {
        Store::AttemptRecord a;
        a.seq = int(m_trace.attemptRows.size()) + 1;
        a.sharer = r.handle;
        a.sharerName = r.name;
        a.provider = m_plan.provider;
        a.model = m_plan.model;
        a.outcome = QStringLiteral("refused");
        a.reason = r.reason;
        a.startedMs = m_startedMs;
        a.dispatched = false;
        m_trace.attemptRows.append(a);
    }
    dialNext();
}

void ProxyRequest::dialNext()
{
    if (m_finished)
        return;
    ++m_index;
    if (m_index >= m_plan.candidates.size() || m_dials >= m_ctx.settings.maxDials) {
        answerFailure();
        return;
    }
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
    const Routing::Candidate &c = current();
    const Catalog::Sharer *sharer = m_ctx.sharer(c.handle);
    if (!sharer) {
        dialNext();
        return;
    }
    ++m_dials;
    m_attempt = Store::AttemptRecord();
    m_attempt.seq = int(m_trace.attemptRows.size()) + 1;
    m_attempt.sharer = c.handle;
    m_attempt.sharerName = c.name;
    m_attempt.provider = c.provider;
    m_attempt.model = c.upstreamModel;
    m_attempt.startedMs = now;
    m_attempt.quoteUsd = c.quoteUsd.value_or(-1);
    m_attemptStartedMs = now;
    m_draining = false;
    m_errorBody.clear();
    m_meter = std::make_unique<Wire::ResponseMeter>(m_endpoint, m_clientStream);

    const Http::UpstreamRequest request = buildUpstreamRequest(m_ctx, *sharer, m_endpoint, m_exchange->request(), m_upstreamBody);
    qCDebug(lcDispatch) << m_trace.id << "dialling" << c.handle << request.url.toString(QUrl::RemoveQuery);
    m_call = m_ctx.upstream->send(request, this);
    connect(m_call, &Http::UpstreamCall::headReceived, this, &ProxyRequest::handleHead);
    connect(m_call, &Http::UpstreamCall::bodyData, this, &ProxyRequest::handleBody);
    connect(m_call, &Http::UpstreamCall::finished, this, &ProxyRequest::handleUpstreamFinished);
    connect(m_call, &Http::UpstreamCall::failed, this, &ProxyRequest::handleUpstreamFailed);
    // The connect bound (12 s) is the client's own and sits outside this budget; the budget
    // counts from the dial, so a slow handshake only ever shortens later attempts.
    m_firstByteDeadline.start(m_ctx.clock, budget, this, [this] { handleFirstByteTimeout(); });
}

void ProxyRequest::handleHead()
{
    m_firstByteDeadline.stop();
    const qint64 now = m_ctx.clock->nowMs();
    m_attempt.ttfbMs = now - m_attemptStartedMs;
    m_attempt.status = m_call->status();
    const int status = m_call->status();
    if (failsOver(status)) {
        m_draining = true; // read the error body, then move on
        return;
    }
    commit(status);
}

void ProxyRequest::commit(int status)
{
    m_committed = true;
    const QByteArray contentType = m_call->headers().value("content-type");
    m_sse = contentType.startsWith("text/event-stream");
    m_meter = std::make_unique<Wire::ResponseMeter>(m_endpoint, m_sse);
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
    m_trace.status = status;
    m_trace.sharer = current().handle;
    m_trace.sharerName = current().name;
    m_trace.modelServed = current().provider + QLatin1Char('/') + current().upstreamModel;
    m_trace.ttfbMs = m_ctx.clock->nowMs() - m_startedMs;
    m_exchange->startStream(status, headers, length);
    m_lastActivityMs = m_ctx.clock->nowMs();
    m_idleDeadline.start(m_ctx.clock, m_ctx.settings.idleTimeoutMs, this, [this] { handleIdleCheck(); });
}

Http::HttpHeaders ProxyRequest::aileHeaders() const
{
    Http::HttpHeaders h;
    h.add("x-aile-request-id", m_trace.id.toLatin1());
    h.add("x-aile-attempts", QByteArray::number(m_dials));
    if (m_index >= 0 && m_index < m_plan.candidates.size()) {
        const Routing::Candidate &c = current();
        h.add("x-aile-sharer", c.handle.toLatin1());
        h.add("x-aile-price", priceLabel(c.rates).toLatin1());
        h.add("x-aile-model", (c.provider + QLatin1Char('/') + c.upstreamModel).toUtf8());
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
        const QString reason = QStringLiteral("HTTP %1: %2").arg(m_attempt.status).arg(QString::fromUtf8(m_errorBody.left(300)).simplified());
        failOver(QStringLiteral("failed_over"), reason);
        return;
    }
    m_meter->finish();
    // Whatever is left unterminated in the SSE buffer still goes to the client as it came.
    if (m_sse)
        relay(m_meter->takePendingStream());
    const Wire::Usage usage = m_meter->usage();
    m_attempt.inputTokens = usage.inputTokens;
    m_attempt.outputTokens = usage.outputTokens;
    QString outcome = QStringLiteral("served");
    QString reason;
    if (m_meter->sawErrorEvent()) {
        outcome = QStringLiteral("error_event");
        reason = m_meter->errorMessage();
    } else if (m_sse && !m_meter->sawEndEvent() && (m_endpoint == Wire::Endpoint::Messages || m_endpoint == Wire::Endpoint::Responses)) {
        outcome = QStringLiteral("cut");
        reason = QStringLiteral("the stream ended before the provider's end event");
    } else if (m_attempt.status >= 400) {
        outcome = QStringLiteral("passed_through");
        reason = QStringLiteral("HTTP %1").arg(m_attempt.status);
    }
    endAttempt(outcome, reason);
    if (m_exchange)
        m_exchange->finishStream();
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
        endAttempt(QStringLiteral("cut"), detail);
        if (m_exchange) {
            if (m_sse) {
                m_exchange->writeChunk(Wire::errorEvent(m_endpoint, 502, QStringLiteral("the upstream connection broke mid-answer: %1").arg(detail)));
                m_exchange->finishStream();
            } else {
                m_exchange->abortStream();
            }
        }
        finish();
        return;
    }
    failOver(Http::upstreamErrorName(error), detail);
}

void ProxyRequest::handleFirstByteTimeout()
{
    if (m_committed || !m_call)
        return;
    m_call->abort();
    m_attempt.durationMs = m_ctx.clock->nowMs() - m_attemptStartedMs;
    failOver(m_budgetCut ? QStringLiteral("budget_cut") : QStringLiteral("timeout"),
             QStringLiteral("no response head within %1 ms").arg(m_attempt.durationMs));
}

void ProxyRequest::handleIdleCheck()
{
    if (!m_committed || m_finished)
        return;
    const qint64 idle = m_ctx.clock->nowMs() - m_lastActivityMs;
    if (idle < m_ctx.settings.idleTimeoutMs) {
        m_idleDeadline.start(m_ctx.clock, m_ctx.settings.idleTimeoutMs - idle, this, [this] { handleIdleCheck(); });
        return;
    }
    if (m_call)
        m_call->abort();
    handleUpstreamFailed(Http::UpstreamError::ClosedMidBody,
                         QStringLiteral("the upstream said nothing for %1 s").arg(m_ctx.settings.idleTimeoutMs / 1000));
}

void ProxyRequest::handleClientGone()
{
    if (m_finished)
        return;
    m_firstByteDeadline.stop();
    m_idleDeadline.stop();
    if (m_call)
        m_call->abort();
    if (m_index >= 0 && m_index < m_plan.candidates.size() && m_attempt.seq > 0) {
        m_attempt.durationMs = m_ctx.clock->nowMs() - m_attemptStartedMs;
        if (m_meter) {
            m_attempt.inputTokens = m_meter->usage().inputTokens;
            m_attempt.outputTokens = m_meter->usage().outputTokens;
        }
        endAttempt(QStringLiteral("client_gone"), QStringLiteral("the client disconnected"));
    }
    if (!m_committed)
        m_trace.status = 499;
    m_trace.error = QStringLiteral("the client disconnected");
    finish();
}

void ProxyRequest::endAttempt(const QString &outcome, const QString &reason)
{
    m_attempt.outcome = outcome;
    m_attempt.reason = reason;
    m_trace.attemptRows.append(m_attempt);
}

void ProxyRequest::failOver(const QString &outcome, const QString &reason)
{
    if (m_call) {
        m_call->disconnect(this);
        m_call->abort();
        m_call->deleteLater();
        m_call = nullptr;
    }
    m_failureStatuses.append(m_attempt.status);
    m_lastFailure = QStringLiteral("%1 (%2): %3").arg(current().name, outcome, reason);
    endAttempt(outcome, reason);
    dialNext();
}

void ProxyRequest::answerFailure()
{
    const QString model = m_plan.provider + QLatin1Char('/') + m_plan.model;
    const bool allRateLimited = !m_failureStatuses.isEmpty()
                                && std::all_of(m_failureStatuses.begin(), m_failureStatuses.end(), [](int s) { return s == 429; });
    if (allRateLimited) {
        answerError(429, QStringLiteral("every sharer for %1 is rate limited; retry later. Last: %2").arg(model, m_lastFailure));
        return;
    }
    answerError(503, QStringLiteral("no sharer could serve %1 (%2 tried); last failure: %3")
                         .arg(model).arg(m_dials).arg(m_lastFailure.isEmpty() ? QStringLiteral("none available") : m_lastFailure));
}

void ProxyRequest::answerError(int status, const QString &message, const QJsonObject &extra)
{
    m_trace.status = status;
    m_trace.error = message;
    if (m_exchange) {
        Http::HttpHeaders headers;
        headers.add("content-type", "application/json");
        headers.add("x-aile-request-id", m_trace.id.toLatin1());
        headers.add("x-aile-attempts", QByteArray::number(m_dials));
        m_exchange->respond(status, headers, Wire::errorBody(Wire::errorShapeFor(m_endpoint), status, message, extra));
    }
    finish();
}

void ProxyRequest::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    m_firstByteDeadline.stop();
    m_idleDeadline.stop();
    const qint64 now = m_ctx.clock->nowMs();
    m_trace.durationMs = now - m_startedMs;
    m_trace.attempts = m_dials;
    QList<Store::LedgerEntry> ledger;
    if (m_committed && m_index >= 0) {
        const Routing::Candidate &c = current();
        m_trace.inputTokens = m_attempt.inputTokens;
        m_trace.outputTokens = m_attempt.outputTokens;
        const bool billable = m_attempt.status >= 200 && m_attempt.status < 300 && m_endpoint != Wire::Endpoint::CountTokens;
        if (billable && m_meter && m_meter->usage().known() && c.rates) {
            const Wire::Usage u = m_meter->usage();
            // Billing uses the band the provider's reported prompt falls in.
            const Catalog::Sharer *sharer = m_ctx.sharer(c.handle);
            std::optional<Billing::Rates> rates = c.rates;
            if (sharer)
                rates = Billing::ratesFor(*sharer, m_ctx.catalog.model(c.provider, c.upstreamModel), c.upstreamModel,
                                          qMax<qint64>(0, u.inputTokens) + u.cacheReadTokens + u.cacheWriteTokens);
            if (rates)
                m_trace.costUsd = Billing::costOf(*rates, u.inputTokens, u.outputTokens, u.cacheReadTokens, u.cacheWriteTokens);
        }
        if (billable) {
            Store::LedgerEntry e;
            e.traceId = m_trace.id;
            e.atMs = now;
            e.day = Store::utcDay(now);
            e.keyId = m_key.id;
            e.route = m_trace.route;
            e.target = c.provider + QLatin1Char('/') + c.upstreamModel;
            e.sharer = c.handle;
            e.costUsd = m_trace.costUsd;
            e.absorbedUsd = m_trace.absorbedUsd;
            ledger.append(e);
        }
    }
    if (m_ctx.traces)
        m_ctx.traces->add(m_trace, ledger);
    if (m_call) {
        m_call->disconnect(this);
        m_call = nullptr;
    }
    deleteLater();
}

} // namespace Aile::Dispatch
