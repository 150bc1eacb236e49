#pragma once

#include "core/Clock.h"
#include "http/UpstreamClient.h"
#include "routing/Router.h"
#include "store/TraceRecord.h"
#include "translate/Translation.h"
#include "wire/ModelEcho.h"
#include "wire/ResponseMeter.h"

#include <memory>

namespace Aile::Dispatch {

/// One dial of one sharer (Envoy's UpstreamRequest is the model): it owns its upstream call, its
/// meter, its first-byte and idle deadlines and its trace row. A plain object owned by its
/// ProxyRequest (no QObject per attempt); the request's relay hears the call's events (it is the
/// call's listener) and decides what the attempt's end means (fail over, serve, cut). Its row
/// joins the trace when it ends.
class Attempt
{
public:
    /// Where an attempt is. The legal moves: AwaitingHead → Draining | AwaitingOutput | Ended;
    /// Draining → Ended; AwaitingOutput → Relaying | Ended; Relaying → Ended.
    enum class Phase {
        AwaitingHead,   // dialled; no response head yet (the first-byte deadline runs)
        Draining,       // a head that fails over: its error body is read, then the next sharer
        AwaitingOutput, // a head to relay; nothing relayed yet (no event, or a body not complete)
        Relaying,       // committed: its answer is the client's
        Ended,          // its row is in the trace
    };
    static bool canMove(Phase from, Phase to);
    static const char *phaseName(Phase phase);

    /// seq: the row's place in the trace; targetLabel: the target it serves when the trace names
    /// targets (a route, a chain), else empty.
    Attempt(int targetIndex, const Routing::Candidate &candidate, int seq, const QString &targetLabel, qint64 nowMs);
    ~Attempt();
    Attempt(const Attempt &) = delete;
    Attempt &operator=(const Attempt &) = delete;

    Phase phase() const { return m_phase; }
    /// Moves to next; an illegal move is a bug (asserted in debug builds, logged in release).
    void moveTo(Phase next);
    bool ended() const { return m_phase == Phase::Ended; }
    bool committed() const { return m_phase == Phase::Relaying; }

    int targetIndex() const { return m_targetIndex; }
    const Routing::Candidate &candidate() const { return m_candidate; }
    qint64 startedMs() const { return m_startedMs; }

    /// Aborts the call: its listener hears nothing more. deleteCall: deletes it too (at once, from
    /// inside one of its own events as well); otherwise its head stays readable until the attempt goes.
    void dropCall(bool deleteCall);
    /// Stops the attempt's own clocks (first byte, idle).
    void stopClocks();
    /// Ends the attempt: its outcome and reason on its row, which is returned for the trace.
    const Store::AttemptRecord &end(const QString &outcome, const QString &reason);

    std::unique_ptr<Http::UpstreamCall> call;
    std::unique_ptr<Wire::ResponseMeter> meter;
    Wire::ModelEcho echo; // auto/: the answer names the id the client sent (wire/ModelEcho.h)
    Deadline firstByteDeadline;
    Deadline idleDeadline;
    Store::AttemptRecord row;
    Wire::Usage usage; // its usage once read, checked (ProxyRequest::readUsage)
    qint64 lastActivityMs = 0;
    bool sse = false;           // the head said text/event-stream
    bool budgetCut = false;     // dialled on what was left of the first-byte budget
    bool phaseCut = false;      // its first-byte deadline is a phase limit
    bool phaseTimedOut = false; // it ran past a phase limit (the request answers 524 when it is the last)
    bool untilOutput = false;   // awaiting output under a first-token limit: only output commits
    bool slotHeld = false;      // counted in its sharer's in-flight slots
    QByteArray errorBody;       // a draining head's body, at most 64 KiB
    QByteArray awaitedBytes;    // the events read while awaiting output, relayed on commit
    QString heldError;          // an error body to send as an event in a held stream
    // A translated target (docs/translation.md): the wire the upstream speaks, its stream's
    // translator (event by event), and what the answer carried that the client wire cannot.
    Wire::Endpoint wire = Wire::Endpoint::Unknown;
    std::unique_ptr<Translate::StreamTranslator> translator;
    QStringList dropped;

private:
    int m_targetIndex;
    const Routing::Candidate &m_candidate; // in the request's plan, which never changes
    qint64 m_startedMs;
    Phase m_phase = Phase::AwaitingHead;
};

} // namespace Aile::Dispatch
