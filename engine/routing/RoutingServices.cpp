#include "RoutingServices.h"

#include "state/EngineContext.h"

namespace Aile::Routing {

RoutingServices RoutingServices::of(const EngineContext &ctx)
{
    return RoutingServices{*ctx.clock, ctx.settings, ctx.routing, ctx.catalog, ctx.sharers, ctx.credentials, ctx.credentialErrors,
                           ctx.health, ctx.quota, ctx.failing, ctx.spend, ctx.draw, ctx.nodes};
}

} // namespace Aile::Routing
