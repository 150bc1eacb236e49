#pragma once

#include "KeyRoutingValue.h"
#include "RouteValue.h"

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QString>

#include <optional>

namespace Aile::Api {

/// Today's spend of one route of a key, and of each of its targets in the route's order.
struct RouteSpend
{
    struct Target
    {
        QString model;
        QString sharer;
        double spentUsd = 0;
        std::optional<double> budgetUsdPerDay;
        bool operator==(const Target &) const = default;
    };
    QString name;
    double spentUsd = 0;
    std::optional<double> budgetUsdPerDay;
    QList<Target> targets;

    static RouteSpend fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const RouteSpend &) const = default;
};

/// A local API key as GET /keys and GET /keys/{id} list it: never the key or its hash.
/// routing is the stored routing object, typed (KeyRoutingValue); the Routing dialog edits it
/// whole, so that settings it does not show are kept.
struct KeyInfo
{
    QString id;
    QString name;
    QString prefix;
    qint64 createdMs = 0;
    bool revoked = false;
    KeyRoutingValue routing;
    QList<RouteValue> routes;
    double spentTodayUsd = 0;
    double listValueTodayUsd = 0; // served on subscription plans today, at list price: not money spent
    QList<RouteSpend> routeSpend;

    static KeyInfo fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const KeyInfo &) const = default;
};

/// What PUT /keys/{id} changes: each field set is replaced whole (the routes as a list), the rest
/// is left as stored.
struct KeyChanges
{
    std::optional<QString> name;
    std::optional<KeyRoutingValue> routing;
    std::optional<QList<RouteValue>> routes;

    static KeyChanges fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const KeyChanges &) const = default;
};

/// The answer of POST /keys: the key and its plain text, shown this once.
struct CreatedKey
{
    KeyInfo key;
    QString plain;

    static CreatedKey fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const CreatedKey &) const = default;
};

} // namespace Aile::Api
