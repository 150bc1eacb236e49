#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QMap>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace Aile::Api {

/// One quota window a sharer's provider reported on its last answer (QuotaBook::toJson).
struct QuotaWindow
{
    QString name;               // "5h", "7d", "requests", …
    QString kind;               // "subscription" or "rate"
    std::optional<double> used; // fraction used, 0..1, when the provider says
    bool exhausted = false;
    bool fresh = true;  // reported within the last 10 minutes
    QString observedAt; // ISO time of the report
    QString resetsAt;   // ISO time, or empty
    std::optional<qint64> lengthSeconds;
    QString models; // "*codex*": the models the window covers, or empty for all

    static QuotaWindow fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const QuotaWindow &) const = default;
};

/// A sharer's published health over the last 30 minutes (HealthWindow::Stats::toJson).
struct SharerHealth
{
    bool published = false; // after 100 served requests
    qint64 served = 0;
    int attempts30m = 0;
    std::optional<double> successRate30m;
    std::optional<qint64> latencyMs30m;
    QString note;

    static SharerHealth fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const SharerHealth &) const = default;
};

/// One row of GET /sharers: for a model, a sharer in routing order (or one a filter, a cooldown
/// or a block took out, with available false and its reason); without a model, a sharer by handle.
/// The sharer's configuration (price sheet, base URL, models) is EngineStatus's, not the row's.
struct SharerRow
{
    int rank = 0; // 1-based in routing order; 0 on an unavailable row or by handle
    QString handle;
    QString name;
    QString provider;
    QString model; // the upstream model (a listing for a model)
    bool available = false;
    QString reason;             // why not available, in the engine's words
    QString skip;               // its code (cooldown, filter, …)
    std::optional<bool> tested; // a listing for a model: was that model tested here
    QStringList testedModels;   // a listing by handle: every model tested here
    bool deadKey = false;
    bool tiedWithPrevious = false;
    bool degraded = false;
    bool blocked = false;
    bool needsKey = false;
    std::optional<double> health; // the tie-draw factor
    std::optional<int> priority;
    std::optional<int> weight;
    std::optional<double> ttfbMs;
    std::optional<double> inputPrice; // $ per million tokens
    std::optional<double> outputPrice;
    std::optional<double> quoteUsd;
    QList<QuotaWindow> quota;
    std::optional<SharerHealth> stats;
    QString credentialStore; // keychain, file, env or none: where, never what

    static SharerRow fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const SharerRow &) const = default;
};

/// The whole answer of GET /sharers.
struct SharerListing
{
    bool readingOrder = false;      // "order": "reading" (sorted by sort=), else the routing order
    QMap<QString, QString> filters; // what the engine applied, echoed (model, max-price, …)
    QList<SharerRow> rows;
    QString footer; // the line `aile sharers` prints under the table

    static SharerListing fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const SharerListing &) const = default;
};

/// The answer of POST /sharers/{handle}/test and /probe: did the sharer answer, in the engine's words.
struct SharerCheck
{
    bool ok = false;
    int status = 0; // the upstream's HTTP status, 0 when none answered
    QString message;

    static SharerCheck fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const SharerCheck &) const = default;
};

} // namespace Aile::Api
