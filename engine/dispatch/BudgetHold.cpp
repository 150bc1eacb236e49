#include "BudgetHold.h"

#include "core/Clock.h"
#include "keys/ApiKey.h"
#include "keys/KeyRouting.h"
#include "keys/Routes.h"
#include "routing/Router.h"
#include "store/BudgetReservations.h"
#include "store/SqlDialect.h"
#include "store/Store.h"

namespace Aile::Dispatch {

std::optional<BudgetRefusal> holdBudget(Store::Store *store, Clock &clock, const Keys::ApiKey &key, const Routing::Plan &plan,
                                        const QString &requestId)
{
    if (!store || !store->isShared() || plan.targets.isEmpty())
        return std::nullopt;
    const Routing::Target &first = plan.targets.first();
    QList<Store::BudgetLimit> limits;
    if (const auto limit = key.routingSettings().spendLimitUsdPerDay)
        limits.append({QString(), QString(), *limit});
    const std::optional<Keys::Route> route = plan.route.isEmpty() ? std::nullopt : Keys::findRoute(key.routes, plan.route);
    const QString target = first.calls.isEmpty() ? first.label() : first.calls;
    if (route && route->budgetUsdPerDay)
        limits.append({route->name, QString(), *route->budgetUsdPerDay});
    if (route)
        for (const Keys::RouteTarget &t : route->targets)
            if (t.calls() == first.calls && t.budgetUsdPerDay)
                limits.append({route->name, t.calls(), *t.budgetUsdPerDay});
    if (limits.isEmpty())
        return std::nullopt; // no budget to hold against

    double quote = 0;
    for (const Routing::Candidate &c : first.candidates)
        if (c.quoteUsd)
            quote = qMax(quote, *c.quoteUsd);
    const qint64 now = clock.nowMs();
    Store::Reservation r{requestId,
                         Store::utcDay(now),
                         key.id,
                         plan.route,
                         plan.route.isEmpty() ? QString() : target,
                         quote,
                         now + Store::BudgetReservations::LifetimeMs};
    double spent = 0;
    bool failed = store->unreachable();
    Store::BudgetReservations reservations(*store);
    const std::optional<Store::BudgetLimit> reached = failed ? std::nullopt : reservations.reserve(r, limits, now, &spent, &failed);
    if (failed) {
        // A budget held across instances needs the shared store: refused rather than overspent
        // while the engine reconnects (docs/team.md "Losing the database").
        store->setUnreachable(true);
        return BudgetRefusal{503,
                             QStringLiteral("the shared store %1 is unreachable, so this request's spend limit or budget cannot be "
                                            "held across the team's instances and nothing was sent; the engine is reconnecting by "
                                            "itself, retry in a few seconds")
                                 .arg(Store::SqlDialect::redacted(store->path())),
                             QJsonObject{{QStringLiteral("code"), QStringLiteral("store_unreachable")}}};
    }
    if (!reached)
        return std::nullopt;
    const QString money = QStringLiteral("$%1").arg(reached->usd, 0, 'f', 2);
    const QString held = QStringLiteral("$%1").arg(spent, 0, 'f', 2);
    if (reached->route.isEmpty())
        return BudgetRefusal{403,
                             QStringLiteral("this API key has spent or holds for requests in flight %1 of its %2 daily spend limit today (UTC), "
                                            "counting every instance of this team server, so nothing was sent; raise the limit on the key's "
                                            "Routing button or wait for 00:00 UTC")
                                 .arg(held, money),
                             QJsonObject{{QStringLiteral("code"), QStringLiteral("budget_exceeded")}}};
    if (reached->target.isEmpty())
        return BudgetRefusal{402,
                             QStringLiteral("route %1 spent or holds for requests in flight %2 of its %3 daily budget, counting every "
                                            "instance of this team server; resets 00:00 UTC")
                                 .arg(reached->route, held, money),
                             QJsonObject{{QStringLiteral("code"), QStringLiteral("route_budget_spent")}, {QStringLiteral("route"), reached->route}}};
    return BudgetRefusal{402,
                         QStringLiteral("budget spent: target %1 of route %2 spent or holds %3 of its %4 daily budget, counting every "
                                        "instance of this team server; resets 00:00 UTC")
                             .arg(reached->target, reached->route, held, money),
                         QJsonObject{{QStringLiteral("code"), QStringLiteral("budget_spent")}, {QStringLiteral("route"), reached->route}}};
}

} // namespace Aile::Dispatch
