#include "Attempt.h"

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcDispatch)

namespace Aile::Dispatch {

bool Attempt::canMove(Phase from, Phase to)
{
    switch (from) {
    case Phase::AwaitingHead: return to == Phase::Draining || to == Phase::AwaitingOutput || to == Phase::Ended;
    case Phase::Draining: return to == Phase::Ended;
    case Phase::AwaitingOutput: return to == Phase::Relaying || to == Phase::Ended;
    case Phase::Relaying: return to == Phase::Ended;
    case Phase::Ended: return false;
    }
    return false;
}

const char *Attempt::phaseName(Phase phase)
{
    switch (phase) {
    case Phase::AwaitingHead: return "awaiting_head";
    case Phase::Draining: return "draining";
    case Phase::AwaitingOutput: return "awaiting_output";
    case Phase::Relaying: return "relaying";
    case Phase::Ended: return "ended";
    }
    return "?";
}

Attempt::Attempt(int targetIndex, const Routing::Candidate &candidate, int seq, const QString &targetLabel, qint64 nowMs)
    : m_targetIndex(targetIndex), m_candidate(candidate), m_startedMs(nowMs)
{
    row.seq = seq;
    row.sharer = candidate.handle;
    row.sharerName = candidate.name;
    row.provider = candidate.provider;
    row.model = candidate.upstreamModel;
    row.target = targetLabel;
    row.startedMs = nowMs;
    row.quoteUsd = candidate.quoteUsd.value_or(-1);
}

Attempt::~Attempt() = default;

void Attempt::moveTo(Phase next)
{
    if (!canMove(m_phase, next)) {
        qCCritical(lcDispatch) << "an attempt moved from" << phaseName(m_phase) << "to" << phaseName(next);
        Q_ASSERT_X(false, "Attempt::moveTo", "illegal phase change");
    }
    m_phase = next;
}

void Attempt::dropCall(bool deleteCall)
{
    if (!call)
        return;
    call->abort();
    if (deleteCall)
        call.reset();
}

void Attempt::stopClocks()
{
    firstByteDeadline.stop();
    idleDeadline.stop();
}

const Store::AttemptRecord &Attempt::end(const QString &outcome, const QString &reason)
{
    moveTo(Phase::Ended);
    stopClocks();
    row.outcome = outcome;
    row.reason = reason;
    return row;
}

} // namespace Aile::Dispatch
