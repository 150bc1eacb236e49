#pragma once

#include "ManagementApi.h"

namespace Aile {
class Clock;
namespace State {
struct KeyBook;
}
namespace Store {
class Store;
class StoreReader;
class TraceSink;
} // namespace Store
} // namespace Aile

namespace Aile::Api {

/// Where the usage calls read what was recorded: the store, the trace sink whose writes they wait
/// for, and the engine's store reader (its own thread and connection). All null: an engine that
/// records nothing.
struct History
{
    Store::Store *store = nullptr;
    Store::TraceSink *traces = nullptr;
    Store::StoreReader *reader = nullptr;

    /// Once the trace sink has written what just finished, replies 200 with read(store): on the
    /// reader's thread when it is open, so that a long read (a busy day's ~100,000 ledger rows, a
    /// page of traces) never holds the requests in flight on the engine thread
    /// (docs/performance.md, "Change 23 (history)"); on this thread without one. Nothing when
    /// context is gone first. read runs on another thread: it must capture values only.
    void reply(QObject *context, const char *what, std::function<QJsonObject(const Store::Store &)> read, const ManagementReply &reply) const;
};

/// GET /keys/usage/spend?days=N&key=K: money spent and subscription usage at its list-price
/// value, per day and per sharer, from the ledger (docs/subscriptions.md "What it costs";
/// `aile usage` prints it). Read once the store writer has committed what just finished.
/// keys: the key asked for; history: the ledger (History::reply).
void usageSpend(const Clock &clock, const State::KeyBook &keys, const History &history, const ManagementRequest &request, QObject *context,
                const ManagementReply &reply);

/// The usage calls of the management API: GET /keys/usage/requests (the traces, filtered and
/// paged: limit, offset, since, key, model, sharer, status, q), GET /keys/usage/spend (usageSpend)
/// and GET /keys/usage/charts (usageCharts, ChartsApi.h). Each reads the store once the trace sink
/// has written what just finished.
class UsageApi : public ManagementComponent
{
public:
    /// clock: today; keys: the key asked for and the names the charts show; history: the recorded
    /// traces and ledger.
    UsageApi(const Clock &clock, const State::KeyBook &keys, History history) : m_clock(clock), m_keys(keys), m_history(history) { }
    bool handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply) override;

private:
    void listTraces(const ManagementRequest &request, QObject *context, const ManagementReply &reply);

    const Clock &m_clock;
    const State::KeyBook &m_keys;
    History m_history;
};

} // namespace Aile::Api
