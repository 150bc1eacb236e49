#pragma once

#include "ManagementApi.h"

namespace Aile {
class Clock;
namespace State {
struct KeyBook;
}
namespace Store {
class Store;
class TraceSink;
}
}

namespace Aile::Api {

/// GET /keys/usage/spend?days=N&key=K: money spent and subscription usage at its list-price
/// value, per day and per sharer, from the ledger (docs/subscriptions.md "What it costs";
/// `aile usage` prints it). Read once the store writer has committed what just finished.
/// keys: the key asked for; store and traces: the ledger, read once traces has written (null: nothing recorded).
void usageSpend(const Clock &clock, const State::KeyBook &keys, Store::Store *store, Store::TraceSink *traces, const ManagementRequest &request, QObject *context, const ManagementReply &reply);

} // namespace Aile::Api
