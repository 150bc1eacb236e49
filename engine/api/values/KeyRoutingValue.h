#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace Aile::Api {

/// A key's routing settings as GET /keys/{id} gives them and PUT /keys/{id} {"routing": …} takes
/// them, in the stored names (docs/keys.md lists them; Keys::KeyRouting is the engine's reading of
/// the same object). A setting the key does not store stays unset and is left out again, so
/// fromJson then toJson gives back the object as read; anything this struct does not name is kept
/// in other. The Routing dialog edits one of these.
struct KeyRoutingValue
{
    std::optional<double> maxPricePercent; // the discount limit: % of the model's list
    std::optional<double> maxPrice;        // the same in $ per million tokens (older keys)
    std::optional<double> minPricePercent; // the floor: % of list
    std::optional<double> maxCostUsd;      // cost cap per request
    std::optional<double> spendLimitUsdPerDay;
    std::optional<QString> provider; // a provider pin
    std::optional<QStringList> excludeProviders;
    std::optional<QString> dataCollection; // "deny": only sharers that do not train on requests
    std::optional<bool> allowSelfHosted;   // unset: allowed
    std::optional<QStringList> onlySharers;
    std::optional<QStringList> neverSharers;
    std::optional<QString> prefer; // "speed"; unset: price
    std::optional<bool> demoteFailing;
    std::optional<bool> phaseLimits;
    std::optional<bool> sticky; // unset: sticky
    std::optional<bool> verifiedOnly;
    std::optional<QString> sharer;                 // one sharer's handle (Advanced)
    std::optional<bool> bareModelAnyProvider;      // legacy
    std::optional<QStringList> bareModelProviders; // legacy
    QJsonObject other;                             // settings not named above (or of another type), kept as read

    static KeyRoutingValue fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const KeyRoutingValue &) const = default;
};

} // namespace Aile::Api
