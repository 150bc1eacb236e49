#pragma once

#include "ManagementApi.h"

namespace Aile {
struct EngineContext;

namespace Api {

/// GET /keys/route-template?model=&key= (docs/keys.md "Named routes", the template): one target per
/// provider whose model has the same name (dots and underscores read as dashes), cheapest first,
/// up to 10; near names under `ambiguous`, what the key would refuse under `skipped`. Writes nothing.
void routeTemplate(const EngineContext &context, const ManagementRequest &request, const ManagementReply &reply);

constexpr int RouteTemplateMaxTargets = 10;

} // namespace Api
} // namespace Aile
