#pragma once

#include "Plan.h"
#include "PriceLimits.h"
#include "RequestFacts.h"
#include "RoutingServices.h"

#include <QtCore/QStringList>

namespace Aile::Routing {

/// Request → ordered candidates: the one pipeline that requests, dry runs and the sharers
/// listing share (through RequestPlanner), so they never disagree. It resolves the model the
/// request names (a named route: RoutePlanning.h; auto/: every provider listing it), reads the
/// price limits and levers (PriceLimits.h, Levers.h), filters each target's sharers
/// (CandidateFilter.h) and orders them (CandidateOrder.h).
class Router
{
public:
    explicit Router(const RoutingServices &services) : m_s(services) { }
    Plan plan(const RequestFacts &facts) const;
    /// A fallback chain: the body's `models` (else `model`, else routing.default_model),
    /// then routing.fallback_models, cut to the first three; each planned in turn and their
    /// targets tried in order, with at most three attempts across them. One model plans as plan().
    /// accountChain false: the account's default and fallbacks are left out (the sharers listing
    /// plans the one model it names).
    Plan planChain(const RequestFacts &facts, const QStringList &models, bool accountChain = true) const;
    static constexpr int MaxChainModels = 3;
    static constexpr int MaxAnyProviders = 6;

    /// The sharers of one provider for one model, filtered, unordered (the levers read from facts).
    Target target(const QString &provider, const QString &model, const RequestFacts &facts) const;

    const RoutingServices &services() const { return m_s; }

private:
    Plan planAnyProvider(const RequestFacts &facts, const QString &bareId, const QStringList &limitTo) const;

    RoutingServices m_s;
};

} // namespace Aile::Routing
