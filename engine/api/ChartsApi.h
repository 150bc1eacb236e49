#pragma once

#include "UsageApi.h" // the other usage endpoint: the same services, declared there

namespace Aile::Api {

/// GET /keys/usage/charts?minutes=M&days=N&now=MS: what the Charts page draws (api/values/
/// ChartFigures.h), summed by the engine from its own store, so a window attached to this engine
/// over HTTP draws the charts the engine's own window would (docs/management-api.md, "Charts").
/// history: the engine's (History::reply; nothing recorded: the figures are empty).
void usageCharts(const Clock &clock, const State::KeyBook &keys, const History &history, const ManagementRequest &request, QObject *context,
                 const ManagementReply &reply);

} // namespace Aile::Api
