#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QString>

#include <optional>

namespace Aile::Api {

/// What a real request would be answered instead of being served: the status, the engine's message
/// (cause and fix) and its code (budget_spent, cost_cap, …). A refusal may carry figures of its own
/// (a cap and the quote that passed it): they ride in extra as the engine sent them.
struct Refusal
{
    int status = 0;
    QString message;
    QString code;
    std::optional<qint64> retryAfterSeconds;
    QJsonObject extra;

    static Refusal fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const Refusal &) const = default;
};

/// A refusal under `key` of o, or nullopt when o has none.
std::optional<Refusal> refusalIn(const QJsonObject &o, const char *key = "refusal");

} // namespace Aile::Api
