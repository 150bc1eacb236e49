#pragma once

#include "PriceLimits.h"
#include "RoutingServices.h"

namespace Aile::Catalog {
struct Sharer;
}

namespace Aile::Keys {
struct KeyRouting;
}

namespace Aile::Routing {

/// Of the refusals that emptied a pool, the one whose filter ruled out the last sharers left
/// (lists, then data policy, capacity, verified, price, cost cap; a header before the key).
const Refusal &tellingRefusal(const QList<Refusal> &refusals);

/// The levers of docs/keys.md beyond price: the sharer and provider lists, the cost cap, data
/// collection, self-hosted capacity and the key's spend limit. Requests, the sharers listing and
/// dry runs read them through the same pipeline (speed first and demoted sharers are ordering:
/// CandidateOrder::leverOrder).
class Levers
{
public:
    explicit Levers(const RoutingServices &services) : m_s(services) { }

    /// Reads the levers' headers and the key's settings into *out (after the price bounds).
    static std::optional<Plan> readLevers(const RequestFacts &facts, Limits *out);
    /// x-aile-capacity node or nodeless against the key's capacity, and the one-machine pin
    /// (x-aile-node, the key's node; docs/team.md).
    static std::optional<Plan> readNodeLevers(const RequestFacts &facts, const Keys::KeyRouting &key, Limits *out);
    /// What a plain request for provider/model must pass before any sharer is looked at: excluded
    /// providers, self-hosted and data-collection policies, and the cases a cost cap cannot bound.
    std::optional<Plan> checkRequest(const RequestFacts &facts, const Limits &limits, const QString &provider, const QString &model) const;
    /// Why the levers leave this sharer out (its refusedBy in *by), or empty.
    QString leverRefusal(const RequestFacts &facts, const Limits &limits, const Catalog::Sharer &sharer, QString *by) const;
    /// The documented answer when the levers emptied a target's pool; nullopt when they did not.
    std::optional<Plan> leverEmptyPlan(const Target &target, const Limits &limits) const;
    /// The key's spend limit for today: a 403 budget_exceeded once it is reached.
    std::optional<Plan> checkSpendLimit(const RequestFacts &facts) const;

private:
    const RoutingServices &m_s;
};

} // namespace Aile::Routing
