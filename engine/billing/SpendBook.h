#pragma once

#include "store/TraceRecord.h"

#include <QtCore/QHash>
#include <QtCore/QString>

namespace Aile {
class Clock;
}
namespace Aile::Store {
class Store;
}

namespace Aile::Billing {

/// Today's (UTC) spend per key, per key and route, and per key, route and target, as the routing
/// pipeline reads it: loaded once a day from the durable ledger, then kept current as requests
/// finish, so a budget sees a charge the moment it is made, before the store writer commits it.
/// Only the engine thread touches it.
///
/// On a shared store (PostgreSQL, team mode) other instances spend too, so every read asks the
/// database: the ledger plus the reservations of requests in flight on any instance
/// (Store::BudgetReservations, docs/team.md "Budgets").
class SpendBook
{
public:
    /// clock: what a shared store's reservations expire against (team mode).
    void attach(const Store::Store *store, const Clock *clock = nullptr);
    /// What the ledger holds for that day (UTC) and key; with route, that route only; with route and
    /// target, what that route spent on what the target calls.
    double spent(const QString &day, const QString &keyId, const QString &route = {}, const QString &target = {}) const;
    /// What the key's requests served on subscription plans were worth at list price that day
    /// (docs/subscriptions.md "What it costs"): shown beside the money, never counted by a budget.
    double listValue(const QString &day, const QString &keyId) const;
    /// A charge made now; the same entry goes to the store writer.
    void add(const Store::LedgerEntry &entry);
    /// Reads that day's sums now, if they are not held yet. The engine does so for today when it
    /// starts, before it listens: read at the first request instead, a busy day's ledger kept
    /// every request in flight waiting (~200 ms at 100,000 rows; docs/performance.md,
    /// "Change 22 (spend)"). A new day's first request reads the new day, which is nearly empty.
    void prime(const QString &day) const;

private:
    void load(const QString &day) const;
    static QString slot(const QString &keyId, const QString &route, const QString &target);

    const Store::Store *m_store = nullptr;
    const Clock *m_clock = nullptr;
    mutable QString m_day;
    mutable QHash<QString, double> m_sums;
    mutable QHash<QString, double> m_listValues; // per key
};

} // namespace Aile::Billing
