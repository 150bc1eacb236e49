#pragma once

#include "Affinity.h"
#include "Router.h"
#include "RoutingServices.h"
#include "SessionEvidence.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>

namespace Aile {
class Clock;

namespace Routing {

class PinBook;

/// One request as the API layer parsed it, for the planner. The pointers must outlive the plan.
struct PlanAsk
{
    /// Who asks: a real request moves round-robin turns and session pins; a dry run and the
    /// sharers listing only read them. The listing plans the one model it names (no fallbacks).
    enum class Purpose { Request, DryRun, Listing };
    Purpose purpose = Purpose::Request;
    Wire::Endpoint endpoint = Wire::Endpoint::Unknown;
    const QJsonObject *body = nullptr; // the client's body, parsed
    QByteArray rawBody;                // as sent (the prompt estimate reads it)
    const Http::HttpHeaders *headers = nullptr;
    const Keys::ApiKey *key = nullptr; // none: the defaults (dry runs and the listing may have none)
};

/// A replay (docs/replay.md) plans a recorded request: its recorded prompt size and session seed
/// stand in for what a body and its headers would say.
struct RecordedFacts
{
    std::optional<qint64> promptTokens;
    std::optional<quint64> drawSeed;
};

/// What the planner made of one request: the body's facts, its session evidence, the key's
/// settings (read once, in facts.keyRouting()), the chain of models, and the plan: per target the
/// removed, unavailable and ordered sharers with their quotes, or the refusal.
struct RequestPlan
{
    QString bodyError; // the body cannot be routed (a malformed model or models, provider.sort): 400, nothing planned
    RequestFacts facts;
    SessionEvidence evidence;
    Plan plan;                // plan.chain: every model a request tries, in order
    Affinity affinity;        // placed in plan (requests and dry runs)
    QJsonObject sent;         // a request's body as it goes upstream: the output cap a cost cap is priced at added
    bool sentChanged = false; // sent differs from the client's body (the client's bytes no longer say it)
};

/// The one place a request is prepared: real requests (ApiRouter), dry runs (POST
/// /keys/route-dry-run, `aile dry-run`) and the sharers listing (GET /sharers) all call it, so
/// they cannot disagree on the chain, the targets or which sharer comes first.
class RequestPlanner
{
public:
    /// routing: what the pipeline reads; turns: the round-robin routes' turns (a request moves
    /// them); pins: the session pins (a request places and moves them; null: none); clock: the pins' time.
    RequestPlanner(const RoutingServices &routing, RouteTurns &turns, PinBook *pins, Clock *clock)
        : m_routing(routing), m_turns(turns), m_pins(pins), m_clock(clock)
    { }
    RequestPlan plan(const PlanAsk &ask, const RecordedFacts &recorded = {}) const;

    /// The body a dry run and the listing price when none is given: a one-line prompt.
    static QJsonObject oneLinePrompt(const QString &model);

private:
    RoutingServices m_routing;
    RouteTurns &m_turns;
    PinBook *m_pins;
    Clock *m_clock;
};

} // namespace Routing
} // namespace Aile
