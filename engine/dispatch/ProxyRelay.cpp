// The relay side of one proxied request (ProxyRequest.cpp dials, fails over and books): the
// response head, the answer's bytes on their way to the client, the caps on what an upstream may
// make the engine hold, and how an attempt ends: served, cut, protocol error, or client gone.
// docs/hardening.md "Upstreams" states each rule and the test that pins it.
#include "ProxyRelay.h"

#include "Attempt.h"
#include "DispatchServices.h"
#include "RequestDeadlines.h"
#include "TranslatedBody.h"

#include "health/FailureClass.h"
#include "health/HealthBook.h"
#include "keys/ApiKey.h"
#include "routing/Affinity.h"

#include "health/NodeBook.h"

#include "billing/Quote.h"
#include "billing/SpendBook.h"
#include "catalog/Catalog.h"
#include "catalog/Sharer.h"
#include "core/EngineSettings.h"
#include "health/FailingSharers.h"
#include "health/QuotaBook.h"
#include "http/HttpExchange.h"

#include <QtCore/QDateTime>

#include <cctype>

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
    return n == "content-type" || n == "request-id" || n == "x-request-id" || n == "openai-processing-ms" || n == "retry-after"
           || n.startsWith("x-ratelimit-") || n.startsWith("anthropic-ratelimit-") || n.startsWith("x-codex-primary-")
           || n.startsWith("x-codex-secondary-"); // the Codex CLI's usage display
}

// The wires whose streams close with an end event of their own ([DONE] or a final finish_reason,
// response.completed, message_stop): a stream of one of them that ends without it was cut.
bool hasEndEvent(Wire::Endpoint endpoint)
{
    return endpoint == Wire::Endpoint::ChatCompletions || endpoint == Wire::Endpoint::Responses || endpoint == Wire::Endpoint::Messages;
}

} // namespace

ProxyRelay::ProxyRelay(RelayOwner &owner, const Parts &parts, Http::HttpExchange *exchange) : m_owner(owner), m_p(parts), m_exchange(exchange) { }

void ProxyRelay::handleUpstreamHead()
{
    Attempt &a = *m_owner.currentAttempt();
    a.firstByteDeadline.stop();
    const qint64 now = m_p.services.clock.nowMs();
    a.row.ttfbMs = now - a.startedMs();
    a.row.status = a.call->status();
    const QString &handle = a.candidate().handle;
    // Rate-limit and quota headers: subscription windows (docs/rules/tiers-quota-health.md) and capacity headroom.
    m_p.services.quota.observe(handle, a.call->headers(), now);
    if (const double headroom = m_p.services.quota.headroom(handle, now); m_p.services.health && headroom >= 0)
        m_p.services.health->setHeadroom(handle, headroom);
    a.sse = a.call->headers().value("content-type").startsWith("text/event-stream");
    if (a.candidate().node) {
        // An answer is a message from the node (docs/team.md "Silent nodes"); the trace keeps
        // which of its sharers served and at what price.
        if (m_p.services.nodes)
            m_p.services.nodes->heard(handle, now);
        a.row.nodeSharer = Catalog::normalizeHandle(QString::fromLatin1(a.call->headers().value("x-aile-sharer").left(40)));
        QByteArray price = a.call->headers().value("x-aile-price").left(40);
        price.removeIf([](char ch) { return !(std::isdigit(uchar(ch)) || ch == '.' || ch == '/'); });
        a.row.nodePrice = QString::fromLatin1(price);
    }
    // From the head on, silence is bounded by the idle timeout, committed or not.
    a.lastActivityMs = now;
    m_p.deadlines.armIdle(a);
    if (failsOver(a.call->status())) {
        a.moveTo(Attempt::Phase::Draining); // read the error body, then move on
        return;
    }
    // Nothing reaches the client until it cannot be taken back: a stream's first event (under a
    // route's first-token limit, its first output), a body once it is complete. Until then a
    // failure fails over like any failure before output.
    a.moveTo(Attempt::Phase::AwaitingOutput);
    a.untilOutput = a.sse && m_p.deadlines.firstTokenActive() && a.call->status() < 300;
    if (!a.sse)
        m_p.deadlines.stopFirstToken(); // an answer that is not streamed has no first token to wait for
    a.meter = std::make_unique<Wire::ResponseMeter>(a.wire, a.sse);
    if (a.sse && a.wire != m_p.endpoint) // a translated target: its events are rewritten one by one
        a.translator = std::make_unique<Translate::StreamTranslator>(m_p.endpoint, a.wire, m_p.sent.clientWantsUsage, m_p.sent.customTools);
}

void ProxyRelay::commit(int status, qint64 length)
{
    Attempt &a = *m_owner.currentAttempt();
    a.moveTo(Attempt::Phase::Relaying);
    if (m_owner.answerCommitted(a, status)) {
        relay(std::exchange(a.awaitedBytes, {}));
        return; // the client already has its 200; the answer's events follow the keepalives
    }
    Http::HttpHeaders headers = m_owner.answerHeaders();
    for (const auto &[name, value] : a.call->headers().entries())
        if (relayedHeader(name))
            headers.add(name, value);
    if (a.sse)
        headers.set("cache-control", "no-cache");
    m_exchange->startStream(status, headers, a.sse ? -1 : length);
    relay(std::exchange(a.awaitedBytes, {}));
}

void ProxyRelay::handleUpstreamBody(const QByteArray &bytes)
{
    Attempt &a = *m_owner.currentAttempt();
    a.lastActivityMs = m_p.services.clock.nowMs();
    if (a.phase() == Attempt::Phase::Draining) {
        if (a.errorBody.size() < 64 * 1024)
            a.errorBody += bytes.left(64 * 1024 - a.errorBody.size());
        return;
    }
    if (!a.meter || m_owner.finished())
        return;
    if (!a.sse) {
        // Held until complete (at most ResponseMeter::MaxBodyBytes), then relayed in one piece.
        a.meter->feedBody(bytes);
        if (const QString over = a.meter->overLimit(); !over.isEmpty())
            failAttempt(Http::UpstreamError::Protocol, over);
        return;
    }
    QByteArray out;
    bool anEvent = false;
    for (const Wire::SseEvent &ev : a.meter->feedStream(bytes)) {
        anEvent = anEvent || !ev.isComment();
        // The usage-only chunk we asked for on the client's behalf is read, not relayed.
        if (a.translator)
            out += a.translator->feed(ev);
        else if (!(m_p.sent.injectedUsage && ev.usageOnly))
            out += a.echo.event(ev.raw);
    }
    if (const QString over = a.meter->overLimit(); !over.isEmpty()) {
        if (a.committed())
            relay(out); // the whole events before the oversized one
        failAttempt(Http::UpstreamError::Protocol, over);
        return;
    }
    if (a.phase() != Attempt::Phase::AwaitingOutput) {
        relay(out);
        return;
    }
    a.awaitedBytes += out;
    if (a.awaitedBytes.size() > Wire::SseParser::MaxEventBytes) {
        failAttempt(
            Http::UpstreamError::Protocol,
            QStringLiteral("the upstream sent more than %1 MiB of events before any output").arg(Wire::SseParser::MaxEventBytes / (1024 * 1024)));
        return;
    }
    const bool ended = a.meter->sawErrorEvent() || a.meter->sawEndEvent();
    if (ended || (a.untilOutput ? a.meter->sawOutput() : anEvent))
        commit(a.row.status);
}

void ProxyRelay::relay(const QByteArray &bytes)
{
    if (bytes.isEmpty() || !m_exchange)
        return;
    m_exchange->writeChunk(bytes);
    Attempt *a = m_owner.currentAttempt();
    if (!a || !a->call || m_exchange->pendingBytes() <= Http::HttpExchange::HighWaterBytes)
        return;
    a->call->pauseReading(); // resumed when the exchange tells the request it drained
}

void ProxyRelay::handleDrained()
{
    if (Attempt *a = m_owner.currentAttempt(); a && a->call)
        a->call->resumeReading();
}

void ProxyRelay::handleUpstreamFinished()
{
    Attempt &a = *m_owner.currentAttempt();
    a.stopClocks();
    a.row.durationMs = m_p.services.clock.nowMs() - a.startedMs();
    const QString handle = a.candidate().handle;
    if (a.phase() == Attempt::Phase::Draining) {
        const int status = a.row.status;
        const QString detail = QString::fromUtf8(a.errorBody.left(300)).simplified();
        const QString reason = QStringLiteral("HTTP %1: %2").arg(status).arg(detail);
        const qint64 retryAfter = Health::parseRetryAfterMs(a.call->headers().value("retry-after"), m_p.services.clock.nowMs());
        // A spent subscription window: out until the reset the refusal gave, no backoff guessed,
        // and the request moves on at once (docs/subscriptions.md "When a window runs out").
        if (const qint64 reset =
                status == 429 ? m_p.services.quota.holdRefused(handle, a.candidate().upstreamModel, a.call->headers(), m_p.services.clock.nowMs())
                              : 0;
            reset > 0) {
            m_owner.noteRetryAt(reset);
            m_p.affinity.passedOver(handle, QStringLiteral("quota_exhausted"));
            // Not a failure of the account: nobody is benched, the window's reset decides.
            m_owner.failOver(Health::FailureClass{QStringLiteral("failed_over"), std::nullopt, Health::FailureClass::Failing::NotCounted},
                             reason
                                 + QStringLiteral(" (subscription window spent until %1)")
                                       .arg(QDateTime::fromMSecsSinceEpoch(reset, Qt::UTC).toString(Qt::ISODate)));
            return;
        }
        // A 404 is the account not serving this model: fail over, bench nobody.
        m_owner.failOver(Health::classifyErrorHead(status, a.errorBody), reason, retryAfter);
        return;
    }
    if (!a.committed()) {
        if (!a.sse && m_owner.held() && a.row.status < 400) {
            // The client already has a 200 event stream (the edge hold): a whole body is not
            // events, and is never relayed as content. Nothing of it reached the client, so this
            // fails over like any failure before output.
            failAttempt(Http::UpstreamError::Protocol, QStringLiteral("the upstream answered a streamed request with a whole body "
                                                                      "(%1), not events")
                                                           .arg(QString::fromLatin1(a.call->headers().value("content-type"))));
            return;
        }
        if (!a.sse) {
            a.meter->finish();
            QByteArray body = a.echo.body(a.meter->takeBody()); // auto/: the model the client sent
            if (a.wire != m_p.endpoint)
                body = translateWholeAnswer(m_p.endpoint, a.wire, a.row.status, body, &a.dropped, m_p.sent.customTools);
            const bool intoHeldStream = m_owner.held();
            commit(a.row.status, body.size());
            if (intoHeldStream && a.row.status >= 400)
                a.heldError = QString::fromUtf8(body.left(300)).simplified();
            else
                relay(body);
        } else if (a.meter->sawEndEvent() || a.meter->sawErrorEvent()) {
            commit(a.row.status); // it ended without output: the client gets what it said
        } else {
            // Not one event came: nothing reached the client, so this fails over like any
            // failure before output.
            failAttempt(Http::UpstreamError::ClosedMidBody, QStringLiteral("the stream ended before its first event"));
            return;
        }
    }
    completeAttempt();
}

void ProxyRelay::completeAttempt()
{
    Attempt &a = *m_owner.currentAttempt();
    a.meter->finish();
    readUsage(a);
    const QString handle = a.candidate().handle;
    // An account at its quota edge often ends a stream early but cleanly: it cools for 10 minutes.
    const Health::FailureClass verdict =
        Health::classifyCompleted(a.meter->sawErrorEvent(), a.sse && !a.meter->sawEndEvent() && hasEndEvent(a.wire), a.row.status);
    const bool cut = verdict.failure == Health::Failure::CutStream;
    QString reason;
    if (verdict.failure) {
        reason =
            cut ? QStringLiteral("the stream ended before the provider's end event; the sharer cools down for 10 minutes") : a.meter->errorMessage();
        if (m_p.services.health)
            m_p.services.health->recordFailure(handle, a.candidate().upstreamModel, *verdict.failure);
        m_p.affinity.failed(handle);
    } else if (verdict.failing == Health::FailureClass::Failing::NotCounted) {
        reason = QStringLiteral("HTTP %1").arg(a.row.status); // passed through
    } else {
        if (m_p.services.health) {
            m_p.services.health->recordSuccess(handle, a.row.ttfbMs);
            // Output tokens per second after the first byte (provider.sort = throughput).
            const qint64 generatingMs = m_p.services.clock.nowMs() - a.startedMs() - qMax<qint64>(0, a.row.ttfbMs);
            if (a.usage.outputTokens > 0 && generatingMs > 0)
                m_p.services.health->recordThroughput(handle, double(a.usage.outputTokens) * 1000.0 / double(generatingMs));
        }
        // Only an answer that ended cleanly pins its account.
        m_owner.notePin(m_p.affinity.served(handle, a.candidate().name, a.meter->reasoningTokens(), a.meter->toolCallIds()));
    }
    if (verdict.failing != Health::FailureClass::Failing::NotCounted)
        m_p.services.failing.note(m_p.key, a.candidate().provider, handle, verdict.failing == Health::FailureClass::Failing::Failure,
                                  m_p.services.clock.nowMs());
    m_owner.releaseSlot();
    const bool heldError = m_owner.held() && a.row.status >= 400;
    noteAnswerDropped(a);
    m_owner.endAttempt(verdict.outcome, withUsageNote(a, reason));
    if (m_exchange && !m_exchange->isClientGone()) {
        // The bytes of an unterminated event are never relayed as content: the client is told.
        if (cut)
            m_exchange->writeChunk(Wire::errorEvent(m_p.endpoint, 502,
                                                    QStringLiteral("the upstream ended the stream before its end event: "
                                                                   "the answer is incomplete")));
        if (heldError)
            m_exchange->writeChunk(Wire::errorEvent(m_p.endpoint, a.row.status, a.heldError));
        m_exchange->finishStream();
    }
    m_owner.finish();
}

void ProxyRelay::handleUpstreamFailed(Http::UpstreamError error, const QString &detail)
{
    failAttempt(error, detail);
}

void ProxyRelay::failAttempt(Http::UpstreamError error, const QString &detail)
{
    Attempt &a = *m_owner.currentAttempt();
    a.stopClocks();
    a.row.durationMs = m_p.services.clock.nowMs() - a.startedMs();
    a.dropCall(false); // a cap hit: stop reading now, and the connection goes
    if (a.committed() && a.sse && a.meter->sawEndEvent()) {
        completeAttempt(); // the end event was relayed: served, whatever broke after it
        return;
    }
    const bool protocol = error == Http::UpstreamError::Protocol;
    if (!a.committed()) {
        // Nothing the client cannot take back has reached it: the next sharer is tried. A stream
        // that broke after its head and before its first event was still cut.
        m_owner.failOver(Health::classifyBreakBeforeOutput(error, a.sse, a.row.status > 0 && a.phase() != Attempt::Phase::Draining), detail);
        return;
    }
    // Bytes already reached the client: nothing fails over now. Tell it in the wire's terms.
    readUsage(a);
    const Health::FailureClass verdict = Health::classifyBreakAfterOutput(error, a.sse && hasEndEvent(a.wire));
    if (m_p.services.health && verdict.failure)
        m_p.services.health->recordFailure(a.candidate().handle, a.candidate().upstreamModel, *verdict.failure);
    m_p.affinity.failed(a.candidate().handle);
    if (verdict.failing == Health::FailureClass::Failing::Failure)
        m_p.services.failing.note(m_p.key, a.candidate().provider, a.candidate().handle, true, m_p.services.clock.nowMs());
    m_owner.releaseSlot();
    const bool intoHeldStream = m_owner.held();
    m_owner.endAttempt(verdict.outcome, withUsageNote(a, detail));
    if (m_exchange) {
        if (a.sse || intoHeldStream) {
            m_exchange->writeChunk(Wire::errorEvent(m_p.endpoint, 502,
                                                    protocol ? QStringLiteral("the upstream broke protocol mid-answer: %1").arg(detail)
                                                    : error == Http::UpstreamError::OutOfMemory
                                                        ? QStringLiteral("the answer was cut: %1").arg(detail)
                                                        : QStringLiteral("the upstream connection broke mid-answer: %1").arg(detail)));
            m_exchange->finishStream();
        } else {
            m_exchange->abortStream();
        }
    }
    m_owner.finish();
}

void ProxyRelay::handleClientGone()
{
    if (m_owner.finished())
        return;
    Attempt *a = m_owner.currentAttempt();
    if (a) {
        a->stopClocks();
        a->dropCall(false);
        if (a->committed() && a->sse && a->meter && a->meter->sawEndEvent()) {
            // The answer's end event reached the client before it left: served, whichever close came first.
            completeAttempt();
            return;
        }
    }
    m_owner.releaseSlot();
    if (a && !a->ended()) {
        a->row.durationMs = m_p.services.clock.nowMs() - a->startedMs();
        if (a->meter)
            readUsage(*a);
        // The client left: nothing counts against the sharer, and nothing is retried.
        m_owner.endAttempt(QStringLiteral("client_gone"), withUsageNote(*a, QStringLiteral("the client disconnected")));
    }
    m_owner.noteClientGone();
    m_owner.finish();
}

void ProxyRelay::readUsage(Attempt &a)
{
    a.usage = a.meter ? a.meter->usage() : Wire::Usage();
    if (a.usage.known()) {
        // More tokens than the model can hold and write is no usage either (the catalogue's figures).
        const QString why = Billing::implausibleUsage(a.usage, m_p.services.catalog.model(a.candidate().provider, a.candidate().upstreamModel));
        if (!why.isEmpty())
            a.usage.reject(why);
    }
    a.row.inputTokens = a.usage.inputTokens;
    a.row.outputTokens = a.usage.outputTokens;
}

void ProxyRelay::noteAnswerDropped(Attempt &a)
{
    // What the answer carried that the client wire cannot (reasoning to a chat client, …): the trace says so.
    if (a.wire == m_p.endpoint)
        return;
    QStringList dropped = m_p.sent.dropped;
    for (const QString &d : a.translator ? a.translator->dropped() + a.dropped : a.dropped)
        if (!dropped.contains(d))
            dropped.append(d);
    noteTranslation(a.row.plan, m_p.plan.targets.at(a.targetIndex()).translation, dropped);
}

QString ProxyRelay::withUsageNote(const Attempt &a, const QString &reason)
{
    // The flag on the trace: the attempt's reason says the usage was not believed, and why.
    if (a.usage.rejected.isEmpty())
        return reason;
    const QString note = QStringLiteral("usage rejected: %1; charged the quote").arg(a.usage.rejected);
    return reason.isEmpty() ? note : reason + QStringLiteral("; ") + note;
}

} // namespace Aile::Dispatch
