#pragma once

#include "Plan.h"
#include "RequestFacts.h"

#include <QtCore/QStringList>

#include <optional>

namespace Aile {
namespace Catalog {
class Catalog;
struct ModelInfo;
} // namespace Catalog

namespace Routing {

/// A price bound from a header or a key: $/Mtok, or a percentage of the model's list.
struct PriceBound
{
    double value = 0;
    bool percent = false;
    QString source;         // the header or key setting it came from, for messages and refusedBy
    bool malformed = false; // "abc%": refused with 400 once the model is known to have a list price
};
/// Every bound binds, so the stricter of key and header wins: a header can lower the key's
/// ceiling and raise its floor, never the other way.
struct Limits
{
    QList<PriceBound> maxes;
    QList<PriceBound> mins;
    bool verifiedOnly = false;
    QString verifiedSource;
    // The levers (Levers.h): the sharer and provider lists, the cost cap, data collection,
    // self-hosted capacity.
    QStringList onlySharers;     // empty: any
    bool onlyFromHeader = false; // x-aile-sharer narrowed (or replaced) the key's list
    /// What made onlySharers, for the removal reasons and the 503: the route target's pin, the
    /// header, the key's one sharer, or the key's allowed sharers.
    enum class OnlyBy { KeyList, KeySharer, Header, RoutePin };
    OnlyBy onlyBy = OnlyBy::KeyList;
    QString routePin; // "route coding target openai/gpt-5.2", when a route target's pin made the list
    QStringList keyNeverSharers;
    QStringList headerNeverSharers;
    QStringList excludeProviders; // key and x-aile-exclude-provider
    QStringList headerExcludeProviders;
    QString sharerPin; // the key's single sharer
    std::optional<double> costCap;
    QString costCapSource;
    bool denyData = false;
    QString denyDataSource;
    bool allowSelfHosted = true; // the key's setting
    bool capacityLocal = false;
    bool capacityNode = false;
    bool capacityNodeless = false; // x-aile-capacity: nodeless, or the key's capacity
    QString capacitySource;        // what asked for node or nodeless capacity
    QString nodePin;               // one machine: x-aile-node or the key's node
    QString nodePinSource;
    // Speed first and moving failing sharers back are read where the order is made
    // (CandidateOrder::leverOrder: RequestFacts::prefersSpeed(), the key's demoteFailing).
};

/// Reads x-aile-max-price, x-aile-min-price, x-aile-verified and the key's own bounds, then the
/// rest of the levers (Levers::readLevers). Returns an error plan (400) for a malformed value.
std::optional<Plan> readLimits(const RequestFacts &facts, Limits *out);
/// A percentage bound that could not be read: refused (400) once the model is known to be priced.
std::optional<Plan> malformedPercent(const Limits &limits);
/// A percentage needs a list price to be a percentage of: 404 for a model without one.
std::optional<Plan> checkPercentNeedsPrice(const Catalog::Catalog &catalog, const Limits &limits, const QString &provider, const QString &model);
/// Why rates fall outside the bounds (the bound's source in *source), or empty.
QString priceRefusal(const Limits &limits, const Billing::Rates &rates, const Catalog::ModelInfo *model, qint64 promptTokens, QString *source);

} // namespace Routing
} // namespace Aile
