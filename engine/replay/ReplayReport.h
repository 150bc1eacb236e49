#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QMap>
#include <QtCore/QPair>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace Aile::Replay {

/// Where one request went, or why it did not: what really happened, or what the replay projects.
struct Outcome
{
    int status = 0; // 200 when served; else the status it got (or would get)
    QString code;   // why it was not served: budget_spent, cost_cap, no_sharer, …
    QString target; // provider/model
    QString sharer; // handle
    double costUsd = 0;
    bool served() const { return status >= 200 && status < 300; }
    QJsonObject toJson() const;
};

/// A request whose projected outcome differs from its recorded one.
struct ChangedRequest
{
    QString id;
    qint64 startedMs = 0;
    QString modelAsked;
    Outcome actual;
    Outcome projected;
    /// How much the outcome changes: served ↔ refused first, then the cost moved, then the target, then the sharer.
    bool moreThan(const ChangedRequest &other) const;
    QJsonObject toJson() const;
};

/// One UTC day of the replay.
struct ReplayDay
{
    int requests = 0;
    int actualServed = 0;
    int projectedServed = 0;
    double actualUsd = 0;
    double projectedUsd = 0;
};

/// How many requests met one limit, and on which days (UTC).
struct LimitHits
{
    int requests = 0;
    QMap<QString, int> days;
    void add(const QString &day)
    {
        ++requests;
        ++days[day];
    }
    QJsonObject toJson() const;
};

/// What a replay found, beside what really happened (POST /keys/route-replay, docs/replay.md).
struct ReplayReport
{
    QString keyId;
    QString keyName;
    int days = 0;
    qint64 sinceMs = 0;
    qint64 untilMs = 0;
    QString scope;     // "asked": each request as it asked; "route": the route's own requests; "all": every request through the route
    QString route;     // the route replayed, when one is
    QStringList edits; // what the replay changed: "routing", "route <name>"
    int recorded = 0;  // recorded requests read
    int replayed = 0;
    int skipped = 0; // refused before routing (no model, a body that cannot be read): nothing to replay
    bool truncated = false;
    int withoutTokens = 0;  // no token counts recorded (refused or cut short): priced at none
    int withoutSession = 0; // written before the store recorded sessions and output caps: drawn with the replay's own seed
    int healthSpans = 0;    // recorded moments a sharer could not serve

    int actualServed = 0;
    int projectedServed = 0;
    double actualUsd = 0;
    double projectedUsd = 0;
    QMap<QString, ReplayDay> perDay;
    QMap<QString, QPair<int, int>> perTarget; // actual, projected requests
    QMap<QString, QPair<int, int>> perSharer;
    LimitHits budget;              // refused for a spent daily budget or spend limit (a route target moving on counts too)
    LimitHits costCapRefused;      // no sharer fits the cost cap
    LimitHits costCapCapped;       // served, but the answer priced above the cap: the sharer absorbs the rest
    LimitHits noSharer;            // nothing left to serve it: every sharer down, removed or unavailable
    QList<ChangedRequest> changed; // the five that change most, most first
    int changedCount = 0;

    QJsonObject toJson() const;
};

constexpr int ReplayTopChanges = 5;

} // namespace Aile::Replay
