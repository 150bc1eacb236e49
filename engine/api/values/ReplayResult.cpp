#include "ReplayResult.h"

#include <QtCore/QJsonArray>

namespace Aile::Api {
namespace {

QMap<QString, QPair<int, int>> counts(const QJsonObject &o)
{
    QMap<QString, QPair<int, int>> out;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QJsonObject c = it.value().toObject();
        out.insert(it.key(), {c.value(QLatin1String("actual")).toInt(), c.value(QLatin1String("projected")).toInt()});
    }
    return out;
}

} // namespace

ReplayResult ReplayResult::fromJson(const QJsonObject &o)
{
    ReplayResult r;
    r.keyName = o.value(QLatin1String("key")).toObject().value(QLatin1String("name")).toString();
    r.days = o.value(QLatin1String("days")).toInt();
    r.scope = o.value(QLatin1String("scope")).toString();
    r.route = o.value(QLatin1String("route")).toString();
    r.replayed = o.value(QLatin1String("requests")).toObject().value(QLatin1String("replayed")).toInt();
    const QJsonObject actual = o.value(QLatin1String("actual")).toObject(), projected = o.value(QLatin1String("projected")).toObject();
    r.actualUsd = actual.value(QLatin1String("costUsd")).toDouble();
    r.projectedUsd = projected.value(QLatin1String("costUsd")).toDouble();
    r.actualServed = actual.value(QLatin1String("served")).toInt();
    r.projectedServed = projected.value(QLatin1String("served")).toInt();
    const QJsonObject budget = o.value(QLatin1String("budget")).toObject();
    r.budgetHits = budget.value(QLatin1String("requests")).toInt();
    r.budgetFirstDay = budget.value(QLatin1String("firstDay")).toString();
    const QJsonObject cap = o.value(QLatin1String("costCap")).toObject();
    r.costCapRefused = cap.value(QLatin1String("refused")).toObject().value(QLatin1String("requests")).toInt();
    r.costCapCapped = cap.value(QLatin1String("capped")).toObject().value(QLatin1String("requests")).toInt();
    const QJsonObject noSharer = o.value(QLatin1String("noSharer")).toObject();
    r.noSharer = noSharer.value(QLatin1String("requests")).toInt();
    r.noSharerFirstDay = noSharer.value(QLatin1String("firstDay")).toString();
    r.changed = o.value(QLatin1String("changed")).toInt();
    for (const QJsonValue &v : o.value(QLatin1String("perDay")).toArray()) {
        const QJsonObject d = v.toObject();
        r.perDay.append({d.value(QLatin1String("day")).toString(), d.value(QLatin1String("requests")).toInt(),
                         d.value(QLatin1String("actualUsd")).toDouble(), d.value(QLatin1String("projectedUsd")).toDouble()});
    }
    r.perTarget = counts(o.value(QLatin1String("perTarget")).toObject());
    r.perSharer = counts(o.value(QLatin1String("perSharer")).toObject());
    for (const QJsonValue &v : o.value(QLatin1String("topChanges")).toArray()) {
        const QJsonObject c = v.toObject();
        r.topChanges.append({c.value(QLatin1String("id")).toString(), qint64(c.value(QLatin1String("startedMs")).toDouble()),
                             c.value(QLatin1String("model")).toString(), c.value(QLatin1String("actual")).toObject(),
                             c.value(QLatin1String("projected")).toObject(), c.value(QLatin1String("deltaUsd")).toDouble()});
    }
    for (const QJsonValue &v : o.value(QLatin1String("notes")).toArray())
        r.notes << v.toString();
    return r;
}

ReplayAsk ReplayAsk::fromJson(const QJsonObject &o)
{
    ReplayAsk a;
    a.key = o.value(QLatin1String("key")).toString();
    if (o.value(QLatin1String("days")).isDouble())
        a.days = o.value(QLatin1String("days")).toInt();
    if (o.value(QLatin1String("routing")).isObject())
        a.routing = KeyRoutingValue::fromJson(o.value(QLatin1String("routing")).toObject());
    const QJsonValue route = o.value(QLatin1String("route"));
    if (route.isObject())
        a.route = RouteValue::fromJson(route.toObject());
    else
        a.routeName = route.toString();
    a.scope = o.value(QLatin1String("scope")).toString();
    return a;
}

QJsonObject ReplayAsk::toJson() const
{
    QJsonObject o;
    if (!key.isEmpty())
        o.insert(QStringLiteral("key"), key);
    if (days)
        o.insert(QStringLiteral("days"), *days);
    if (routing)
        o.insert(QStringLiteral("routing"), routing->toJson());
    if (route)
        o.insert(QStringLiteral("route"), route->toJson());
    else if (!routeName.isEmpty())
        o.insert(QStringLiteral("route"), routeName);
    if (!scope.isEmpty())
        o.insert(QStringLiteral("scope"), scope);
    return o;
}

} // namespace Aile::Api
