#pragma once

#include <QtCore/QList>
#include <QtCore/QString>

#include <optional>

namespace Aile::Store {

class Store;

/// A daily budget a reservation must fit: the key's own (route and target empty), a route's, or
/// one route target's (what the target calls).
struct BudgetLimit
{
    QString route;
    QString target;
    double usd = 0;
};

/// A request's quote held against its key's budgets from before it is dialled until its ledger
/// row is committed (Store::record removes it in that same transaction), or until expiresMs when
/// the instance that made it died.
struct Reservation
{
    QString id;  // the request id (the trace's)
    QString day; // UTC
    QString keyId;
    QString route;
    QString target;
    double amountUsd = 0;
    qint64 expiresMs = 0;
};

/// Budgets exact across instances on a shared store (docs/team.md "Budgets"): spend is the ledger
/// plus the live reservations of every instance, and a reservation is checked and made in one
/// transaction that holds a per-key lock, so two instances never both take the last dollar.
class BudgetReservations
{
public:
    /// How long a reservation outlives a crash of the instance that made it.
    static constexpr qint64 LifetimeMs = 10 * 60 * 1000;

    explicit BudgetReservations(const Store &store) : m_store(store) { }

    /// Reserves r when every limit still has room (what is spent and reserved is below it);
    /// otherwise reserves nothing and returns the limit that is reached, with what it holds in spent.
    /// failed, if given, is set when the store did not answer (nothing is reserved then).
    std::optional<BudgetLimit> reserve(const Reservation &r, const QList<BudgetLimit> &limits, qint64 nowMs, double *spent, bool *failed = nullptr);
    /// Ledger plus live reservations for a day and key (and route, and target).
    double spent(const QString &day, const QString &keyId, const QString &route, const QString &target, qint64 nowMs) const;
    /// Live reservations (tests and the management API).
    int live(qint64 nowMs) const;

private:
    const Store &m_store;
};

} // namespace Aile::Store
