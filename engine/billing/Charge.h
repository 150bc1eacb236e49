#pragma once

#include "billing/Quote.h"

#include <optional>

namespace Aile::Billing {

/// What one served answer costs its key, and what its sharer absorbs past the cost cap.
struct Charge
{
    double costUsd = 0;
    double absorbedUsd = 0;
    bool subscription = false;   // served on a plan: nothing spent, listValueUsd its worth (PlanValue.h)
    double listValueUsd = 0;
};

/// Prices a served answer. With usage to believe, at the rates of the band the provider's reported
/// prompt falls in (sharer and model known; else the rates the candidate was quoted at; unpriced:
/// 0); without (none reported, or rejected as garbage), the quote the request was admitted on.
/// Never above capUsd: the sharer absorbs what the usage adds past it.
Charge chargeFor(const Wire::Usage &usage, const Catalog::Sharer *sharer, const Catalog::ModelInfo *model,
                 const QString &modelId, const std::optional<Rates> &quotedRates,
                 const std::optional<double> &quoteUsd, const std::optional<double> &capUsd);

} // namespace Aile::Billing
