#pragma once

#include "billing/Quote.h"
#include "store/TraceRecord.h"
#include "wire/Wire.h"

#include <optional>

namespace Aile::Billing {

/// What one served answer costs its key, and what its sharer absorbs past the cost cap.
struct Charge
{
    double costUsd = 0;
    double absorbedUsd = 0;
    bool subscription = false; // served on a plan: nothing spent, listValueUsd its worth (PlanValue.h)
    double listValueUsd = 0;
};

/// Prices a served answer. With usage to believe, at the rates of the band the provider's reported
/// prompt falls in (sharer and model known; else the rates the candidate was quoted at; unpriced:
/// 0); without (none reported, or rejected as garbage), the quote the request was admitted on.
/// Never above capUsd: the sharer absorbs what the usage adds past it.
Charge chargeFor(const Wire::Usage &usage, const Catalog::Sharer *sharer, const Catalog::ModelInfo *model, const QString &modelId,
                 const std::optional<Rates> &quotedRates, const std::optional<double> &quoteUsd, const std::optional<double> &capUsd);

/// Whether an answer is charged at all: a success (2xx) of an endpoint that spends tokens. Counting
/// tokens is free, and an error passed through is the request's own.
bool isCharged(int status, Wire::Endpoint endpoint);

/// Where one served answer's charge is booked: the ledger's keys.
struct ChargeTo
{
    QString traceId;
    QString keyId;
    QString route;  // the route its target belongs to, if any
    QString target; // what the target calls (a route target's spend), else provider/model
    QString sharer;
};

class SpendBook;

/// Books a charge: its ledger row, added to today's spend at once (budgets see it now; the store
/// writer commits the same row within a transaction).
Store::LedgerEntry book(SpendBook &spend, const ChargeTo &to, const Charge &charge, qint64 nowMs);

} // namespace Aile::Billing
