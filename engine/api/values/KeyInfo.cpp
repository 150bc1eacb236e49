#include "KeyInfo.h"

#include "JsonFields.h"

namespace Aile::Api {

using namespace Json;

RouteSpend RouteSpend::fromJson(const QJsonObject &o)
{
    RouteSpend r;
    r.name = str(o, "name");
    r.spentUsd = o.value(QLatin1String("spentUsd")).toDouble();
    r.budgetUsdPerDay = optDouble(o, "budgetUsdPerDay");
    for (const QJsonValue &v : o.value(QLatin1String("targets")).toArray()) {
        const QJsonObject t = v.toObject();
        r.targets.append(Target{str(t, "model"), str(t, "sharer"), t.value(QLatin1String("spentUsd")).toDouble(), optDouble(t, "budgetUsdPerDay")});
    }
    return r;
}

QJsonObject RouteSpend::toJson() const
{
    QJsonArray targetArray;
    for (const Target &t : targets) {
        QJsonObject o{{QStringLiteral("model"), t.model},
                      {QStringLiteral("spentUsd"), t.spentUsd},
                      {QStringLiteral("budgetUsdPerDay"), orNull(t.budgetUsdPerDay)}};
        putString(o, "sharer", t.sharer);
        targetArray.append(o);
    }
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("spentUsd"), spentUsd},
                       {QStringLiteral("budgetUsdPerDay"), orNull(budgetUsdPerDay)},
                       {QStringLiteral("targets"), targetArray}};
}

KeyInfo KeyInfo::fromJson(const QJsonObject &o)
{
    KeyInfo k;
    k.id = str(o, "id");
    k.name = str(o, "name");
    k.prefix = str(o, "prefix");
    k.createdMs = o.value(QLatin1String("createdMs")).toInteger();
    k.revoked = o.value(QLatin1String("revoked")).toBool();
    k.routing = KeyRoutingValue::fromJson(o.value(QLatin1String("routing")).toObject());
    k.routes = listOf<RouteValue>(o.value(QLatin1String("routes")));
    k.spentTodayUsd = o.value(QLatin1String("spentTodayUsd")).toDouble();
    k.listValueTodayUsd = o.value(QLatin1String("listValueTodayUsd")).toDouble();
    k.routeSpend = listOf<RouteSpend>(o.value(QLatin1String("routeSpend")));
    return k;
}

QJsonObject KeyInfo::toJson() const
{
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("prefix"), prefix},
                       {QStringLiteral("createdMs"), createdMs},
                       {QStringLiteral("revoked"), revoked},
                       {QStringLiteral("routing"), routing.toJson()},
                       {QStringLiteral("routes"), arrayOf(routes)},
                       {QStringLiteral("spentTodayUsd"), spentTodayUsd},
                       {QStringLiteral("listValueTodayUsd"), listValueTodayUsd},
                       {QStringLiteral("routeSpend"), arrayOf(routeSpend)}};
}

CreatedKey CreatedKey::fromJson(const QJsonObject &o)
{
    return CreatedKey{KeyInfo::fromJson(o.value(QLatin1String("key")).toObject()), str(o, "plain")};
}

QJsonObject CreatedKey::toJson() const
{
    return QJsonObject{{QStringLiteral("key"), key.toJson()}, {QStringLiteral("plain"), plain}};
}

KeyChanges KeyChanges::fromJson(const QJsonObject &o)
{
    KeyChanges c;
    if (o.value(QLatin1String("name")).isString())
        c.name = o.value(QLatin1String("name")).toString();
    if (o.value(QLatin1String("routing")).isObject())
        c.routing = KeyRoutingValue::fromJson(o.value(QLatin1String("routing")).toObject());
    if (o.value(QLatin1String("routes")).isArray())
        c.routes = Json::listOf<RouteValue>(o.value(QLatin1String("routes")));
    return c;
}

QJsonObject KeyChanges::toJson() const
{
    QJsonObject o;
    if (name)
        o.insert(QStringLiteral("name"), *name);
    if (routing)
        o.insert(QStringLiteral("routing"), routing->toJson());
    if (routes)
        o.insert(QStringLiteral("routes"), Json::arrayOf(*routes));
    return o;
}

} // namespace Aile::Api
