#pragma once

#include "KeyRoutingValue.h"
#include "RouteValue.h"

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QMap>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace Aile::Api {

/// One day of POST /keys/route-replay's answer (docs/replay.md).
struct ReplayDayValue
{
    QString day;
    int requests = 0;
    double actualUsd = 0;
    double projectedUsd = 0;
};

/// One request whose outcome changes, as the answer lists the five that change most.
struct ReplayChange
{
    QString id;
    qint64 startedMs = 0;
    QString model;
    QJsonObject actual; // status, target, sharer, costUsd, code
    QJsonObject projected;
    double deltaUsd = 0;
};

/// What POST /keys/route-replay is asked (docs/replay.md): a key's recorded requests of the last
/// days, with its routing settings and/or one route as edited and not saved yet.
struct ReplayAsk
{
    QString key;                            // id or name
    std::optional<int> days;                // unset: the engine's default
    std::optional<KeyRoutingValue> routing; // replaces the key's routing settings whole
    std::optional<RouteValue> route;        // replaces the key's route of its name, or is added
    QString routeName;                      // a saved route to replay through instead
    QString scope;                          // "route", "all" or empty

    static ReplayAsk fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const ReplayAsk &) const = default;
};

/// POST /keys/route-replay's answer as the window reads it.
struct ReplayResult
{
    QString keyName;
    int days = 0;
    QString scope;
    QString route;
    int replayed = 0;
    double actualUsd = 0;
    double projectedUsd = 0;
    int actualServed = 0;
    int projectedServed = 0;
    int budgetHits = 0;
    QString budgetFirstDay;
    int costCapRefused = 0;
    int costCapCapped = 0;
    int noSharer = 0;
    QString noSharerFirstDay;
    int changed = 0;
    QList<ReplayDayValue> perDay;
    QMap<QString, QPair<int, int>> perTarget; // actual, projected
    QMap<QString, QPair<int, int>> perSharer;
    QList<ReplayChange> topChanges;
    QStringList notes;

    static ReplayResult fromJson(const QJsonObject &o);
};

} // namespace Aile::Api
