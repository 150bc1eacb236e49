#pragma once

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QString>

#include <optional>

namespace Aile::Catalog {
class Catalog;
struct Sharer;
} // namespace Aile::Catalog

namespace Aile::Keys {

/// One target of a named route: a provider/model, optionally pinned to one sharer, with its own
/// cost cap and daily budget (docs/keys.md "Named routes").
struct RouteTarget
{
    QString model; // "provider/model" as saved
    QString provider;
    QString modelId; // what follows the provider
    QString sharer;  // canonical handle, or empty
    std::optional<double> maxCostUsd;
    std::optional<double> budgetUsdPerDay;
    bool translate = false; // may reach a provider of another chat wire (docs/translation.md)

    /// What the target calls (provider, model and any pinned sharer): the ledger keeps a target's
    /// spend under it, so reordering a route keeps each figure and editing a target starts afresh.
    QString calls() const;

    static RouteTarget from(const QJsonObject &target);
};

/// A key's named route, used by sending its name as the model. Stored in the configuration
/// file's names: "order" is "cheapest" or "round-robin" (in order is stored as nothing), "prefer"
/// is "speed" or "price" (follow the key is stored as nothing).
struct Route
{
    enum class Order { InOrder, Cheapest, RoundRobin };
    QString name;
    Order order = Order::InOrder;
    std::optional<bool> preferSpeed; // unset: follow the key
    int ttftMs = 0;                  // first-token limit; 0: none
    bool phaseLimits = false;        // the phase limits' 30 s / 60 s / 180 s, as on a key
    std::optional<double> budgetUsdPerDay;
    QList<RouteTarget> targets;

    static Route from(const QJsonObject &route);
    static QString orderName(Order order);
};

/// The key's route of that name (names compare case-sensitively, as a model does), or nullopt.
std::optional<Route> findRoute(const QJsonArray &routes, const QString &name);

/// Checks a key's routes as docs/keys.md says and returns the message naming the route, the field,
/// the cause and the fix, or an empty string. On success normalized holds the list as stored
/// ("in order" and "follow" dropped, handles canonical, nulls dropped). catalog and sharers may be
/// null (a configuration file read before the catalogue): their checks are then skipped.
QString validateRoutes(const QJsonValue &routes, const Catalog::Catalog *catalog, const QList<Catalog::Sharer> *sharers, QJsonArray *normalized);

constexpr int MaxRoutes = 50;
constexpr int MaxRouteTargets = 10;
constexpr int MaxRouteName = 64;
constexpr int MinTtftMs = 1000;
constexpr int MaxTtftMs = 60000;

} // namespace Aile::Keys
