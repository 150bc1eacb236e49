#pragma once

#include "Attempt.h"
#include "DispatchServices.h"
#include "ProxyRelay.h"
#include "RequestDeadlines.h"
#include "RequestTrace.h" // recordRefusedRequest, for the API layer
#include "SentBody.h"
#include "core/Clock.h"
#include "health/FailureClass.h"
#include "health/HealthBook.h"
#include "http/HttpExchange.h"
#include "http/UpstreamClient.h"
#include "keys/ApiKey.h"
#include "routing/Affinity.h"
#include "routing/Router.h"
#include "store/TraceRecord.h"
#include "wire/ModelEcho.h"
#include "wire/ResponseMeter.h"

#include <QtCore/QObject>

#include <memory>
#include <vector>

namespace Aile {
namespace Dispatch {

/// One proxied request: dials the plan's candidates in order with failover (at most
/// settings.maxDials dispatched, pre-dispatch refusals bounded by settings.scanCap), hands the
/// chosen answer to its relay (ProxyRelay: a stream event by event from its first event, a body
/// once complete), holds a slow stream open (its clocks are RequestDeadlines), and records the
/// trace (one row per attempt and per refusal) and the ledger. It is its exchange's listener and
/// goes with it (exchangeEnded) when the connection retires the answered exchange, or deletes
/// itself when the request is over before the exchange is (finish()). Its own state is the small
/// state machine below.
class ProxyRequest : public QObject, private RelayOwner, private DeadlineOwner, private Http::ExchangeListener
{
    Q_OBJECT
public:
    ProxyRequest(const DispatchServices &services, Http::HttpExchange *exchange, const Keys::ApiKey &key, Wire::Endpoint endpoint, QJsonObject body,
                 Routing::Plan plan, Routing::ClientKind client);
    ~ProxyRequest() override;

    /// The request's session affinity, placed in the plan before start().
    void setAffinity(Routing::Affinity affinity) { m_affinity = std::move(affinity); }
    /// What a replay of this request will need (docs/replay.md): its session seed and the output cap asked.
    void noteReplayFacts(const QString &session, qint64 maxOutputTokens)
    {
        m_trace.session = session;
        m_trace.maxOutputTokens = maxOutputTokens;
    }
    /// The bytes the body was parsed from, when the body is exactly what they say: what goes
    /// upstream is then those bytes with the model spliced in (SentBody, rewriteBody).
    void setClientBytes(const QByteArray &bytes) { m_clientBytes = bytes; }
    /// Dials, or answers the plan's error when routing refused the request.
    void start();
    QString traceId() const { return m_trace.id; }

    /// The request's own state. The legal moves (canMove):
    ///   Created → Dialling | Finished (the plan refused it)
    ///   Dialling → Holding | Relaying | Finished
    ///   Holding → RelayingHeld | Finished
    ///   Relaying, RelayingHeld → Finished
    enum class State {
        Created,      // planned, not started
        Dialling,     // attempts run; nothing has reached the client
        Holding,      // the client has a 200 and keepalives while attempts run (the edge hold)
        Relaying,     // an attempt's answer goes out under its own head
        RelayingHeld, // an attempt's answer goes out into the held 200 stream
        Finished,     // answered and recorded; deleted later
    };
    static bool canMove(State from, State to);
    static const char *stateName(State state);
    /// Requests that exist on any thread (tests: none is left behind).
    static int live();

private:
    struct Position
    {
        int target = 0;
        int candidate = -1;
    };

    /// Moves to next; an illegal move is a bug (asserted in debug builds, logged in release).
    void moveTo(State next);

    /// Dials the next candidate; retryCurrent: looks at the current one again (after a wait).
    void dialNext(bool retryCurrent = false);
    bool advance();
    /// How many attempts this request may dispatch.
    int dialLimit() const;
    /// A route's first-token limit binds the current target: a streamed request, a target that is
    /// not the last one tried, not self-hosted.
    bool firstTokenLimitApplies() const;
    bool waitForPinned(const Catalog::Sharer &sharer);
    void refuseCandidate(const QString &reason, const QString &skip);
    void answerFailure();
    void answerError(int status, const QString &message, const QJsonObject &extra = {}, qint64 retryAfterMs = -1);
    /// Books the trace and its ledger row (once): before the answer's last bytes leave, through
    /// HttpExchange::setBeforeLastBytes, so the row is journaled first (docs/hardening.md).
    void record();
    const Routing::Target &target() const { return m_plan.targets.at(m_pos.target); }
    /// The wire the current target's upstream speaks: the client's unless it is translated.
    Wire::Endpoint upstreamWire() const { return target().translated() ? target().translateTo : m_endpoint; }
    const Routing::Candidate &current() const { return target().candidates.at(m_pos.candidate); }

    // RelayOwner: what the relay asks of the request.
    Attempt *currentAttempt() const override { return m_attempt; }
    bool held() const override { return m_state == State::Holding || m_state == State::RelayingHeld; }
    bool finished() const override { return m_state == State::Finished; }
    bool answerCommitted(Attempt &attempt, int status) override;
    Http::HttpHeaders answerHeaders() const override;
    void failOver(const Health::FailureClass &verdict, const QString &reason, qint64 retryAfterMs = -1) override;
    void noteRetryAt(qint64 atMs) override;
    void endAttempt(const QString &outcome, const QString &reason) override;
    void releaseSlot() override;
    void notePin(const QJsonObject &pin) override { m_trace.pin = pin; }
    void noteClientGone() override;
    void finish() override;

    // ExchangeListener: the client's side.
    void exchangeDrained() override { m_relay.handleDrained(); }
    void exchangeClientGone() override { m_relay.handleClientGone(); }
    void exchangeEnded() override;

    // DeadlineOwner: what the request does when a clock runs out.
    bool holdDue() override;
    bool keepaliveDue() override;
    void firstByteTimedOut() override;
    void firstTokenLimitHit() override;
    void idleLimitHit(qint64 limitMs) override;
    void waitOver() override;

    DispatchServices m_s;
    Http::HttpExchange *m_exchange; // null once it is deleted (exchangeEnded)
    Keys::ApiKey m_key;
    Wire::Endpoint m_endpoint;
    QJsonObject m_body;
    QByteArray m_clientBytes; // empty: the planner changed the body (a cost cap's output cap)
    bool m_clientStream = false;
    Routing::Plan m_plan;
    Routing::ClientKind m_client;
    State m_state = State::Created;

    // The attempts, in the order dialled; the last one is the current one. An ended attempt keeps
    // its facts (the last one's phase timeout decides a 524), its call is gone.
    std::vector<std::unique_ptr<Attempt>> m_attempts;
    Attempt *m_attempt = nullptr; // the current attempt (m_attempts.back()), null before the first dial
    Attempt *m_served = nullptr;  // the attempt whose answer the client got (committed)
    Position m_pos;
    SentBody m_sent; // what goes upstream for the current target
    int m_dials = 0;
    int m_scanned = 0;
    qint64 m_startedMs = 0;
    bool m_recorded = false;
    Store::TraceRecord m_trace; // handed to the trace sink by record(); not read after
    QList<int> m_failureStatuses;
    qint64 m_earliestRetryMs = 0;
    QString m_lastFailure;
    // Session affinity (routing/Affinity.h): the verdict, and the wait for a busy pinned account.
    Routing::Affinity m_affinity;
    RequestDeadlines m_deadlines;
    ProxyRelay m_relay;
};

} // namespace Dispatch
} // namespace Aile
