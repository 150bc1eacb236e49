#pragma once

#include "Plan.h"
#include "RequestFacts.h"

namespace Aile::Routing {

class Router;

/// A key's named route (docs/keys.md "Named routes"): its budget, then each target planned as a
/// plain request through router, bound by the target's pin and cap, in the route's order.
Plan planRoute(const Router &router, const RequestFacts &facts, const Keys::Route &route);

} // namespace Aile::Routing
