#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QString>

#include <optional>

namespace Aile {
class Clock;
namespace Store {
class Store;
}
namespace Keys {
struct ApiKey;
}
namespace Routing {
struct Plan;
}
} // namespace Aile

namespace Aile::Dispatch {

/// Why a request was refused when its quote was to be held.
struct BudgetRefusal
{
    int status = 402;
    QString message;
    QJsonObject extra;
};

/// Team mode (docs/team.md "Budgets"): before a request on a shared store is dialled, its quote
/// (the first candidate's, the most the planner expects it to cost) is reserved against every
/// daily budget it counts toward: the key's spend limit, its route's budget and the target's.
/// Another instance may have spent or reserved the rest since the plan was made, so the check is
/// made again inside the reservation's transaction. The ledger row's commit releases it.
/// On SQLite (one instance) nothing is reserved: the planner's check against today's spend, kept
/// in memory, is the whole rule, as before team mode.
std::optional<BudgetRefusal> holdBudget(Store::Store *store, Clock &clock, const Keys::ApiKey &key, const Routing::Plan &plan,
                                        const QString &requestId);

} // namespace Aile::Dispatch
