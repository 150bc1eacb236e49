#include "Routes.h"

#include "KeyRouting.h"
#include "catalog/Catalog.h"
#include "catalog/Sharer.h"

#include <QtCore/QSet>

#include "JsonRead.h"

#include <cmath>

namespace Aile::Keys {

namespace {

bool validBudget(const QJsonValue &v)
{
    return v.isDouble() && std::isfinite(v.toDouble()) && v.toDouble() > 0 && v.toDouble() <= 1'000'000;
}

// Reads one target; returns the error message, with where the target sits in its route.
QString checkTarget(const QJsonValue &value, const QString &where, const Catalog::Catalog *catalog, const QList<Catalog::Sharer> *sharers,
                    QJsonObject *out)
{
    if (!value.isObject())
        return QStringLiteral("%1 must be an object such as {\"model\": \"claude/claude-sonnet-5\"}").arg(where);
    const QJsonObject in = value.toObject();
    static const QStringList fields{QStringLiteral("model"), QStringLiteral("sharer"), QStringLiteral("maxCostUsd"),
                                    QStringLiteral("budgetUsdPerDay"), QStringLiteral("translate")};
    for (auto it = in.begin(); it != in.end(); ++it)
        if (!fields.contains(it.key()))
            return QStringLiteral("%1: \"%2\" is not a target setting; a target takes %3. The sharer lists and data collection "
                                  "cover the whole key, so a target cannot carry its own")
                .arg(where, it.key(), fields.join(QStringLiteral(", ")));
    const QString model = in.value(QLatin1String("model")).toString().trimmed();
    if (model.isEmpty())
        return QStringLiteral("%1 needs a \"model\" written <provider>/<model>, such as claude/claude-sonnet-5").arg(where);
    if (model.startsWith(QLatin1String("auto/"), Qt::CaseInsensitive))
        return QStringLiteral("%1 is %2, but a route target names its own provider, so auto/ cannot be one; write <provider>/%3, "
                              "or send auto/%3 as the model instead of the route to have the providers chosen per request")
            .arg(where, model, model.mid(5));
    const qsizetype slash = model.indexOf(QLatin1Char('/'));
    if (slash <= 0 || slash == model.size() - 1)
        return QStringLiteral("%1 is \"%2\"; write it as <provider>/<model>, such as claude/claude-sonnet-5").arg(where, model);
    const QString provider = model.left(slash).toLower();
    if (catalog && !catalog->provider(provider))
        return QStringLiteral("%1 names provider \"%2\", which is not known; GET /catalog lists the providers").arg(where, provider);
    QJsonObject t{{QStringLiteral("model"), QString(provider + model.mid(slash))}};

    const QJsonValue sharerValue = in.value(QLatin1String("sharer"));
    if (!sharerValue.isNull() && !sharerValue.isUndefined() && !(sharerValue.isString() && sharerValue.toString().trimmed().isEmpty())) {
        const QString handle = Catalog::normalizeHandle(sharerValue.toString());
        if (handle.isEmpty())
            return QStringLiteral("%1: sharer %2 is not a sharer handle; handles are L followed by 16 hex digits")
                .arg(where, describeValue(sharerValue));
        if (sharers) {
            const auto s = std::find_if(sharers->begin(), sharers->end(), [&](const Catalog::Sharer &x) { return x.handle == handle; });
            if (s == sharers->end())
                return QStringLiteral("%1 is pinned to sharer %2, which is not added; GET /sharers lists them").arg(where, handle);
            if (s->provider != provider)
                return QStringLiteral("%1 is pinned to sharer %2, a %3 sharer, but targets provider %4; pin a %4 sharer or none")
                    .arg(where, handle, s->provider, provider);
        }
        t.insert(QStringLiteral("sharer"), handle);
    }
    const QJsonValue cap = in.value(QLatin1String("maxCostUsd"));
    if (!cap.isNull() && !cap.isUndefined()) {
        const std::optional<double> dollars = cap.isDouble() && validCostUsd(cap.toDouble()) ? std::optional<double>(cap.toDouble())
                                              : cap.isString()                               ? parseCostUsd(cap.toString())
                                                                                             : std::nullopt;
        if (!dollars)
            return QStringLiteral("%1: maxCostUsd %2 is not a cost cap; give dollars above 0 and at most 10,000, with at most 6 decimals (0.5)")
                .arg(where, describeValue(cap));
        t.insert(QStringLiteral("maxCostUsd"), *dollars);
    }
    const QJsonValue budget = in.value(QLatin1String("budgetUsdPerDay"));
    if (!budget.isNull() && !budget.isUndefined()) {
        if (!validBudget(budget))
            return QStringLiteral("%1: budgetUsdPerDay %2 must be dollars a day above 0 and at most 1,000,000").arg(where, describeValue(budget));
        t.insert(QStringLiteral("budgetUsdPerDay"), budget.toDouble());
    }
    // Off unless asked: a provider of another wire is a 404 without it (docs/translation.md).
    const QJsonValue translate = in.value(QLatin1String("translate"));
    if (!translate.isNull() && !translate.isUndefined()) {
        if (!translate.isBool())
            return QStringLiteral("%1: translate %2 must be true or false").arg(where, describeValue(translate));
        if (translate.toBool())
            t.insert(QStringLiteral("translate"), true);
    }
    *out = t;
    return {};
}

QString checkRoute(const QJsonValue &value, int index, const Catalog::Catalog *catalog, const QList<Catalog::Sharer> *sharers, QSet<QString> *names,
                   QJsonObject *out)
{
    if (!value.isObject())
        return QStringLiteral("routes[%1] must be an object such as {\"name\": \"coding\", \"targets\": [{\"model\": \"claude/claude-sonnet-5\"}]}")
            .arg(index);
    const QJsonObject in = value.toObject();
    static const QStringList fields{QStringLiteral("name"),   QStringLiteral("order"),       QStringLiteral("prefer"),
                                    QStringLiteral("ttftMs"), QStringLiteral("phaseLimits"), QStringLiteral("budgetUsdPerDay"),
                                    QStringLiteral("targets")};
    const QString name = in.value(QLatin1String("name")).toString().trimmed();
    if (name.isEmpty())
        return QStringLiteral("routes[%1] needs a \"name\": what a client sends as the model, such as \"coding\"").arg(index);
    const QString route = QStringLiteral("route \"%1\"").arg(name);
    if (name.size() > MaxRouteName)
        return QStringLiteral("%1: the name is %2 characters long; at most %3 are allowed").arg(route).arg(name.size()).arg(MaxRouteName);
    if (name.contains(QLatin1Char('/')))
        return QStringLiteral("%1: a route name cannot contain \"/\", which marks <provider>/<model>; choose a name such as \"coding\"").arg(route);
    if (names->contains(name))
        return QStringLiteral("%1 is named twice; each route of a key needs its own name").arg(route);
    names->insert(name);
    for (auto it = in.begin(); it != in.end(); ++it)
        if (!fields.contains(it.key()))
            return QStringLiteral("%1: \"%2\" is not a route setting; a route takes %3 (docs/keys.md)")
                .arg(route, it.key(), fields.join(QStringLiteral(", ")));
    QJsonObject r{{QStringLiteral("name"), name}};

    const QJsonValue order = in.value(QLatin1String("order"));
    if (!order.isNull() && !order.isUndefined()) {
        const QString o = order.toString();
        if (o == QLatin1String("cheapest") || o == QLatin1String("round-robin"))
            r.insert(QStringLiteral("order"), o);
        else if (o != QLatin1String("in order"))
            return QStringLiteral("%1: order takes \"in order\", \"cheapest\" or \"round-robin\", not %2").arg(route, describeValue(order));
    }
    const QJsonValue prefer = in.value(QLatin1String("prefer"));
    if (!prefer.isNull() && !prefer.isUndefined()) {
        const QString p = prefer.toString();
        if (p == QLatin1String("speed") || p == QLatin1String("price"))
            r.insert(QStringLiteral("prefer"), p);
        else if (p != QLatin1String("follow"))
            return QStringLiteral("%1: prefer takes \"speed\", \"price\" or \"follow\" (the key's), not %2").arg(route, describeValue(prefer));
    }
    const QJsonValue phase = in.value(QLatin1String("phaseLimits"));
    if (!phase.isNull() && !phase.isUndefined()) {
        if (!phase.isBool())
            return QStringLiteral("%1: phaseLimits must be true or false").arg(route);
        if (phase.toBool())
            r.insert(QStringLiteral("phaseLimits"), true);
    }
    const QJsonValue budget = in.value(QLatin1String("budgetUsdPerDay"));
    if (!budget.isNull() && !budget.isUndefined()) {
        if (!validBudget(budget))
            return QStringLiteral("%1: budgetUsdPerDay %2 must be dollars a day above 0 and at most 1,000,000").arg(route, describeValue(budget));
        r.insert(QStringLiteral("budgetUsdPerDay"), budget.toDouble());
    }

    const QJsonValue targetsValue = in.value(QLatin1String("targets"));
    const QJsonArray targets = targetsValue.toArray();
    if (!targetsValue.isArray() || targets.isEmpty())
        return QStringLiteral("%1 needs \"targets\": a list of 1 to %2 targets such as [{\"model\": \"claude/claude-sonnet-5\"}]")
            .arg(route)
            .arg(MaxRouteTargets);
    if (targets.size() > MaxRouteTargets)
        return QStringLiteral("%1 has %2 targets; at most %3 are allowed").arg(route).arg(targets.size()).arg(MaxRouteTargets);
    QJsonArray clean;
    QHash<QString, int> budgeted; // what a target calls → the target carrying a budget for it
    for (int i = 0; i < targets.size(); ++i) {
        QJsonObject t;
        const QString where = QStringLiteral("%1 target %2").arg(route).arg(i + 1);
        if (QString e = checkTarget(targets.at(i), where, catalog, sharers, &t); !e.isEmpty())
            return e;
        if (t.contains(QLatin1String("budgetUsdPerDay"))) {
            const QString calls = RouteTarget::from(t).calls();
            if (budgeted.contains(calls))
                return QStringLiteral("%1: targets %2 and %3 both call %4 and both carry a daily budget, but they would share one figure; "
                                      "keep the budget on one of them")
                    .arg(route)
                    .arg(budgeted.value(calls) + 1)
                    .arg(i + 1)
                    .arg(calls);
            budgeted.insert(calls, i);
        }
        clean.append(t);
    }
    r.insert(QStringLiteral("targets"), clean);

    const QJsonValue ttft = in.value(QLatin1String("ttftMs"));
    if (!ttft.isNull() && !ttft.isUndefined()) {
        const double ms = ttft.toDouble();
        if (!ttft.isDouble() || ms != std::floor(ms) || ms < MinTtftMs || ms > MaxTtftMs)
            return QStringLiteral("%1: ttftMs %2 must be whole milliseconds from %3 to %4 (1 to 60 seconds)")
                .arg(route, describeValue(ttft))
                .arg(MinTtftMs)
                .arg(MaxTtftMs);
        if (clean.size() < 2)
            return QStringLiteral("%1: a first-token limit (ttftMs) needs two targets or more, since the last target is never cut; "
                                  "add a target or remove the limit")
                .arg(route);
        r.insert(QStringLiteral("ttftMs"), int(ms));
    }
    *out = r;
    return {};
}

} // namespace

QString RouteTarget::calls() const
{
    const QString called = provider + QLatin1Char('/') + modelId;
    return sharer.isEmpty() ? called : QString(called + QLatin1Char('@') + sharer);
}

QString Route::orderName(Order order)
{
    switch (order) {
    case Order::Cheapest: return QStringLiteral("cheapest");
    case Order::RoundRobin: return QStringLiteral("round-robin");
    case Order::InOrder: break;
    }
    return QStringLiteral("in order");
}

Route Route::from(const QJsonObject &o)
{
    Route r;
    r.name = o.value(QLatin1String("name")).toString();
    const QString order = o.value(QLatin1String("order")).toString();
    r.order = order == QLatin1String("cheapest") ? Order::Cheapest : order == QLatin1String("round-robin") ? Order::RoundRobin : Order::InOrder;
    const QString prefer = o.value(QLatin1String("prefer")).toString();
    if (prefer == QLatin1String("speed") || prefer == QLatin1String("price"))
        r.preferSpeed = prefer == QLatin1String("speed");
    r.ttftMs = o.value(QLatin1String("ttftMs")).toInt(0);
    r.phaseLimits = o.value(QLatin1String("phaseLimits")).toBool(false);
    r.budgetUsdPerDay = optionalNumber(o, "budgetUsdPerDay");
    for (const QJsonValue &v : o.value(QLatin1String("targets")).toArray())
        r.targets.append(RouteTarget::from(v.toObject()));
    return r;
}

RouteTarget RouteTarget::from(const QJsonObject &t)
{
    RouteTarget target;
    target.model = t.value(QLatin1String("model")).toString();
    target.provider = target.model.section(QLatin1Char('/'), 0, 0).toLower();
    target.modelId = target.model.section(QLatin1Char('/'), 1);
    target.sharer = Catalog::normalizeHandle(t.value(QLatin1String("sharer")).toString());
    target.maxCostUsd = optionalNumber(t, "maxCostUsd");
    target.budgetUsdPerDay = optionalNumber(t, "budgetUsdPerDay");
    target.translate = t.value(QLatin1String("translate")).toBool(false);
    return target;
}

std::optional<Route> findRoute(const QJsonArray &routes, const QString &name)
{
    if (name.isEmpty() || name.contains(QLatin1Char('/')))
        return std::nullopt;
    for (const QJsonValue &v : routes)
        if (v.toObject().value(QLatin1String("name")).toString() == name)
            return Route::from(v.toObject());
    return std::nullopt;
}

QString validateRoutes(const QJsonValue &routes, const Catalog::Catalog *catalog, const QList<Catalog::Sharer> *sharers, QJsonArray *normalized)
{
    if (routes.isNull() || routes.isUndefined()) {
        if (normalized)
            *normalized = {};
        return {};
    }
    if (!routes.isArray())
        return QStringLiteral(
            "\"routes\" must be a list of routes such as [{\"name\": \"coding\", \"targets\": [{\"model\": \"claude/claude-sonnet-5\"}]}]");
    const QJsonArray list = routes.toArray();
    if (list.size() > MaxRoutes)
        return QStringLiteral("a key can carry at most %1 routes; this list has %2").arg(MaxRoutes).arg(list.size());
    QJsonArray out;
    QSet<QString> names;
    for (int i = 0; i < list.size(); ++i) {
        QJsonObject r;
        if (QString e = checkRoute(list.at(i), i, catalog, sharers, &names, &r); !e.isEmpty())
            return e;
        out.append(r);
    }
    if (normalized)
        *normalized = out;
    return {};
}

} // namespace Aile::Keys
