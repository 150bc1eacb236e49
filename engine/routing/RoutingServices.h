#pragma once

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QString>

class QRandomGenerator;

namespace Aile {
class Clock;
struct EngineSettings;
namespace Catalog {
class Catalog;
struct Sharer;
} // namespace Catalog
namespace Health {
class HealthBook;
class QuotaBook;
class FailingSharers;
class NodeBook;
} // namespace Health
namespace Billing {
class SpendBook;
}
namespace State {
struct SharerBook;
}

namespace Routing {

/// What the routing pipeline reads of the engine, and nothing else: the few services the planner's
/// units (filter, order, levers, price limits, routes) use, by reference. Routing only reads them;
/// the tie draw is the one thing it moves. Built once by the engine (host/) from its state (of()), or by a
/// test from its own parts.
struct RoutingServices
{
    const Clock &clock;
    const EngineSettings &settings;
    const QJsonObject &config; // the routing section: models, selection, default_model, fallback_models
    const Catalog::Catalog &catalog;
    const QList<Catalog::Sharer> &sharers;
    const QHash<QString, QString> &credentials;      // handle → secret: routing reads only whether one exists
    const QHash<QString, QString> &credentialErrors; // handle → why it has none
    const Health::HealthBook *health;                // cooldowns, averages; null in an engine without one
    const Health::QuotaBook &quota;                  // subscription windows
    const Health::FailingSharers &failing;           // sharers failing a key lately (demoteFailing)
    const Billing::SpendBook &spend;                 // today's spend (budgets, spend limits)
    QRandomGenerator &draw;                          // the tie draw of requests without a session
    const Health::NodeBook *nodes = nullptr;         // node-backed sharers (docs/team.md); null: none are routable

    /// The pipeline over a sharer book (the catalogue, the sharers and whether each has a credential).
    static RoutingServices of(const State::SharerBook &sharers, const Clock &clock, const EngineSettings &settings, const QJsonObject &config,
                              const Health::HealthBook *health, const Health::QuotaBook &quota, const Health::FailingSharers &failing,
                              const Billing::SpendBook &spend, QRandomGenerator &draw, const Health::NodeBook *nodes);
};

} // namespace Routing
} // namespace Aile
