#pragma once

#include "health/HealthBook.h"
#include "http/UpstreamClient.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>

#include <optional>

namespace Aile::Health {

/// What the end of one attempt means, decided in one place (the dispatch asks, then acts): the
/// outcome its trace row carries, the failure the sharer's health records (none: the next sharer
/// is tried and nobody is benched), and whether it counts against the sharer for a key that moves
/// failing sharers back (FailingSharers). tests/engine/routing/TestFailureClass has a row per case.
struct FailureClass
{
    /// What FailingSharers::note is told: nothing, a success (it clears the count) or a failure.
    enum class Failing { NotCounted, Success, Failure };

    QString outcome;                // the attempt row's outcome: failed_over, timeout, cut, ...
    std::optional<Failure> failure; // what HealthBook::recordFailure is told
    Failing failing = Failing::NotCounted;
};

/// An error head (its body read): 401/403 a dead key, 429 or 400 saying "limit: 0" this model's
/// quota, 429/529 rate limited, 5xx and 408 a server error; anything else (a 404: the account does
/// not serve the model) fails over without a failure.
FailureClass classifyErrorHead(int status, const QByteArray &errorBody);

/// The connection broke or the answer could not be parsed, before anything reached the client.
/// streamed: the client asked for a stream; headArrived: a 2xx head came (not an error body being
/// read). A stream that broke after its head was cut.
FailureClass classifyBreakBeforeOutput(Http::UpstreamError error, bool streamed, bool headArrived);

/// The same after bytes reached the client (nothing fails over now). endEventExpected: a stream
/// whose wire has an end event.
FailureClass classifyBreakAfterOutput(Http::UpstreamError error, bool endEventExpected);

/// No head within the first-byte deadline. phaseLimit: the key's own phase limit set it;
/// budgetCut: the request's shortened budget did. Neither benches the sharer.
FailureClass classifyFirstByteTimeout(bool phaseLimit, bool budgetCut);

/// An answer that ended (its connection closed cleanly): an error event, a stream cut before its
/// end event, an error status passed through, or served.
FailureClass classifyCompleted(bool errorEvent, bool cutBeforeEndEvent, int status);

} // namespace Aile::Health
