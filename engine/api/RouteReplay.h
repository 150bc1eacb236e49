#pragma once

#include "ManagementApi.h"

namespace Aile {
struct EngineContext;

namespace Api {

/// POST /keys/route-replay (docs/replay.md): the key's recorded requests of the last days run
/// through the planner with unsaved routing edits, beside what really happened. The edits are
/// checked here, on the engine thread; the history is read and planned on a pool thread with its
/// own read-only connection, so a long replay never holds up requests. Nothing is sent, charged
/// or written. context guards the late answer.
void routeReplay(EngineContext &context, const ManagementRequest &request, QObject *guard, const ManagementReply &reply);

/// Bodies larger than this are refused: a routing object and one route are small.
constexpr qsizetype RouteReplayMaxBody = 256 * 1024;

} // namespace Api
} // namespace Aile
