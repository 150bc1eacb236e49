#pragma once

#include "engine/routing/RoutingFixture.h"

namespace Aile::Test {

inline QJsonObject atPercent(double p, const QJsonObject &more = {})
{
    QJsonObject o = more;
    o.insert(QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), p}});
    return o;
}

inline QString refusedBy(const Reply &r)
{
    return r.json().value(QLatin1String("error")).toObject().value(QLatin1String("refusedBy")).toString();
}

/// The test key's routing, changed in place (as PUT /keys/{id} does).
inline void setKeyRouting(RoutingFixture &f, const QJsonObject &routing)
{
    f.engine->context().keys.first().routing = routing;
}

inline QByteArray bodyOf(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

inline QJsonObject userChat(const QString &model, const QJsonObject &extra = {})
{
    QJsonObject o{{QStringLiteral("model"), model},
                  {QStringLiteral("messages"),
                   QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), QStringLiteral("hi")}}}}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

/// What the ledger holds today: {cost, absorbed}, once the writer has it.
inline QPair<double, double> ledgerToday(RoutingFixture &f)
{
    f.lastTrace(); // waits for the writer
    double cost = 0, absorbed = 0;
    for (const Store::LedgerEntry &e : f.engine->context().store->ledger(Store::utcDay(f.clock.nowMs()))) {
        cost += e.costUsd;
        absorbed += e.absorbedUsd;
    }
    return {cost, absorbed};
}

} // namespace Aile::Test
