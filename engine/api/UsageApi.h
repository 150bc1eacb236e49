#pragma once

#include "ManagementApi.h"

namespace Aile::Api {

/// GET /keys/usage/spend?days=N&key=K: money spent and subscription usage at its list-price
/// value, per day and per sharer, from the ledger (docs/subscriptions.md "What it costs";
/// `aile usage` prints it). Read once the store writer has committed what just finished.
void usageSpend(EngineContext &ctx, const ManagementRequest &request, QObject *context, const ManagementReply &reply);

} // namespace Aile::Api
