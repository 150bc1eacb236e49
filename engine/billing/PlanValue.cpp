#include "PlanValue.h"

namespace Aile::Billing {

void valueOnPlan(Charge &charge, const Wire::Usage &usage, const Catalog::Sharer *sharer, const Catalog::ModelInfo *model, const QString &modelId,
                 const std::optional<double> &quoteUsd)
{
    if (!sharer || !sharer->isSubscription())
        return;
    charge.subscription = true;
    charge.costUsd = 0;
    charge.absorbedUsd = 0; // a cost cap binds money spent; nothing was
    if (!usage.known()) {
        charge.listValueUsd = quoteUsd.value_or(0);
        return;
    }
    // The catalogue's list prices: a sharer at list, whatever this one's sheet says.
    Catalog::Sharer atList;
    atList.price.mode = Catalog::PriceSheet::Mode::List;
    const std::optional<Rates> rates = ratesFor(atList, model, modelId, usage.promptTokens());
    charge.listValueUsd = rates ? costOf(*rates, usage.uncachedInputTokens(), usage.outputTokens, usage.cacheReadTokens, usage.cacheWriteTokens) : 0;
}

} // namespace Aile::Billing
