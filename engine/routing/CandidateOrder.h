#pragma once

#include "Plan.h"
#include "RequestFacts.h"
#include "RoutingServices.h"

namespace Aile::Routing {

/// Candidate ordering (docs/routing.md "Order"): dead keys and degraded sharers last, priority
/// tiers, then price with a tie band and a weighted draw (seeded per session), provider.sort or
/// quota-reset selection; then the key's speed first and demoted sharers.
class CandidateOrder
{
public:
    explicit CandidateOrder(const RoutingServices &services) : m_s(services) { }

    /// The price order with its draw; *sampled is set when a draw broke a tie.
    void order(Target &target, const RequestFacts &facts, bool *sampled) const;
    /// Speed first and the demoted sharers, once the price order is drawn.
    void leverOrder(Target &target, const RequestFacts &facts, bool *bySpeed) const;

private:
    /// The price the order compares: the quote, or the comparison price when its weights are set.
    std::optional<double> sortPrice(const Candidate &c) const;

    const RoutingServices &m_s;
};

} // namespace Aile::Routing
