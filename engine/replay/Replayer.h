#pragma once

#include "ReplayReport.h"
#include "billing/SpendBook.h"
#include "core/EngineSettings.h"
#include "health/FailingSharers.h"
#include "health/QuotaBook.h"
#include "routing/RequestFacts.h"
#include "state/KeyBook.h"
#include "state/SharerBook.h"
#include "store/TraceRecord.h"

#include <QtCore/QJsonObject>
#include <QtCore/QRandomGenerator>

#include <memory>
#include <optional>

namespace Aile {
class Clock;
class ManualClock;

namespace Replay {

class HealthTimeline;

/// What to replay (POST /keys/route-replay, `aile replay`): a key's recorded requests of the
/// last days, with unsaved edits of its routing settings and/or one route.
struct ReplayAsk
{
    QString key; // id or name
    int days = 7;
    std::optional<QJsonObject> routing; // the key's routing settings as edited (replaces them whole)
    std::optional<QJsonObject> route;   // one route as edited (replaces the key's route of its name, or is added)
    QString routeName;                  // a saved route to replay through (a route body names its own)
    QString scope;                      // "route", "all" or empty (the route's own requests, else all of them)
};

constexpr int MaxReplayDays = 90;
/// How long a recorded failure keeps a sharer down when no served answer ends it sooner.
constexpr qint64 HealthHoldMs = 60 * 1000;

/// What a replay reads of the live engine, to copy: the sharers (whether each has a credential,
/// never the secret), the keys, the settings, the routing section and the time.
struct LiveState
{
    const State::SharerBook &sharers;
    const State::KeyBook &keys;
    const EngineSettings &settings;
    const QJsonObject &routing;
    const Clock &clock;
};

/// Everything a replay needs, detached from the live engine: a copy of the engine's state with
/// the edits applied, no store, no upstream, no health book, no pins, no secrets, its own clock
/// and spend book. Built on the engine thread; run() may then go to any thread.
class Replayer
{
public:
    /// Checks the ask against the live state as saving it would (the same messages); nullopt
    /// with status and error when it cannot run.
    static std::optional<Replayer> prepare(const LiveState &live, const ReplayAsk &ask, int *status, QString *error);

    qint64 sinceMs() const { return m_sinceMs; }
    QString keyId() const { return m_key.id; }

    /// Plans every request of history (oldest first, the key's own) and sums what changes.
    ReplayReport run(const QList<Store::TraceRecord> &history);

private:
    Replayer() = default;
    bool includes(const Store::TraceRecord &t) const;
    Outcome project(const Store::TraceRecord &t, const HealthTimeline &health, ReplayReport &report);

    std::shared_ptr<ManualClock> m_clock;
    /// The copy the planner reads as it reads the live state; what it moves (spend, turns, the
    /// draw) is the replay's own. No store, upstream, health book, pins or secrets.
    struct Detached
    {
        State::SharerBook sharers;
        State::KeyBook keys;
        EngineSettings settings;
        QJsonObject routing;
        Health::QuotaBook quota;
        Health::FailingSharers failing;
        Billing::SpendBook spend;
        Routing::RouteTurns routeTurns;
        QRandomGenerator draw;
    };
    std::shared_ptr<Detached> m_ctx;
    Keys::ApiKey m_key;
    QString m_route; // replayed through this route ("" : each request as it asked)
    QString m_scope;
    int m_days = 7;
    qint64 m_sinceMs = 0;
    qint64 m_untilMs = 0;
    QStringList m_edits;
    QHash<qint64, QString> m_dayNames;
    /// The request bodies planned so far, by endpoint, model, output cap and stream flag: a
    /// history asks the same few, and building one per request was a tenth of a replay.
    struct BodyKey
    {
        int endpoint = 0;
        qint64 maxOutput = -1;
        bool stream = false;
        QString model;
        bool operator==(const BodyKey &) const = default;
        friend size_t qHash(const BodyKey &k, size_t seed = 0) { return qHashMulti(seed, k.endpoint, k.maxOutput, k.stream, k.model); }
    };
    QHash<BodyKey, QJsonObject> m_bodies;
};

} // namespace Replay
} // namespace Aile
