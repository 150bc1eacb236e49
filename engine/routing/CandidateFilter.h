#pragma once

#include "PriceLimits.h"
#include "RoutingServices.h"
#include "health/NodeBook.h"

namespace Aile::Catalog {
struct ModelInfo;
struct Sharer;
} // namespace Aile::Catalog

namespace Aile::Routing {

/// Candidate filtering: the sharers of one provider for one model, each either a candidate with
/// its quote or a refusal naming why it was left out (docs/routing.md "Removal reasons"), and the
/// answer a request gets when none is left.
class CandidateFilter
{
public:
    explicit CandidateFilter(const RoutingServices &services) : m_s(services) { }

    /// The sharers of provider for model that pass every filter, unordered, with the refusals.
    Target filteredTarget(const QString &provider, const QString &model, const RequestFacts &facts, const Limits &limits) const;
    /// A target left with no candidate: the plan's refusal (429 while all are cooling, 503, …).
    void failEmptyTarget(Plan &plan, const Target &target, const Limits &limits) const;

private:
    /// router.models.<model>.providers.<handle>: priority, weight, enabled for one model.
    QJsonObject modelOverride(const QString &model, const Catalog::ModelInfo *info, const QString &handle) const;
    /// A node-backed sharer's listing entry for provider/model, or null (not a node, or its node
    /// does not list it).
    const Health::NodeModel *nodeOffer(const Catalog::Sharer &sharer, const QString &provider, const QStringList &ids) const;
    /// What a node quotes for a model it lists; unset when it names no price.
    static std::optional<Billing::Rates> nodeRates(const Health::NodeModel &listed);

    const RoutingServices &m_s;
};

} // namespace Aile::Routing
