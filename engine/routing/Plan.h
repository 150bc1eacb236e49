#pragma once

#include "billing/Quote.h"
#include "wire/Wire.h"

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QString>

#include <optional>

namespace Aile::Routing {

/// One sharer that may serve, in routing order.
struct Candidate
{
    QString handle;
    QString name;
    QString provider;
    QString upstreamModel;               // exactly as it goes upstream
    std::optional<Billing::Rates> rates; // unset: un-quotable
    std::optional<double> quoteUsd;      // for the request's estimated tokens
    bool tested = false;
    bool deadKey = false;
    double health = 1.0;                    // the tie-draw factor
    int priority = 0;                       // tier (docs/rules/tiers-quota-health.md): higher first
    int weight = 1;                         // share of the tie draw (docs/rules/tiers-quota-health.md), per-model override applied
    bool degraded = false;                  // recent success rate low, or a half-open breaker (docs/rules/tiers-quota-health.md)
    std::optional<qint64> allowanceResetMs; // quota-reset selection: when the longest fresh window resets
    double ttfbMs = -1;                     // observed, -1 without samples
    int ttfbSamples = 0;
    double throughput = -1; // output tokens per second observed, -1 without samples
    int throughputSamples = 0;
    bool demoted = false;          // failing this key lately (demoteFailing): sorted last
    bool tiedWithPrevious = false; // same price as the one before it (a drawn order)
    bool node = false;             // a node-backed sharer (provider aile): upstreamModel is "<provider>/<model>"
};

/// A sharer left out before any dial, and why.
struct Refusal
{
    QString handle;
    QString name;
    QString reason;
    qint64 untilMs = 0;   // cooling: when it ends
    QString refusedBy;    // the header or key setting whose filter removed it
    QString code;         // cooldown, quota_exhausted, capability, disabled, …
    double quoteUsd = -1; // refused by a cost cap: what it quoted
};

/// One provider/model to try, with its sharers in order. A plain request has one target; an
/// auto/ request one per provider; a named route one per route target.
struct Target
{
    QString provider;
    QString model; // the upstream model id
    QList<Candidate> candidates;
    QList<Refusal> refusals;
    std::optional<double> costCapUsd; // the binding cost cap for this target (a route target may carry its own)
    // A named route's target: what it calls (the ledger's key for its spend), and why it was
    // refused before any sharer was asked (a spent budget, a cost cap no sharer fits, …).
    QString calls;
    QString route; // the route it belongs to (the ledger charges its spend there)
    int refusalStatus = 0;
    QString refusal;
    QString refusalCode; // budget_spent, cost_cap, capability, …
    QString echoModel;   // any provider (auto/): the id the client sent, which the answer names
    // The provider speaks another chat wire and the key or route target allows translation
    // (docs/translation.md): the wire the request is rewritten to; Unknown: sent as the client wrote it.
    Wire::Endpoint translateTo = Wire::Endpoint::Unknown;
    QString translation; // its label, "messages->chat" (x-aile-translated, the trace, the dry run)
    bool translated() const { return translateTo != Wire::Endpoint::Unknown; }
    QString label() const { return provider + QLatin1Char('/') + model; }
    /// What the ledger books this target's spend under: what a route target calls, else its label.
    QString spendKey() const { return calls.isEmpty() ? label() : calls; }
};

/// One model of a request's chain (the body's `models`, else its `model` or the account's
/// default_model, then the account's fallback_models), and why it cannot be served when it cannot.
struct ChainLink
{
    QString model;
    int status = 0; // 0: planned; else the refusal a request for it alone gets
    QString message;
    QJsonObject extra;
};

/// The ordered targets for a request, or the error it gets before anything is dialled.
struct Plan
{
    int status = 0; // 0: route it; else the error status
    QString message;
    QJsonObject extra;        // refusedBy, …
    qint64 retryAfterMs = -1; // with a 429: the earliest end of a cooldown
    QList<Target> targets;
    bool anyProvider = false;         // auto/: the provider may change between attempts
    bool sampled = false;             // a draw broke a tie somewhere
    std::optional<double> costCapUsd; // the binding cost cap (lowest of header and key)
    QString costCapSource;
    bool orderedBySpeed = false; // the key prefers speed and it applied
    int maxDials = 0;            // 0: the setting; a models chain makes at most 3 attempts
    QString route;               // a key's named route: its name
    int ttftMs = 0;              // the route's first-token limit (2+ targets); 0: none
    bool phaseLimits = false;    // the key's or the route's phase limits (docs/keys.md `phaseLimits`)
    QList<ChainLink> chain;      // every model the request tries, in order (planChain)
    /// Each attempt's trace row names its target (any provider, a chain, a named route).
    bool labelsTargets() const { return anyProvider || !route.isEmpty(); }
    /// The cost cap that binds an answer of target t: its own (a route target's), else the plan's.
    std::optional<double> costCapFor(const Target &t) const { return t.costCapUsd ? t.costCapUsd : costCapUsd; }
    bool ok() const { return status == 0; }
    /// A plan that refuses the request before anything is dialled.
    static Plan refusal(int status, const QString &message, const QJsonObject &extra = {});
};

} // namespace Aile::Routing
