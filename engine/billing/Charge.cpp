#include "Charge.h"

#include "SpendBook.h"
#include "store/Store.h"

#include <limits>

namespace Aile::Billing {

namespace {

// The ledger's day of a booking: Store::utcDay formats a date (a QDateTime and a string per
// request, ~1% of the engine thread's samples), and a day has the same name for 86,400,000 ms of
// Unix time, so the name is kept until the day changes. Per thread: a replay books on its own.
QString ledgerDay(qint64 ms)
{
    constexpr qint64 DayMs = 24 * 60 * 60 * 1000;
    const qint64 day = ms >= 0 ? ms / DayMs : -((-ms + DayMs - 1) / DayMs);
    thread_local qint64 namedDay = std::numeric_limits<qint64>::min();
    thread_local QString name;
    if (day != namedDay) {
        name = Store::utcDay(ms);
        namedDay = day;
    }
    return name;
}

} // namespace

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
    e.day = ledgerDay(nowMs);
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
