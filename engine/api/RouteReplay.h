#pragma once

#include "ManagementApi.h"
#include "replay/Replayer.h"

namespace Aile {
namespace Store {
class Store;
class TraceSink;
} // namespace Store

namespace Api {

/// POST /keys/route-replay (docs/replay.md): the key's recorded requests of the last days run
/// through the planner with unsaved routing edits, beside what really happened. The edits are
/// checked here, on the engine thread; the history is read and planned on a pool thread with its
/// own read-only connection, so a long replay never holds up requests. Nothing is sent, charged
/// or written. context guards the late answer.
class RouteReplayApi : public ManagementComponent
{
public:
    /// live: what the replay copies; store: the recorded history (null: none to replay), read once traces has written.
    RouteReplayApi(const Replay::LiveState &live, Store::Store *store, Store::TraceSink *traces) : m_live(live), m_store(store), m_traces(traces) { }
    bool handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply) override;

private:
    void replay(const ManagementRequest &request, QObject *guard, const ManagementReply &reply) const;

    Replay::LiveState m_live;
    Store::Store *m_store;
    Store::TraceSink *m_traces;
};

/// Bodies larger than this are refused: a routing object and one route are small.
constexpr qsizetype RouteReplayMaxBody = 256 * 1024;

} // namespace Api
} // namespace Aile
