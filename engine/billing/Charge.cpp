#include "Charge.h"

#include "SpendBook.h"
#include "store/Store.h"

namespace Aile::Billing {

Charge chargeFor(const Wire::Usage &usage, const Catalog::Sharer *sharer, const Catalog::ModelInfo *model, const QString &modelId,
                 const std::optional<Rates> &quotedRates, const std::optional<double> &quoteUsd, const std::optional<double> &capUsd)
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

bool isCharged(int status, Wire::Endpoint endpoint)
{
    return status >= 200 && status < 300 && endpoint != Wire::Endpoint::CountTokens;
}

Store::LedgerEntry book(SpendBook &spend, const ChargeTo &to, const Charge &charge, qint64 nowMs)
{
    Store::LedgerEntry e;
    e.traceId = to.traceId;
    e.atMs = nowMs;
    e.day = Store::utcDay(nowMs);
    e.keyId = to.keyId;
    e.route = to.route;
    e.target = to.target;
    e.sharer = to.sharer;
    e.costUsd = charge.costUsd;
    e.absorbedUsd = charge.absorbedUsd;
    e.subscription = charge.subscription;
    e.listValueUsd = charge.listValueUsd;
    spend.add(e);
    return e;
}

} // namespace Aile::Billing
