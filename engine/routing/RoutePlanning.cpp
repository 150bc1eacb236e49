// A key's named routes (docs/keys.md "Named routes"): the
// route's budget, then its targets in the route's order, each planned as a plain request for its
// provider/model bound by the key's levers and the target's own pin and cap, the stricter winning.
#include "RoutePlanning.h"

#include "Levers.h"
#include "Router.h"
#include "billing/SpendBook.h"
#include "core/Clock.h"
#include "http/HttpHeaders.h"
#include "keys/ApiKey.h"
#include "store/Store.h"

#include <algorithm>

namespace Aile::Routing {

namespace {

QString dollars(double usd)
{
    // "$5", "$0.25": the budget as the user typed it.
    QString text = QString::number(usd, 'f', 6);
    while (text.endsWith(QLatin1Char('0')))
        text.chop(1);
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return QStringLiteral("$") + text;
}

QString refusalCodeOf(const Plan &p)
{
    if (p.extra.contains(QLatin1String("code")))
        return p.extra.value(QLatin1String("code")).toString();
    const QString by = p.extra.value(QLatin1String("refusedBy")).toString();
    if (by == QLatin1String("x-aile-max-cost"))
        return QStringLiteral("cost_cap");
    if (!by.isEmpty())
        return by;
    switch (p.status) {
    case 404: return QStringLiteral("not_served");
    case 429: return QStringLiteral("cooldown");
    case 503: return QStringLiteral("unavailable");
    default: return QStringLiteral("refused");
    }
}

} // namespace

Plan planRoute(const Router &router, const RequestFacts &facts, const Keys::Route &route)
{
    const RoutingServices &services = router.services();
    Plan out;
    out.route = route.name;
    if (!facts.header("x-aile-provider").trimmed().isEmpty()) {
        out.status = 400;
        out.message = QStringLiteral("%1 is a route of this key, and a route names its own providers; drop x-aile-provider, "
                                     "or send <provider>/<model> to choose the provider yourself")
                          .arg(route.name);
        return out;
    }
    if (auto spent = Levers(services).checkSpendLimit(facts)) {
        spent->route = route.name;
        return *spent;
    }
    const QString day = Store::utcDay(services.clock.nowMs());
    const QString keyId = facts.key->id;
    // A spent route is refused before anything is held or sent; a budget is soft, so what runs
    // when it is reached finishes and counts.
    if (route.budgetUsdPerDay && services.spend.spent(day, keyId, route.name) + 1e-12 >= *route.budgetUsdPerDay) {
        out.status = 402;
        out.message = QStringLiteral("route %1 spent its %2 daily budget; resets 00:00 UTC").arg(route.name, dollars(*route.budgetUsdPerDay));
        out.extra = QJsonObject{{QStringLiteral("code"), QStringLiteral("route_budget_spent")}, {QStringLiteral("route"), route.name}};
        return out;
    }

    // The targets in the route's order; round-robin starts one further on each request.
    QList<int> order;
    for (int i = 0; i < route.targets.size(); ++i)
        order << i;
    if (route.order == Keys::Route::Order::RoundRobin && !order.isEmpty())
        std::rotate(order.begin(), order.begin() + qsizetype(facts.routeTurn % quint64(order.size())), order.end());

    QList<Target> served, refused;
    QStringList spentTargets; // "provider/model ($budget)", for the 402 when every target is spent
    for (const int i : order) {
        const Keys::RouteTarget &rt = route.targets.at(i);
        Target t;
        t.provider = rt.provider;
        t.model = rt.modelId;
        t.calls = rt.calls();
        if (rt.budgetUsdPerDay && services.spend.spent(day, keyId, route.name, t.calls) + 1e-12 >= *rt.budgetUsdPerDay) {
            t.refusalStatus = 402;
            t.refusalCode = QStringLiteral("budget_spent");
            t.refusal =
                QStringLiteral("budget spent: target %1 spent its %2 daily budget; resets 00:00 UTC").arg(rt.model, dollars(*rt.budgetUsdPerDay));
            spentTargets << QStringLiteral("%1 (%2)").arg(t.label(), dollars(*rt.budgetUsdPerDay));
            refused.append(t);
            continue;
        }
        RequestFacts one = facts;
        one.model = rt.model;
        one.route = &route;
        one.routeTarget = &rt;
        const Plan p = router.plan(one);
        if (!p.ok()) {
            // The route moves on to its next target (a cost cap no sharer fits, a body the cap
            // cannot bound, no sharer online, …); the sharers it passed over stay in the trace.
            Target r = p.targets.value(0, t);
            r.calls = t.calls;
            r.refusalStatus = p.status;
            r.refusal = p.message;
            r.refusalCode = refusalCodeOf(p);
            if (p.retryAfterMs >= 0 && (out.retryAfterMs < 0 || p.retryAfterMs < out.retryAfterMs))
                out.retryAfterMs = p.retryAfterMs;
            refused.append(r);
            continue;
        }
        Target s = p.targets.first();
        s.calls = t.calls;
        s.route = route.name;
        out.sampled = out.sampled || p.sampled;
        out.orderedBySpeed = out.orderedBySpeed || p.orderedBySpeed;
        served.append(s);
    }
    if (route.order == Keys::Route::Order::Cheapest) {
        // A target is as cheap as its first sharer; an unpriced one goes after the priced ones.
        std::stable_sort(served.begin(), served.end(), [](const Target &a, const Target &b) {
            const auto qa = a.candidates.first().quoteUsd, qb = b.candidates.first().quoteUsd;
            if (qa.has_value() != qb.has_value())
                return qa.has_value();
            return qa && *qa < *qb;
        });
    }
    out.targets = served + refused;
    // The first-token limit binds routes of two targets or more; the last target is never cut.
    out.ttftMs = route.targets.size() >= 2 ? route.ttftMs : 0;
    out.phaseLimits = route.phaseLimits;
    if (!served.isEmpty()) {
        out.retryAfterMs = -1;
        return out;
    }
    if (spentTargets.size() == refused.size()) {
        out.status = 402;
        out.message = QStringLiteral("every target of route %1 spent its daily budget: %2; resets 00:00 UTC")
                          .arg(route.name, spentTargets.join(QStringLiteral(", ")));
        out.extra = QJsonObject{{QStringLiteral("code"), QStringLiteral("budget_spent")}, {QStringLiteral("route"), route.name}};
        return out;
    }
    // No target can be served: the first refusal that is not a spent budget speaks for the route.
    const Target &first =
        *std::find_if(refused.begin(), refused.end(), [](const Target &t) { return t.refusalCode != QLatin1String("budget_spent"); });
    out.status = first.refusalStatus;
    out.message = route.targets.size() == 1
                      ? first.refusal
                      : QStringLiteral("no target of route %1 can serve this request; %2: %3").arg(route.name, first.label(), first.refusal);
    out.extra = QJsonObject{{QStringLiteral("code"), first.refusalCode}, {QStringLiteral("route"), route.name}};
    if (first.refusalStatus != 429)
        out.retryAfterMs = -1;
    return out;
}

} // namespace Aile::Routing
