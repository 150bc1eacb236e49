#pragma once

#include "billing/Charge.h"

namespace Aile::Billing {

/// A charge made on a subscription plan (docs/subscriptions.md "What it costs"): the plan is a
/// flat fee paid outside Aile, so serving one more request on it spends nothing. The charge's
/// money becomes 0 and its listValueUsd what the same usage would have cost at the model's list
/// prices in the catalogue (input, output, cache reads and writes; the long-context rate past the
/// model's line), whatever the sharer's own price sheet says. Without usage figures the value is
/// the quote the request was admitted on. A charge on an API-key sharer is left as it is.
void valueOnPlan(Charge &charge, const Wire::Usage &usage, const Catalog::Sharer *sharer, const Catalog::ModelInfo *model, const QString &modelId,
                 const std::optional<double> &quoteUsd);

} // namespace Aile::Billing
