#include "FailureClass.h"

namespace Aile::Health {

using Counted = FailureClass::Failing;

FailureClass classifyErrorHead(int status, const QByteArray &errorBody)
{
    FailureClass c{QStringLiteral("failed_over"), std::nullopt, Counted::NotCounted};
    if (status == 401 || status == 403)
        c.failure = Failure::AuthRefused;
    else if ((status == 429 || status == 400) && errorBody.contains("limit: 0"))
        c.failure = Failure::ModelNoQuota; // Google: this key has no quota for this model
    else if (status == 429 || status == 529)
        c.failure = Failure::RateLimited;
    else if (status >= 500 || status == 408)
        c.failure = Failure::ServerError;
    c.failing = c.failure ? Counted::Failure : Counted::NotCounted;
    return c;
}

FailureClass classifyBreakBeforeOutput(Http::UpstreamError error, bool streamed, bool headArrived)
{
    // The machine ran out of memory holding the answer: not the sharer's doing, nobody is benched.
    if (error == Http::UpstreamError::OutOfMemory)
        return {QStringLiteral("out_of_memory"), std::nullopt, Counted::NotCounted};
    if (error == Http::UpstreamError::Protocol)
        return {QStringLiteral("protocol_error"), Failure::ServerError, Counted::Failure};
    if (streamed && headArrived)
        return {QStringLiteral("cut"), Failure::CutStream, Counted::Failure};
    return {Http::upstreamErrorName(error), Failure::Connection, Counted::Failure};
}

FailureClass classifyBreakAfterOutput(Http::UpstreamError error, bool endEventExpected)
{
    if (error == Http::UpstreamError::OutOfMemory)
        return {QStringLiteral("out_of_memory"), std::nullopt, Counted::NotCounted};
    if (error == Http::UpstreamError::Protocol)
        return {QStringLiteral("protocol_error"), Failure::ServerError, Counted::Failure};
    return {QStringLiteral("cut"), endEventExpected ? Failure::CutStream : Failure::Connection, Counted::Failure};
}

FailureClass classifyFirstByteTimeout(bool phaseLimit, bool budgetCut)
{
    if (phaseLimit)
        return {QStringLiteral("phase_limit"), std::nullopt, Counted::NotCounted};
    if (budgetCut)
        return {QStringLiteral("budget_cut"), std::nullopt, Counted::NotCounted};
    // A timeout benches the sharer but is not held against it by a key's failing-sharer count.
    return {QStringLiteral("timeout"), Failure::Timeout, Counted::NotCounted};
}

FailureClass classifyCompleted(bool errorEvent, bool cutBeforeEndEvent, int status)
{
    if (errorEvent)
        return {QStringLiteral("error_event"), Failure::ServerError, Counted::Failure};
    if (cutBeforeEndEvent)
        return {QStringLiteral("cut"), Failure::CutStream, Counted::Failure};
    if (status >= 400)
        return {QStringLiteral("passed_through"), std::nullopt, Counted::NotCounted};
    return {QStringLiteral("served"), std::nullopt, Counted::Success};
}

} // namespace Aile::Health
