#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QMetaType>
#include <QtCore/QString>

namespace Aile::Store {

/// One row per sharer dialled or passed over for a request, in order.
struct AttemptRecord
{
    int seq = 0;
    QString sharer; // handle
    QString sharerName;
    QString provider;
    QString model;   // as sent upstream
    QString target;  // route target ("provider/model"), empty outside routes
    int status = 0;  // upstream status; 0 when none came
    QString outcome; // served, failed_over, passed_through, refused, client_gone, cut, …
    QString reason;  // why: upstream error text, cooling, budget spent, …
    QString skip;    // a pre-dispatch refusal's kind: cooldown, quota_exhausted, capability, …
    qint64 startedMs = 0;
    qint64 ttfbMs = -1;
    qint64 durationMs = 0;
    qint64 inputTokens = -1;
    qint64 outputTokens = -1;
    double quoteUsd = -1;
    bool dispatched = true; // false for a pre-dispatch refusal
    QJsonObject plan;       // a dialled row: what the plan knew of it (tier, weight, tie group, draw; Routing::planFacts)
    // Through a node-backed sharer (docs/team.md): the node's own sharer and price, as its answer
    // named them (its x-aile-sharer and x-aile-price); empty otherwise.
    QString nodeSharer;
    QString nodePrice;

    QJsonObject toJson() const;
    static AttemptRecord fromJson(const QJsonObject &o);
};

/// One request as the user sees it in the Traces view and GET /keys/usage/requests.
struct TraceRecord
{
    QString id;
    qint64 startedMs = 0;
    QString keyId;
    QString keyName;
    QString client;   // claude-code, codex, opencode, openai-sdk, anthropic-sdk, …
    QString endpoint; // inbound path
    QString modelAsked;
    QString modelServed; // provider/model
    QString route;
    QString sharer;
    QString sharerName;
    int status = 0;
    int attempts = 0;
    qint64 ttfbMs = -1;
    qint64 durationMs = 0;
    qint64 inputTokens = -1;
    qint64 outputTokens = -1;
    double costUsd = 0;
    double absorbedUsd = 0;
    QString affinity;  // fresh, pinned, off, skipped: <why>, moved: <why> (x-aile-session-affinity)
    QJsonObject pin;   // the conversation's pin after this request: sharer, sharerName, by, untilMs, foundBy
    QString orderedBy; // "speed" when the key's speed-first setting ordered it (docs/keys.md)
    bool stream = false;
    QString error;
    QList<AttemptRecord> attemptRows;
    // What a replay of the request needs (docs/replay.md); empty and -1 on rows written before schema 6.
    QString session;             // the session's tie-draw seed as 16 hex digits (a digest, never the client's value); "none": no session
    qint64 maxOutputTokens = -1; // the output cap the client's body asked for; -1: none

    QJsonObject toJson() const;
    static TraceRecord fromJson(const QJsonObject &o);
};

/// What the ledger books for a served request (one row per charge).
struct LedgerEntry
{
    QString traceId;
    qint64 atMs = 0;
    QString day; // YYYY-MM-DD, UTC
    QString keyId;
    QString route;
    QString target; // what the target calls: provider/model[@sharer]
    QString sharer;
    double costUsd = 0; // money spent: what budgets and spend limits count
    double absorbedUsd = 0;
    // Served by a subscription sharer (docs/subscriptions.md "What it costs"): costUsd is 0 and
    // listValueUsd is what the usage would have cost at the catalogue's list prices.
    bool subscription = false;
    double listValueUsd = 0;
};

/// Ledger rows summed by the database, one group per day, key, route, target, sharer and kind
/// (served on a plan or not): what the engine's SpendBook, the usage summary (UsageSummary.h) and
/// the charts' spend (api/values/ChartFigures.h) start from, rather than a busy day's ~100,000
/// rows one by one.
struct LedgerGroup
{
    QString day;
    QString keyId;
    QString route;
    QString target;
    QString sharer;
    bool subscription = false;
    double costUsd = 0;
    double listValueUsd = 0;
    int requests = 0;
};

} // namespace Aile::Store

Q_DECLARE_METATYPE(Aile::Store::TraceRecord)
Q_DECLARE_METATYPE(QList<Aile::Store::TraceRecord>)
