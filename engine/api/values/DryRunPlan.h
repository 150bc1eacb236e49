#pragma once

#include "Refusal.h"

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QMap>
#include <QtCore/QString>

#include <optional>

namespace Aile::Api {

/// What POST /keys/route-dry-run asks: a model (or a key's route name), the key whose saved
/// settings apply, and optionally the endpoint, a body and headers, as a request would carry them.
struct DryRunAsk
{
    QString model;
    QString key;
    QString endpoint; // empty: /v1/chat/completions
    QJsonObject body; // empty: a one-line prompt
    QMap<QString, QString> headers;

    static DryRunAsk fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const DryRunAsk &) const = default;
};

/// A sharer left for a target, in the order a request would try them.
struct DryRunSharer
{
    int rank = 0;
    QString handle;
    QString name;
    bool tested = false;
    std::optional<qint64> ttfbMs;
    bool first = false;
    bool tiedWithFirst = false;
    std::optional<double> quoteUsd; // empty: unquotable
    std::optional<double> inputPrice;
    std::optional<double> outputPrice;
    bool operator==(const DryRunSharer &) const = default;
};

/// A sharer a filter of the key or the request removed, named, with the filter (refusedBy).
struct DryRunRemoved
{
    QString handle;
    QString name;
    QString reason;
    QString refusedBy;
    bool operator==(const DryRunRemoved &) const = default;
};

/// One target of the plan (a model, a route's target, or an auto/ provider).
struct DryRunTarget
{
    QString target;
    QString calls;
    QString translated; // "messages->chat" when the request is rewritten for this target's wire
    QList<DryRunRemoved> removed;
    QMap<QString, int> unavailable; // how many, by reason (cooldown, quota_exhausted, …)
    QList<DryRunSharer> sharers;    // at most 50
    int more = 0;                   // the sharers past those
    std::optional<Refusal> refusal; // refused before any sharer is asked
    bool operator==(const DryRunTarget &) const = default;
};

/// The route a key's route name as the model plans.
struct DryRunRoute
{
    QString name;
    QString order;  // in-order, cheapest, round-robin
    QString prefer; // follow, speed, price
    double spentTodayUsd = 0;
    std::optional<int> ttftMs;
    std::optional<double> budgetUsdPerDay;
    std::optional<qint64> turn; // round-robin: the target the next request starts at
    bool operator==(const DryRunRoute &) const = default;
};

/// A model of the chain a request would try, and why it would be passed over.
struct DryRunChainLink
{
    QString model;
    std::optional<Refusal> refusal;
    bool operator==(const DryRunChainLink &) const = default;
};

/// The answer of POST /keys/route-dry-run (docs/management-api.md): what a request would do,
/// planned as a request is, with nothing sent, charged or written.
struct DryRunPlan
{
    QString model;
    QString endpoint;
    QList<DryRunChainLink> chain;
    int maxAttempts = 0;
    QString sessionAffinity;
    bool sampled = false; // "ordering": "sampled", else fixed
    QList<DryRunTarget> targets;
    QString note;
    std::optional<DryRunRoute> route;
    // Where a request would be served first.
    QString firstTarget;
    QString firstSharer;
    QString firstName;
    std::optional<Refusal> refusal; // what a real request would be answered

    static DryRunPlan fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const DryRunPlan &) const = default;
};

} // namespace Aile::Api
