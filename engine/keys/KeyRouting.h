#pragma once

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace Aile::Catalog {
class Catalog;
}

namespace Aile::Keys {

/// The routing settings a key carries (docs/keys.md lists them all). Stored as the key's
/// "routing" JSON object in the configuration file's own names; this is the one place that
/// knows their names, types and ranges.
struct KeyRouting
{
    QString provider;                      // a provider pin
    QStringList excludeProviders;          // Never these providers
    std::optional<double> maxPricePercent; // discount limit: % of the model's list
    std::optional<double> maxPrice;        // legacy: $/Mtok
    std::optional<double> minPricePercent; // max discount (the floor): % of list
    std::optional<double> maxCostUsd;      // cost cap per request
    QStringList onlySharers;               // canonical handles
    QStringList neverSharers;
    QString sharer;           // Advanced: one sharer handle
    QString node;             // Advanced: one machine, a node-backed sharer's handle (docs/team.md)
    QString capacity;         // "node" or "nodeless": only node-backed, or only direct sharers; empty: both
    bool preferSpeed = false; // "prefer": "speed"
    bool demoteFailing = false;
    bool phaseLimits = false; // phase limits: 30 s to first byte streamed, 60 s between events, 180 s otherwise
    bool sticky = true;
    std::optional<double> pinTtlSeconds; // an extension: the key's session pins last longer than the engine's
    bool denyDataCollection = false;     // "dataCollection": "deny"
    bool allowSelfHosted = true;
    std::optional<double> spendLimitUsdPerDay;
    bool verifiedOnly = false;         // legacy
    bool bareModelAnyProvider = false; // legacy
    QStringList bareModelProviders;    // legacy
    bool translate = false;            // a provider that speaks another chat wire may serve (docs/translation.md)

    /// Reads a stored routing object; never fails (a stored object was validated when saved).
    static KeyRouting from(const QJsonObject &routing);
};

/// Every setting name a key's routing object may carry.
const QStringList &routingSettingNames();

/// Checks a key's routing object and routes as docs/keys.md says (types, ranges, list sizes, the floor
/// against the discount limit, the lists against each other and against the routes). Returns
/// the message naming the setting, the cause and the fix, or an empty string. On success,
/// normalized holds the object as it is stored (handles canonical, nulls dropped).
QString validateRouting(const QJsonObject &routing, const QJsonArray &routes, const Catalog::Catalog &catalog, QJsonObject *normalized);

/// A dollar amount of a cost cap: above 0, at most 10,000, at most 6 decimals, a leading "$"
/// allowed. nullopt when malformed.
std::optional<double> parseCostUsd(const QString &text);
bool validCostUsd(double value);

constexpr int MaxListEntries = 50;
constexpr double MaxCostUsd = 10000;

/// A value as a refusal shows it: "abc" in quotes (first 60 characters), numbers as written,
/// "a list", "an object". Shared by the key, route and configuration checks so they read alike.
QString describeValue(const QJsonValue &value);

} // namespace Aile::Keys
