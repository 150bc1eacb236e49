// The relay side of one proxied request (ProxyRequest.cpp dials, fails over and books): the
// response head, the answer's bytes on their way to the client, the caps on what an upstream may
// make the engine hold, and how an attempt ends: served, cut, protocol error, or client gone.
// docs/hardening.md "Upstreams" states each rule and the test that pins it.
#include "ProxyRequest.h"

#include "billing/Quote.h"
#include "state/EngineContext.h"
#include "http/HttpExchange.h"

#include <QtCore/QDateTime>

#include <utility>

namespace Aile::Dispatch {

namespace {

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
           || n == "retry-after" || n.startsWith("x-ratelimit-") || n.startsWith("anthropic-ratelimit-")
           || n.startsWith("x-codex-primary-") || n.startsWith("x-codex-secondary-");   // the Codex CLI's usage display
}

// The wires whose streams close with an end event of their own ([DONE] or a final finish_reason,
// response.completed, message_stop): a stream of one of them that ends without it was cut.
bool hasEndEvent(Wire::Endpoint endpoint)
{
    return endpoint == Wire::Endpoint::ChatCompletions || endpoint == Wire::Endpoint::Responses
           || endpoint == Wire::Endpoint::Messages;
}

} // namespace

void ProxyRequest::handleHead()
{
    m_firstByteDeadline.stop();
    const qint64 now = m_ctx.clock->nowMs();
    m_attempt.ttfbMs = now - m_attemptStartedMs;
    m_attempt.status = m_call->status();
    // Rate-limit and quota headers: subscription windows (docs/rules/tiers-quota-health.md) and capacity headroom.
    m_ctx.quota.observe(current().handle, m_call->headers(), now);
    if (const double headroom = m_ctx.quota.headroom(current().handle, now); m_ctx.health && headroom >= 0)
        m_ctx.health->setHeadroom(current().handle, headroom);
    m_sse = m_call->headers().value("content-type").startsWith("text/event-stream");
    // From the head on, silence is bounded by the idle timeout, committed or not.
    m_lastActivityMs = now;
    m_idleDeadline.start(m_ctx.clock, idleLimitMs(), this, [this] { handleIdleCheck(); });
    if (failsOver(m_call->status())) {
        m_draining = true; // read the error body, then move on
        return;
    }
    // Nothing reaches the client until it cannot be taken back: a stream's first event (under a
    // route's first-token limit, its first output), a body once it is complete. Until then a
    // failure fails over like any failure before output.
    m_awaitingOutput = true;
    m_untilOutput = m_sse && m_firstTokenDeadline.isActive() && m_call->status() < 300;
    if (!m_sse)
        m_firstTokenDeadline.stop();   // an answer that is not streamed has no first token to wait for
    m_meter = std::make_unique<Wire::ResponseMeter>(m_endpoint, m_sse);
}

void ProxyRequest::commit(int status, qint64 length)
{
    m_committed = true;
    m_awaitingOutput = false;
    m_holdDeadline.stop();
    m_keepaliveDeadline.stop();
    m_firstTokenDeadline.stop();
    m_trace.status = m_held ? 200 : status;
    m_trace.sharer = current().handle;
    m_trace.sharerName = current().name;
    m_trace.modelServed = target().label();
    m_trace.ttfbMs = m_ctx.clock->nowMs() - m_startedMs;
    m_trace.affinity = m_affinity.verdictFor(current().handle);
    if (m_held) {
        relay(std::exchange(m_awaitedBytes, {}));
        return; // the client already has its 200; the answer's events follow the keepalives
    }
    Http::HttpHeaders headers = aileHeaders();
    for (const auto &[name, value] : m_call->headers().entries())
        if (relayedHeader(name))
            headers.add(name, value);
    if (m_sse)
        headers.set("cache-control", "no-cache");
    m_exchange->startStream(status, headers, m_sse ? -1 : length);
    relay(std::exchange(m_awaitedBytes, {}));
}

void ProxyRequest::handleBody(const QByteArray &bytes)
{
    m_lastActivityMs = m_ctx.clock->nowMs();
    if (m_draining) {
        if (m_errorBody.size() < 64 * 1024)
            m_errorBody += bytes.left(64 * 1024 - m_errorBody.size());
        return;
    }
    if (!m_meter || m_finished)
        return;
    if (!m_sse) {
        // Held until complete (at most ResponseMeter::MaxBodyBytes), then relayed in one piece.
        m_meter->feedBody(bytes);
        if (const QString over = m_meter->overLimit(); !over.isEmpty())
            failAttempt(Http::UpstreamError::Protocol, over);
        return;
    }
    QByteArray out;
    bool anEvent = false;
    for (const Wire::SseEvent &ev : m_meter->feedStream(bytes)) {
        anEvent = anEvent || !ev.isComment();
        // The usage-only chunk we asked for on the client's behalf is read, not relayed.
        if (!(m_injectedUsage && ev.usageOnly))
            out += m_echo.event(ev.raw);
    }
    if (const QString over = m_meter->overLimit(); !over.isEmpty()) {
        if (m_committed)
            relay(out);   // the whole events before the oversized one
        failAttempt(Http::UpstreamError::Protocol, over);
        return;
    }
    if (!m_awaitingOutput) {
        relay(out);
        return;
    }
    m_awaitedBytes += out;
    if (m_awaitedBytes.size() > Wire::SseParser::MaxEventBytes) {
        failAttempt(Http::UpstreamError::Protocol, QStringLiteral("the upstream sent more than %1 MiB of events before any output")
                                                       .arg(Wire::SseParser::MaxEventBytes / (1024 * 1024)));
        return;
    }
    const bool ended = m_meter->sawErrorEvent() || m_meter->sawEndEvent();
    if (ended || (m_untilOutput ? m_meter->sawOutput() : anEvent))
        commit(m_attempt.status);
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
        // A spent subscription window: out until the reset the refusal gave, no backoff guessed,
        // and the request moves on at once (docs/subscriptions.md "When a window runs out").
        if (const qint64 reset = status == 429 ? m_ctx.quota.holdRefused(current().handle, current().upstreamModel, m_call->headers(), m_ctx.clock->nowMs()) : 0;
            reset > 0) {
            m_earliestRetryMs = m_earliestRetryMs == 0 ? reset : qMin(m_earliestRetryMs, reset);
            m_affinity.passedOver(current().handle, QStringLiteral("quota_exhausted"));
            // Not a failure of the account: nobody is benched, the window's reset decides.
            failOver(Health::FailureClass{QStringLiteral("failed_over"), std::nullopt, Health::FailureClass::Failing::NotCounted},
                     reason + QStringLiteral(" (subscription window spent until %1)")
                                  .arg(QDateTime::fromMSecsSinceEpoch(reset, Qt::UTC).toString(Qt::ISODate)));
            return;
        }
        // A 404 is the account not serving this model: fail over, bench nobody.
        failOver(Health::classifyErrorHead(status, m_errorBody), reason, retryAfter);
        return;
    }
    if (!m_committed) {
        if (!m_sse && m_held && m_attempt.status < 400) {
            // The client already has a 200 event stream (the edge hold): a whole body is not
            // events, and is never relayed as content. Nothing of it reached the client, so this
            // fails over like any failure before output.
            failAttempt(Http::UpstreamError::Protocol, QStringLiteral("the upstream answered a streamed request with a whole body "
                                                                      "(%1), not events")
                                                           .arg(QString::fromLatin1(m_call->headers().value("content-type"))));
            return;
        }
        if (!m_sse) {
            m_meter->finish();
            const QByteArray body = m_echo.body(m_meter->takeBody());   // auto/: the model the client sent
            commit(m_attempt.status, body.size());
            if (m_held && m_attempt.status >= 400)
                m_heldError = QString::fromUtf8(body.left(300)).simplified();
            else
                relay(body);
        } else if (m_meter->sawEndEvent() || m_meter->sawErrorEvent()) {
            commit(m_attempt.status);   // it ended without output: the client gets what it said
        } else {
            // Not one event came: nothing reached the client, so this fails over like any
            // failure before output.
            failAttempt(Http::UpstreamError::ClosedMidBody, QStringLiteral("the stream ended before its first event"));
            return;
        }
    }
    completeAttempt();
}

void ProxyRequest::completeAttempt()
{
    m_meter->finish();
    readUsage();
    const QString handle = current().handle;
    // An account at its quota edge often ends a stream early but cleanly: it cools for 10 minutes.
    const Health::FailureClass verdict = Health::classifyCompleted(m_meter->sawErrorEvent(),
                                                                   m_sse && !m_meter->sawEndEvent() && hasEndEvent(m_endpoint),
                                                                   m_attempt.status);
    const bool cut = verdict.failure == Health::Failure::CutStream;
    QString reason;
    if (verdict.failure) {
        reason = cut ? QStringLiteral("the stream ended before the provider's end event; the sharer cools down for 10 minutes")
                     : m_meter->errorMessage();
        if (m_ctx.health)
            m_ctx.health->recordFailure(handle, current().upstreamModel, *verdict.failure);
        m_affinity.failed(handle);
    } else if (verdict.failing == Health::FailureClass::Failing::NotCounted) {
        reason = QStringLiteral("HTTP %1").arg(m_attempt.status);   // passed through
    } else {
        if (m_ctx.health) {
            m_ctx.health->recordSuccess(handle, m_attempt.ttfbMs);
            // Output tokens per second after the first byte (provider.sort = throughput).
            const qint64 generatingMs = m_ctx.clock->nowMs() - m_attemptStartedMs - qMax<qint64>(0, m_attempt.ttfbMs);
            if (m_usage.outputTokens > 0 && generatingMs > 0)
                m_ctx.health->recordThroughput(handle, double(m_usage.outputTokens) * 1000.0 / double(generatingMs));
        }
        // Only an answer that ended cleanly pins its account.
        m_trace.pin = m_affinity.served(handle, current().name, m_meter->reasoningTokens(), m_meter->toolCallIds());
    }
    if (verdict.failing != Health::FailureClass::Failing::NotCounted)
        m_ctx.failing.note(m_key, current().provider, handle, verdict.failing == Health::FailureClass::Failing::Failure, m_ctx.clock->nowMs());
    releaseSlot();
    endAttempt(verdict.outcome, withUsageNote(reason));
    if (m_exchange && !m_exchange->isClientGone()) {
        // The bytes of an unterminated event are never relayed as content: the client is told.
        if (cut)
            m_exchange->writeChunk(Wire::errorEvent(m_endpoint, 502, QStringLiteral("the upstream ended the stream before its end event: "
                                                                                     "the answer is incomplete")));
        if (m_held && m_attempt.status >= 400)
            m_exchange->writeChunk(Wire::errorEvent(m_endpoint, m_attempt.status, m_heldError));
        m_exchange->finishStream();
    }
    finish();
}

void ProxyRequest::handleUpstreamFailed(Http::UpstreamError error, const QString &detail)
{
    failAttempt(error, detail);
}

void ProxyRequest::failAttempt(Http::UpstreamError error, const QString &detail)
{
    m_firstByteDeadline.stop();
    m_idleDeadline.stop();
    m_attempt.durationMs = m_ctx.clock->nowMs() - m_attemptStartedMs;
    if (m_call) {
        m_call->disconnect(this);
        m_call->abort();   // a cap hit: stop reading now, and the connection goes
    }
    if (m_committed && m_sse && m_meter->sawEndEvent()) {
        completeAttempt();   // the end event was relayed: served, whatever broke after it
        return;
    }
    const bool protocol = error == Http::UpstreamError::Protocol;
    if (!m_committed) {
        // Nothing the client cannot take back has reached it: the next sharer is tried. A stream
        // that broke after its head and before its first event was still cut.
        failOver(Health::classifyBreakBeforeOutput(error, m_sse, m_attempt.status > 0 && !m_draining), detail);
        return;
    }
    // Bytes already reached the client: nothing fails over now. Tell it in the wire's terms.
    readUsage();
    const Health::FailureClass verdict = Health::classifyBreakAfterOutput(error, m_sse && hasEndEvent(m_endpoint));
    if (m_ctx.health && verdict.failure)
        m_ctx.health->recordFailure(current().handle, current().upstreamModel, *verdict.failure);
    m_affinity.failed(current().handle);
    if (verdict.failing == Health::FailureClass::Failing::Failure)
        m_ctx.failing.note(m_key, current().provider, current().handle, true, m_ctx.clock->nowMs());
    releaseSlot();
    endAttempt(verdict.outcome, withUsageNote(detail));
    if (m_exchange) {
        if (m_sse || m_held) {
            m_exchange->writeChunk(Wire::errorEvent(m_endpoint, 502, protocol ? QStringLiteral("the upstream broke protocol mid-answer: %1").arg(detail)
                                                                     : error == Http::UpstreamError::OutOfMemory ? QStringLiteral("the answer was cut: %1").arg(detail)
                                                                              : QStringLiteral("the upstream connection broke mid-answer: %1").arg(detail)));
            m_exchange->finishStream();
        } else {
            m_exchange->abortStream();
        }
    }
    finish();
}

void ProxyRequest::handleClientGone()
{
    if (m_finished)
        return;
    m_firstByteDeadline.stop();
    m_idleDeadline.stop();
    if (m_call) {
        m_call->disconnect(this);
        m_call->abort();
    }
    if (m_committed && m_sse && m_meter && m_meter->sawEndEvent()) {
        // The answer's end event reached the client before it left: served, whichever close came first.
        completeAttempt();
        return;
    }
    releaseSlot();
    if (m_attempt.seq > 0 && (m_trace.attemptRows.isEmpty() || m_trace.attemptRows.last().seq != m_attempt.seq)) {
        m_attempt.durationMs = m_ctx.clock->nowMs() - m_attemptStartedMs;
        if (m_meter)
            readUsage();
        // The client left: nothing counts against the sharer, and nothing is retried.
        endAttempt(QStringLiteral("client_gone"), withUsageNote(QStringLiteral("the client disconnected")));
    }
    if (!m_committed && !m_held)
        m_trace.status = 499;
    m_trace.error = QStringLiteral("the client disconnected");
    finish();
}

void ProxyRequest::readUsage()
{
    m_usage = m_meter ? m_meter->usage() : Wire::Usage();
    if (m_usage.known()) {
        // More tokens than the model can hold and write is no usage either (the catalogue's figures).
        const QString why = Billing::implausibleUsage(m_usage, m_ctx.catalog.model(current().provider, current().upstreamModel));
        if (!why.isEmpty())
            m_usage.reject(why);
    }
    m_attempt.inputTokens = m_usage.inputTokens;
    m_attempt.outputTokens = m_usage.outputTokens;
}

QString ProxyRequest::withUsageNote(const QString &reason) const
{
    // The flag on the trace: the attempt's reason says the usage was not believed, and why.
    if (m_usage.rejected.isEmpty())
        return reason;
    const QString note = QStringLiteral("usage rejected: %1; charged the quote").arg(m_usage.rejected);
    return reason.isEmpty() ? note : reason + QStringLiteral("; ") + note;
}

} // namespace Aile::Dispatch
