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
} // namespace Store
} // namespace Aile

namespace Aile::Api {

/// GET /keys/usage/spend?days=N&key=K: money spent and subscription usage at its list-price
/// value, per day and per sharer, from the ledger (docs/subscriptions.md "What it costs";
/// `aile usage` prints it). Read once the store writer has committed what just finished.
/// keys: the key asked for; store and traces: the ledger, read once traces has written (null: nothing recorded).
void usageSpend(const Clock &clock, const State::KeyBook &keys, Store::Store *store, Store::TraceSink *traces, const ManagementRequest &request,
                QObject *context, const ManagementReply &reply);

/// The usage calls of the management API: GET /keys/usage/requests (the traces, filtered and
/// paged: limit, offset, since, key, model, sharer, status, q), GET /keys/usage/spend (usageSpend)
/// and GET /keys/usage/charts (usageCharts, ChartsApi.h). Each reads the store once the trace sink
/// has written what just finished.
class UsageApi : public ManagementComponent
{
public:
    /// clock: today; keys: the key asked for and the names the charts show; store and traces: the
    /// recorded traces and ledger (null: nothing recorded).
    UsageApi(const Clock &clock, const State::KeyBook &keys, Store::Store *store, Store::TraceSink *traces)
        : m_clock(clock), m_keys(keys), m_store(store), m_traces(traces)
    { }
    bool handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply) override;

private:
    void listTraces(const ManagementRequest &request, QObject *context, const ManagementReply &reply);

    const Clock &m_clock;
    const State::KeyBook &m_keys;
    Store::Store *m_store;
    Store::TraceSink *m_traces;
};

} // namespace Aile::Api
