#pragma once

#include "core/Clock.h"
#include "health/FailureClass.h"
#include "health/HealthBook.h"
#include "http/UpstreamClient.h"
#include "keys/ApiKey.h"
#include "routing/Affinity.h"
#include "routing/Router.h"
#include "store/TraceRecord.h"
#include "wire/ModelEcho.h"
#include "wire/ResponseMeter.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>

#include <memory>

namespace Aile {
struct EngineContext;
namespace Http {
class HttpExchange;
}

namespace Dispatch {

/// One proxied request: dials the plan's candidates in order with failover (at most
/// settings.maxDials dispatched, pre-dispatch refusals bounded by settings.scanCap), relays the
/// chosen answer (a stream event by event from its first event, a body once complete; the relay is
/// in ProxyRelay.cpp), holds a slow stream open, and records the trace (one row per attempt and
/// per refusal) and the ledger. It deletes itself when the request is over.
class ProxyRequest : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 PhaseFirstByteMs = 30'000;      // phase limits, a key setting (docs/keys.md `phaseLimits`)
    static constexpr qint64 PhaseBetweenEventsMs = 60'000;
    static constexpr qint64 PhaseWholeAnswerMs = 180'000;
    ProxyRequest(EngineContext &context, Http::HttpExchange *exchange, const Keys::ApiKey &key,
                 Wire::Endpoint endpoint, QJsonObject body, Routing::Plan plan, Routing::ClientKind client);
    ~ProxyRequest() override;

    /// The request's session affinity, placed in the plan before start().
    void setAffinity(Routing::Affinity affinity) { m_affinity = std::move(affinity); }
    /// What a replay of this request will need (docs/replay.md): its session seed and the output cap asked.
    void noteReplayFacts(const QString &session, qint64 maxOutputTokens)
    {
        m_trace.session = session;
        m_trace.maxOutputTokens = maxOutputTokens;
    }
    /// Dials, or answers the plan's error when routing refused the request.
    void start();
    QString traceId() const { return m_trace.id; }

private:
    struct Position
    {
        int target = 0;
        int candidate = -1;
    };

    void dialNext();
    bool advance();
    /// How many attempts this request may dispatch.
    int dialLimit() const;
    void handleHead();
    void handleBody(const QByteArray &bytes);
    void handleUpstreamFinished();
    void handleUpstreamFailed(Http::UpstreamError error, const QString &detail);
    /// Ends the attempt on a failure (the upstream's, or a size cap's): fails over while nothing the
    /// client cannot take back has reached it, else tells the client in the wire's own terms.
    void failAttempt(Http::UpstreamError error, const QString &detail);
    /// Ends an attempt whose answer is over: served, passed through, an error event, or cut.
    void completeAttempt();
    /// The attempt's usage, sanity-checked (docs/hardening.md "Upstreams"), into m_usage and the row.
    void readUsage();
    /// An attempt's reason, with the note that its usage was rejected when it was.
    QString withUsageNote(const QString &reason) const;
    void handleFirstByteTimeout();
    void handleFirstTokenLimit();
    /// A route's first-token limit binds the current target: a streamed request, a target that is
    /// not the last one tried, not self-hosted.
    bool firstTokenLimitApplies() const;
    void handleIdleCheck();
    void handleClientGone();
    void handleDrained();
    void handleHold();
    void sendKeepalive();

    /// Starts the client's answer; length is the body's size when it is complete (not streamed).
    void commit(int status, qint64 length = -1);
    void relay(const QByteArray &bytes);
    void endAttempt(const QString &outcome, const QString &reason);
    void refuseCandidate(const QString &reason, const QString &skip);
    /// Ends the attempt as verdict says (health/FailureClass.h) and dials the next candidate.
    void failOver(const Health::FailureClass &verdict, const QString &reason, qint64 retryAfterMs = -1);
    void answerFailure();
    void answerError(int status, const QString &message, const QJsonObject &extra = {}, qint64 retryAfterMs = -1);
    void releaseSlot();
    bool waitForPinned(const Catalog::Sharer &sharer);
    void stopWaiting();
    void finish();
    /// Books the trace and its ledger row (once): before the answer's last bytes leave, through
    /// HttpExchange::setBeforeLastBytes, so the row is journaled first (docs/hardening.md).
    void record();
    Http::HttpHeaders aileHeaders() const;
    const Routing::Target &target() const { return m_plan.targets.at(m_pos.target); }
    const Routing::Candidate &current() const { return target().candidates.at(m_pos.candidate); }

    EngineContext &m_ctx;
    QPointer<Http::HttpExchange> m_exchange;
    Keys::ApiKey m_key;
    Wire::Endpoint m_endpoint;
    QJsonObject m_body;
    bool m_injectedUsage = false;
    bool m_clientStream = false;
    Routing::Plan m_plan;
    Routing::ClientKind m_client;

    QPointer<Http::UpstreamCall> m_call;
    Position m_pos;
    QString m_bodyFor;            // the target label m_upstreamBody was built for
    QByteArray m_upstreamBody;
    int m_dials = 0;
    int m_scanned = 0;
    qint64 m_startedMs = 0;
    qint64 m_attemptStartedMs = 0;
    qint64 m_lastActivityMs = 0;
    bool m_committed = false;     // an upstream answer is being relayed
    bool m_held = false;          // the client got a 200 and keepalives before any answer existed
    bool m_sse = false;
    bool m_draining = false;      // reading a failed attempt's error body
    bool m_budgetCut = false;     // this attempt ran on a shortened budget
    bool m_phaseLimits = false;   // the key's phase limits (docs/keys.md `phaseLimits`)
    bool m_phaseCut = false;      // this attempt's first-byte deadline is a phase limit
    bool m_phaseTimedOut = false; // the last attempt dialled ran past a phase limit (answers 524)
    qint64 idleLimitMs() const;
    bool m_slotHeld = false;
    bool m_finished = false;
    bool m_recorded = false;
    QByteArray m_errorBody;
    std::unique_ptr<Wire::ResponseMeter> m_meter;
    Wire::ModelEcho m_echo;       // auto/: the answer names the id the client sent (wire/ModelEcho.h)
    Deadline m_firstByteDeadline;
    Deadline m_idleDeadline;
    Deadline m_holdDeadline;
    Deadline m_keepaliveDeadline;
    Deadline m_firstTokenDeadline; // a route's ttftMs, across every sharer tried for one target
    int m_firstTokenTarget = -1;   // the target that deadline runs for
    bool m_awaitingOutput = false; // a head arrived; nothing relayed yet (no event, or a body not complete)
    bool m_untilOutput = false;    // …and under a first-token limit, only output commits
    QByteArray m_awaitedBytes;     // the events read while awaiting output, relayed on commit
    QString m_heldError;           // an error body to send as an event in a held stream
    Wire::Usage m_usage;           // the committed attempt's usage, checked (readUsage)
    Store::TraceRecord m_trace;
    Store::AttemptRecord m_attempt;
    QList<int> m_failureStatuses;
    qint64 m_earliestRetryMs = 0;
    QString m_lastFailure;
    // Session affinity (routing/Affinity.h): the verdict, and the wait for a busy pinned account.
    Routing::Affinity m_affinity;
    Deadline m_waitDeadline;
    QString m_waitingFor;         // the busy account this request waits for
    QString m_waitedFor;          // the account it already waited for once
    bool m_retryCurrent = false;  // dialNext looks at the current candidate again
};

/// Records a request refused before routing (malformed body and the like) as a trace row.
void recordRefusedRequest(EngineContext &context, const Http::HttpExchange *exchange, const Keys::ApiKey &key,
                          Routing::ClientKind client, int status, const QString &message);

} // namespace Dispatch
} // namespace Aile
