#pragma once

#include "Attempt.h"
#include "DispatchServices.h"
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
#include <vector>

namespace Aile {
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
    ProxyRequest(const DispatchServices &services, Http::HttpExchange *exchange, const Keys::ApiKey &key,
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

    /// The request's own state. The legal moves (canMove):
    ///   Created → Dialling | Finished (the plan refused it)
    ///   Dialling → Holding | Relaying | Finished
    ///   Holding → RelayingHeld | Finished
    ///   Relaying, RelayingHeld → Finished
    enum class State
    {
        Created,        // planned, not started
        Dialling,       // attempts run; nothing has reached the client
        Holding,        // the client has a 200 and keepalives while attempts run (the edge hold)
        Relaying,       // an attempt's answer goes out under its own head
        RelayingHeld,   // an attempt's answer goes out into the held 200 stream
        Finished,       // answered and recorded; deleted later
    };
    static bool canMove(State from, State to);
    static const char *stateName(State state);

private:
    struct Position
    {
        int target = 0;
        int candidate = -1;
    };

    /// Moves to next; an illegal move is a bug (asserted in debug builds, logged in release).
    void moveTo(State next);
    /// The client has had a 200 since before any answer existed (the edge hold).
    bool held() const { return m_state == State::Holding || m_state == State::RelayingHeld; }
    bool finished() const { return m_state == State::Finished; }

    /// Dials the next candidate; retryCurrent: looks at the current one again (after a wait).
    void dialNext(bool retryCurrent = false);
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
    /// The attempt's usage, sanity-checked (docs/hardening.md "Upstreams"), into its usage and row.
    void readUsage(Attempt &attempt);
    /// A translated attempt's row names what its request and answer dropped (docs/translation.md).
    void noteAnswerDropped(Attempt &attempt);
    /// An attempt's reason, with the note that its usage was rejected when it was.
    static QString withUsageNote(const Attempt &attempt, const QString &reason);
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
    /// Ends the current attempt and puts its row in the trace.
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
    /// The wire the current target's upstream speaks: the client's unless it is translated.
    Wire::Endpoint upstreamWire() const { return target().translated() ? target().translateTo : m_endpoint; }
    /// Builds m_upstreamBody for the current target; false when a translation refused it (answered).
    bool prepareBody();
    const Routing::Candidate &current() const { return target().candidates.at(m_pos.candidate); }
    qint64 idleLimitMs() const;

    DispatchServices m_s;
    QPointer<Http::HttpExchange> m_exchange;
    Keys::ApiKey m_key;
    Wire::Endpoint m_endpoint;
    QJsonObject m_body;
    bool m_clientStream = false;
    bool m_phaseLimits = false;   // the key's phase limits (docs/keys.md `phaseLimits`)
    Routing::Plan m_plan;
    Routing::ClientKind m_client;
    State m_state = State::Created;

    // The attempts, in the order dialled; the last one is the current one. An ended attempt keeps
    // its facts (the last one's phase timeout decides a 524), its call is gone.
    std::vector<std::unique_ptr<Attempt>> m_attempts;
    Attempt *m_attempt = nullptr;   // the current attempt (m_attempts.back()), null before the first dial
    Attempt *m_served = nullptr;    // the attempt whose answer the client got (committed)
    Position m_pos;
    QString m_bodyFor;            // the target label m_upstreamBody was built for
    QByteArray m_upstreamBody;
    bool m_injectedUsage = false; // m_upstreamBody asks for a usage chunk the client did not
    QStringList m_requestDropped; // what m_upstreamBody left out: what its wire cannot carry, reasoning its provider cannot verify
    bool m_clientWantsUsage = false;   // a translated chat client's stream_options.include_usage
    QStringList m_customTools;         // a translated Responses client's custom tools (apply_patch)
    int m_dials = 0;
    int m_scanned = 0;
    qint64 m_startedMs = 0;
    bool m_recorded = false;
    Deadline m_holdDeadline;
    Deadline m_keepaliveDeadline;
    Deadline m_firstTokenDeadline; // a route's ttftMs, across every sharer tried for one target
    int m_firstTokenTarget = -1;   // the target that deadline runs for
    Store::TraceRecord m_trace;
    QList<int> m_failureStatuses;
    qint64 m_earliestRetryMs = 0;
    QString m_lastFailure;
    // Session affinity (routing/Affinity.h): the verdict, and the wait for a busy pinned account.
    Routing::Affinity m_affinity;
    Deadline m_waitDeadline;
    QString m_waitingFor;         // the busy account this request waits for
    QString m_waitedFor;          // the account it already waited for once
};

/// Records a request refused before routing (malformed body and the like) as a trace row.
void recordRefusedRequest(const DispatchServices &services, const Http::HttpExchange *exchange, const Keys::ApiKey &key,
                          Routing::ClientKind client, int status, const QString &message);

} // namespace Dispatch
} // namespace Aile
