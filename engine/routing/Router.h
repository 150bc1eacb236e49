#pragma once

#include "ClientKind.h"
#include "RequestNeeds.h"
#include "keys/KeyRouting.h"
#include "keys/Routes.h"
#include "billing/Quote.h"
#include "wire/Wire.h"

#include <QtCore/QJsonObject>
#include <QtCore/QList>

#include <optional>

namespace Aile {
struct EngineContext;
namespace Keys {
struct ApiKey;
}

namespace Routing {

/// What routing needs to know of a request.
struct RequestFacts
{
    Wire::Endpoint endpoint = Wire::Endpoint::Unknown;
    QString model;                         // as the client wrote it
    const Http::HttpHeaders *headers = nullptr;
    const Keys::ApiKey *key = nullptr;
    ClientKind client = ClientKind::Unknown;
    qint64 promptTokens = 0;
    qint64 maxOutputTokens = Billing::DefaultMaxTokens;
    bool stream = false;
    const QJsonObject *body = nullptr;     // the client's body, where one exists (the cost cap's checks)
    std::optional<quint64> drawSeed;       // a session's stable seed; unset: a random draw
    RequestNeeds needs;                    // capabilities the body uses (the capability filter)
    QString sort;                          // provider.sort: price, latency or throughput; empty: default order
    const Keys::Route *route = nullptr;    // the key's named route being planned (its name was the model)
    const Keys::RouteTarget *routeTarget = nullptr;   // the route's target being planned
    quint64 routeTurn = 0;                 // a round-robin route's turn (requests routed through it so far)

    /// Speed first: the route's prefer when it says speed or price, else the key's.
    bool prefersSpeed() const;

    /// The key's routing settings, parsed once per request (the defaults without a key).
    const Keys::KeyRouting &keyRouting() const;

private:
    mutable std::optional<Keys::KeyRouting> m_keyRouting;
};

/// Where a round-robin route's turn is kept (EngineContext::routeTurns).
inline QString routeTurnKey(const QString &keyId, const QString &route)
{
    return keyId + QLatin1Char('/') + route;
}

/// What routing reads of a request's body, shared by the proxy and the dry run: the estimated
/// prompt, the output cap, streaming, the capabilities used and provider.sort. rawBody is the
/// body as sent (the prompt estimate reads it). Returns an error for a body routing cannot read.
QString readBodyFacts(Wire::Endpoint endpoint, const QJsonObject &body, const QByteArray &rawBody, RequestFacts *facts);
/// The field that caps the answer's tokens in this body (chat also takes max_completion_tokens).
QString outputCapFieldOf(Wire::Endpoint endpoint, const QJsonObject &body);

/// One sharer that may serve, in routing order.
struct Candidate
{
    QString handle;
    QString name;
    QString provider;
    QString upstreamModel;                 // exactly as it goes upstream
    std::optional<Billing::Rates> rates;   // unset: un-quotable
    std::optional<double> quoteUsd;        // for the request's estimated tokens
    bool tested = false;
    bool deadKey = false;
    double health = 1.0;                   // the tie-draw factor
    int priority = 0;                      // tier (docs/rules/tiers-quota-health.md): higher first
    int weight = 1;                        // share of the tie draw (docs/rules/tiers-quota-health.md), per-model override applied
    bool degraded = false;                 // recent success rate low, or a half-open breaker (docs/rules/tiers-quota-health.md)
    std::optional<qint64> allowanceResetMs;   // quota-reset selection: when the longest fresh window resets
    double ttfbMs = -1;                    // observed, -1 without samples
    int ttfbSamples = 0;
    double throughput = -1;                // output tokens per second observed, -1 without samples
    int throughputSamples = 0;
    bool demoted = false;                  // failing this key lately (demoteFailing): sorted last
    bool tiedWithPrevious = false;         // same price as the one before it (a drawn order)
};

/// A sharer left out before any dial, and why.
struct Refusal
{
    QString handle;
    QString name;
    QString reason;
    qint64 untilMs = 0;                    // cooling: when it ends
    QString refusedBy;                     // the header or key setting whose filter removed it
    QString code;                          // cooldown, quota_exhausted, capability, disabled, …
    double quoteUsd = -1;                  // refused by a cost cap: what it quoted
};

/// Of the refusals that emptied a pool, the one whose filter ruled out the last sharers left
/// (lists, then data policy, capacity, verified, price, cost cap; a header before the key).
const Refusal &tellingRefusal(const QList<Refusal> &refusals);

/// One provider/model to try, with its sharers in order. A plain request has one target; an
/// auto/ request one per provider; a named route one per route target.
struct Target
{
    QString provider;
    QString model;                         // the upstream model id
    QList<Candidate> candidates;
    QList<Refusal> refusals;
    std::optional<double> costCapUsd;      // the binding cost cap for this target (a route target may carry its own)
    // A named route's target: what it calls (the ledger's key for its spend), and why it was
    // refused before any sharer was asked (a spent budget, a cost cap no sharer fits, …).
    QString calls;
    QString route;                         // the route it belongs to (the ledger charges its spend there)
    int refusalStatus = 0;
    QString refusal;
    QString refusalCode;                   // budget_spent, cost_cap, capability, …
    QString echoModel;                     // any provider (auto/): the id the client sent, which the answer names
    QString label() const { return provider + QLatin1Char('/') + model; }
    /// What the ledger books this target's spend under: what a route target calls, else its label.
    QString spendKey() const { return calls.isEmpty() ? label() : calls; }
};

/// One model of a request's chain (the body's `models`, else its `model` or the account's
/// default_model, then the account's fallback_models), and why it cannot be served when it cannot.
struct ChainLink
{
    QString model;
    int status = 0;                        // 0: planned; else the refusal a request for it alone gets
    QString message;
    QJsonObject extra;
};

/// The ordered targets for a request, or the error it gets before anything is dialled.
struct Plan
{
    int status = 0;                        // 0: route it; else the error status
    QString message;
    QJsonObject extra;                     // refusedBy, …
    qint64 retryAfterMs = -1;              // with a 429: the earliest end of a cooldown
    QList<Target> targets;
    bool anyProvider = false;              // auto/: the provider may change between attempts
    bool sampled = false;                  // a draw broke a tie somewhere
    std::optional<double> costCapUsd;      // the binding cost cap (lowest of header and key)
    QString costCapSource;
    bool orderedBySpeed = false;           // the key prefers speed and it applied
    int maxDials = 0;                      // 0: the setting; a models chain makes at most 3 attempts
    QString route;                         // a key's named route: its name
    int ttftMs = 0;                        // the route's first-token limit (2+ targets); 0: none
    bool phaseLimits = false;              // the key's or the route's phase limits (docs/keys.md `phaseLimits`)
    QList<ChainLink> chain;                // every model the request tries, in order (planChain)
    /// Each attempt's trace row names its target (any provider, a chain, a named route).
    bool labelsTargets() const { return anyProvider || !route.isEmpty(); }
    /// The cost cap that binds an answer of target t: its own (a route target's), else the plan's.
    std::optional<double> costCapFor(const Target &t) const { return t.costCapUsd ? t.costCapUsd : costCapUsd; }
    bool ok() const { return status == 0; }
};

/// Request → ordered candidates: the one pipeline that requests, dry runs and the sharers
/// listing share, so they never disagree.
class Router
{
public:
    explicit Router(const EngineContext &context) : m_ctx(context) {}
    Plan plan(const RequestFacts &facts) const;
    /// A fallback chain: the body's `models` (else `model`, else routing.default_model),
    /// then routing.fallback_models, cut to the first three; each planned in turn and their
    /// targets tried in order, with at most three attempts across them. One model plans as plan().
    /// accountChain false: the account's default and fallbacks are left out (the sharers listing
    /// plans the one model it names).
    Plan planChain(const RequestFacts &facts, const QStringList &models, bool accountChain = true) const;
    static constexpr int MaxChainModels = 3;

    /// The sharers of one provider for one model, filtered and ordered (also the listing).
    Target target(const QString &provider, const QString &model, const RequestFacts &facts) const;

    /// A key's named route (routing/RoutePlanning.cpp): its budget, then each target planned as a plain
    /// request bound by the target's pin and cap, in the route's order.
    Plan planRoute(const RequestFacts &facts, const Keys::Route &route) const;
    static constexpr int MaxAnyProviders = 6;
    /// "claude-sonnet-5.5" and "claude-sonnet-5-5" are one spelling.
    static QString spelling(const QString &id);

    /// A price bound from a header or a key: $/Mtok, or a percentage of the model's list.
    struct PriceBound
    {
        double value = 0;
        bool percent = false;
        QString source;        // the header or key setting it came from, for messages and refusedBy
        bool malformed = false;   // "abc%": refused with 400 once the model is known to have a list price
    };
    /// Every bound binds, so the stricter of key and header wins: a header can lower the key's
    /// ceiling and raise its floor, never the other way.
    struct Limits
    {
        QList<PriceBound> maxes;
        QList<PriceBound> mins;
        bool verifiedOnly = false;
        QString verifiedSource;
        // The levers of Levers.cpp: the sharer and provider lists, the cost cap, data collection,
        // self-hosted capacity.
        QStringList onlySharers;          // empty: any
        bool onlyFromHeader = false;      // x-aile-sharer narrowed (or replaced) the key's list
        /// What made onlySharers, for the removal reasons and the 503: the route target's pin, the
        /// header, the key's one sharer, or the key's allowed sharers.
        enum class OnlyBy { KeyList, KeySharer, Header, RoutePin };
        OnlyBy onlyBy = OnlyBy::KeyList;
        QString routePin;                 // "route coding target openai/gpt-5.2", when a route target's pin made the list
        QStringList keyNeverSharers;
        QStringList headerNeverSharers;
        QStringList excludeProviders;     // key and x-aile-exclude-provider
        QStringList headerExcludeProviders;
        QString sharerPin;                // the key's single sharer
        std::optional<double> costCap;
        QString costCapSource;
        bool denyData = false;
        QString denyDataSource;
        bool allowSelfHosted = true;      // the key's setting
        bool capacityLocal = false;
        bool capacityNode = false;
        // Speed first and moving failing sharers back are read where the order is made
        // (leverOrder: RequestFacts::prefersSpeed(), the key's demoteFailing).
    };
    /// Reads x-aile-max-price, x-aile-min-price, x-aile-verified and the key's own settings.
    /// Returns an error plan (400) for a malformed value.
    static std::optional<Plan> readLimits(const RequestFacts &facts, Limits *out);
    /// The rest of the levers (Levers.cpp): lists, cost cap, data collection, capacity.
    static std::optional<Plan> readLevers(const RequestFacts &facts, Limits *out);
    /// What a plain request for provider/model must pass before any sharer is looked at: the
    /// spend limit, excluded providers, self-hosted and data-collection policies, and the cases a
    /// cost cap cannot bound (Levers.cpp).
    std::optional<Plan> checkRequest(const RequestFacts &facts, const Limits &limits, const QString &provider, const QString &model) const;
    /// Why the levers leave this sharer out (its refusedBy in *by), or empty.
    QString leverRefusal(const RequestFacts &facts, const Limits &limits, const Catalog::Sharer &sharer, QString *by) const;
    /// The documented answer when the levers emptied a target's pool; nullopt when they did not.
    std::optional<Plan> leverEmptyPlan(const Target &target, const Limits &limits) const;
    /// Speed first and the demoted sharers, once the price order is drawn.
    void leverOrder(Target &target, const RequestFacts &facts, bool *bySpeed) const;
    /// The key's spend limit for today: a 403 budget_exceeded once it is reached.
    std::optional<Plan> checkSpendLimit(const RequestFacts &facts) const;

private:
    Target filteredTarget(const QString &provider, const QString &model, const RequestFacts &facts, const Limits &limits) const;
    QString priceRefusal(const Limits &limits, const Billing::Rates &rates, const Catalog::ModelInfo *model, qint64 promptTokens,
                         QString *source) const;
    static std::optional<Plan> malformedPercent(const Limits &limits);
    std::optional<Plan> checkPercentNeedsPrice(const Limits &limits, const QString &provider, const QString &model) const;
    Plan planAnyProvider(const RequestFacts &facts, const QString &bareId, const QStringList &limitTo) const;
    QStringList providersListing(const QString &bareId, Wire::Endpoint endpoint, QString *matchedId) const;
    QString matchingModel(const QString &provider, const QString &bareId) const;
    void order(Target &target, const RequestFacts &facts, bool *sampled) const;
    /// The price the order compares: the quote, or the comparison price when its weights are set.
    std::optional<double> sortPrice(const Candidate &c) const;
    /// router.models.<model>.providers.<handle>: priority, weight, enabled for one model.
    QJsonObject modelOverride(const QString &model, const Catalog::ModelInfo *info, const QString &handle) const;
    void failEmptyTarget(Plan &plan, const Target &target, const Limits &limits) const;

    const EngineContext &m_ctx;
};

} // namespace Routing
} // namespace Aile
