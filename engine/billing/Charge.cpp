#include "Charge.h"

namespace Aile::Billing {

Charge chargeFor(const Wire::Usage &usage, const Catalog::Sharer *sharer, const Catalog::ModelInfo *model,
                 const QString &modelId, const std::optional<Rates> &quotedRates,
                 const std::optional<double> &quoteUsd, const std::optional<double> &capUsd)
{
    Charge charge;
    if (!usage.known()) {
        charge.costUsd = quoteUsd.value_or(0);
    } else {
        std::optional<Rates> rates = quotedRates;
        if (sharer)
            rates = ratesFor(*sharer, model, modelId, usage.promptTokens());
        if (rates)
            charge.costUsd = costOf(*rates, usage.uncachedInputTokens(), usage.outputTokens, usage.cacheReadTokens, usage.cacheWriteTokens);
    }
    if (capUsd && charge.costUsd > *capUsd) {
        charge.absorbedUsd = charge.costUsd - *capUsd;
        charge.costUsd = *capUsd;
    }
    return charge;
}

} // namespace Aile::Billing
