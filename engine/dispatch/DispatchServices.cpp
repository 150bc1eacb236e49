#include "DispatchServices.h"

#include "state/EngineContext.h"

namespace Aile::Dispatch {

const Catalog::Sharer *DispatchServices::sharer(const QString &handle) const
{
    const QString h = Catalog::normalizeHandle(handle);
    for (const Catalog::Sharer &s : sharers)
        if (s.handle == h)
            return &s;
    return nullptr;
}

DispatchServices DispatchServices::of(EngineContext &ctx)
{
    return DispatchServices{*ctx.clock, ctx.settings, ctx.catalog, ctx.sharers, ctx.credentials, *ctx.upstream, ctx.health,
                            ctx.quota, ctx.failing, ctx.pins, ctx.spend, ctx.traces, ctx.store, ctx.nodes};
}

} // namespace Aile::Dispatch
