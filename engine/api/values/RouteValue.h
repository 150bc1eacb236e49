#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QString>

#include <optional>

namespace Aile::Api {

/// One target of a key's named route, as GET /keys/{id} lists it and PUT /keys/{id} takes it
/// (docs/keys.md#named-routes). A field the key does not store stays empty and is left out again.
struct RouteTargetValue
{
    QString model;  // provider/model
    QString sharer; // a pinned sharer's handle, or empty
    std::optional<double> maxCostUsd;
    std::optional<double> budgetUsdPerDay;
    bool translate = false; // may reach a provider of another chat wire (docs/translation.md)

    static RouteTargetValue fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const RouteTargetValue &) const = default;
};

/// A key's named route in the stored names: order is empty (in order), "cheapest" or
/// "round-robin"; prefer is empty (follow the key), "speed" or "price".
struct RouteValue
{
    QString name;
    QString order;
    QString prefer;
    std::optional<int> ttftMs;
    std::optional<bool> phaseLimits;
    std::optional<double> budgetUsdPerDay;
    QList<RouteTargetValue> targets;

    static RouteValue fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const RouteValue &) const = default;
};

} // namespace Aile::Api
