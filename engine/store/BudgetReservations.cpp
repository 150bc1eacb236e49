#include "BudgetReservations.h"

#include "Store.h"

#include <QtCore/QLoggingCategory>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlDriver>
#include <QtSql/QSqlField>
#include <QtSql/QSqlError>
#include <QtSql/QSqlQuery>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace Aile::Store {

namespace {

// Runs sql with its ? filled in by the driver's own quoting, in one round trip: a prepared query on
// QPSQL costs three (PREPARE, EXECUTE, DEALLOCATE), and these run on every request in team mode.
bool run(QSqlQuery &q, const QSqlDatabase &d, const QString &sql, const QVariantList &values)
{
    QString text;
    text.reserve(sql.size() + 32 * values.size());
    qsizetype next = 0;
    for (const QChar c : sql) {
        if (c != QLatin1Char('?') || next >= values.size()) {
            text.append(c);
            continue;
        }
        const QVariant &v = values.at(next++);
        QSqlField field(QString(), v.metaType());
        field.setValue(v);
        text.append(d.driver()->formatValue(field));
    }
    return q.exec(text);
}

double sumOf(const QSqlDatabase &d, const QString &day, const QString &keyId, const QString &route, const QString &target, qint64 nowMs)
{
    // One statement, so the ledger and the reservations are read at the same moment.
    QString scope = QStringLiteral(" WHERE day = ? AND key_id = ?");
    QVariantList binds{day, keyId};
    if (!route.isEmpty()) {
        scope += QStringLiteral(" AND route = ?");
        binds << route;
        if (!target.isEmpty()) {
            scope += QStringLiteral(" AND target = ?");
            binds << target;
        }
    }
    QSqlQuery q(d);
    const QString sql = QStringLiteral("SELECT (SELECT COALESCE(SUM(cost_usd), 0) FROM ledger%1)"
                                       " + (SELECT COALESCE(SUM(amount_usd), 0) FROM reservations%1 AND expires_ms > ?)")
                            .arg(scope);
    if (!run(q, d, sql, binds + binds + QVariantList{nowMs}) || !q.next()) {
        qCWarning(lcStore) << "sum spend and reservations failed:" << q.lastError().text();
        return 0;
    }
    return q.value(0).toDouble();
}

} // namespace

std::optional<BudgetLimit> BudgetReservations::reserve(const Reservation &r, const QList<BudgetLimit> &limits, qint64 nowMs, double *spent,
                                                       bool *failed)
{
    QSqlDatabase d = QSqlDatabase::database(m_store.connectionName(), false);
    if (!d.transaction()) {
        if (failed)
            *failed = true; // the store is unreachable: the caller says so (docs/team.md "Losing the database")
        return std::nullopt;
    }
    QSqlQuery q(d);
    if (m_store.isShared()) {
        // A reservation is soft state (it expires by itself): its commit need not wait for the
        // disk, and the per-key lock below is then held for a round trip, not for an fsync.
        q.exec(QStringLiteral("SET LOCAL synchronous_commit TO OFF"));
        // Every instance reserving for this key waits here for the one before it to commit.
        run(q, d, QStringLiteral("SELECT pg_advisory_xact_lock(hashtext(?))"), {r.keyId});
    }
    for (const BudgetLimit &l : limits) {
        const double s = sumOf(d, r.day, r.keyId, l.route, l.target, nowMs);
        if (s + 1e-12 >= l.usd) {
            d.rollback();
            if (spent)
                *spent = s;
            return l;
        }
    }
    run(q, d, QStringLiteral("DELETE FROM reservations WHERE key_id = ? AND expires_ms <= ?"), {r.keyId, nowMs}); // left by a crash
    if (!run(q, d, QStringLiteral("INSERT INTO reservations(id, day, key_id, route, target, amount_usd, expires_ms) VALUES(?,?,?,?,?,?,?)"),
             {r.id, r.day, r.keyId, r.route, r.target, r.amountUsd, r.expiresMs})) {
        qCWarning(lcStore) << "reserve failed:" << q.lastError().text();
        d.rollback();
        if (failed)
            *failed = true;
        return std::nullopt;
    }
    d.commit();
    return std::nullopt;
}

double BudgetReservations::spent(const QString &day, const QString &keyId, const QString &route, const QString &target, qint64 nowMs) const
{
    return sumOf(QSqlDatabase::database(m_store.connectionName(), false), day, keyId, route, target, nowMs);
}

int BudgetReservations::live(qint64 nowMs) const
{
    QSqlQuery q(QSqlDatabase::database(m_store.connectionName(), false));
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM reservations WHERE expires_ms > ?"));
    q.addBindValue(nowMs);
    return q.exec() && q.next() ? q.value(0).toInt() : 0;
}

} // namespace Aile::Store
