#include "RouteValue.h"

#include "JsonFields.h"

namespace Aile::Api {

using namespace Json;

RouteTargetValue RouteTargetValue::fromJson(const QJsonObject &o)
{
    return RouteTargetValue{str(o, "model"), str(o, "sharer"), optDouble(o, "maxCostUsd"), optDouble(o, "budgetUsdPerDay"),
                            o.value(QLatin1String("translate")).toBool(false)};
}

QJsonObject RouteTargetValue::toJson() const
{
    QJsonObject o{{QStringLiteral("model"), model}};
    putString(o, "sharer", sharer);
    put(o, "maxCostUsd", maxCostUsd);
    put(o, "budgetUsdPerDay", budgetUsdPerDay);
    if (translate)
        o.insert(QStringLiteral("translate"), true);
    return o;
}

RouteValue RouteValue::fromJson(const QJsonObject &o)
{
    RouteValue r;
    r.name = str(o, "name");
    r.order = str(o, "order");
    r.prefer = str(o, "prefer");
    r.ttftMs = optInt(o, "ttftMs");
    r.phaseLimits = optBool(o, "phaseLimits");
    r.budgetUsdPerDay = optDouble(o, "budgetUsdPerDay");
    r.targets = listOf<RouteTargetValue>(o.value(QLatin1String("targets")));
    return r;
}

QJsonObject RouteValue::toJson() const
{
    QJsonObject o{{QStringLiteral("name"), name}, {QStringLiteral("targets"), arrayOf(targets)}};
    putString(o, "order", order);
    putString(o, "prefer", prefer);
    put(o, "ttftMs", ttftMs);
    put(o, "phaseLimits", phaseLimits);
    put(o, "budgetUsdPerDay", budgetUsdPerDay);
    return o;
}

} // namespace Aile::Api
