#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QMap>
#include <QtCore/QString>
#include <QtCore/QStringList>

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
    QJsonObject actual;      // status, target, sharer, costUsd, code
    QJsonObject projected;
    double deltaUsd = 0;
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
    QMap<QString, QPair<int, int>> perTarget;   // actual, projected
    QMap<QString, QPair<int, int>> perSharer;
    QList<ReplayChange> topChanges;
    QStringList notes;

    static ReplayResult fromJson(const QJsonObject &o);
};

} // namespace Aile::Api
