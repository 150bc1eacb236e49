#pragma once

#include "ManagementApi.h"

namespace Aile {
namespace State {
struct KeyBook;
struct SharerBook;
}

namespace Api {

/// GET /keys/route-template?model=&key= (docs/keys.md "Named routes", the template): one target per
/// provider whose model has the same name (dots and underscores read as dashes), cheapest first,
/// up to 10; near names under `ambiguous`, what the key would refuse under `skipped`. Writes nothing.
/// keys: the key whose settings filter the targets; sharers: the catalogue and who serves each model.
void routeTemplate(const State::KeyBook &keys, const State::SharerBook &sharers, const ManagementRequest &request, const ManagementReply &reply);

constexpr int RouteTemplateMaxTargets = 10;

} // namespace Api
} // namespace Aile
