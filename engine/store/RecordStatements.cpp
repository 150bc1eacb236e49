#include "RecordStatements.h"

#include "AttemptsJson.h"
#include "SqlDialect.h"
#include "SqliteStatement.h"

#include <QtCore/QHash>
#include <QtCore/QLoggingCategory>
#include <QtCore/QSet>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlError>
#include <QtSql/QSqlQuery>

#include <bit>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace Aile::Store {

namespace {

constexpr int TraceColumnCount = 27;
static_assert(TraceColumnCount * RecordStatements::MaxRows < 32766, "SQLite's bound-parameter limit");

// Typed: PostgreSQL cannot tell a bare parameter's type in a SELECT list.
const char LedgerRow[] = "(CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT),"
                         " CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION), CAST(? AS DOUBLE PRECISION), CAST(? AS INTEGER),"
                         " CAST(? AS DOUBLE PRECISION))";
constexpr int LedgerColumnCount = 11;

QString repeated(const QString &row, int rows)
{
    QStringList all(rows, row);
    return all.join(QLatin1Char(','));
}

// A row's values bound through QSqlQuery (PostgreSQL), with the calls SqliteStatement takes.
class QtRow
{
public:
    QtRow(QSqlQuery &q, int base) : m_q(q), m_at(base) { }
    void text(const QString &value) { m_q.bindValue(m_at++, value); }
    void utf8(QByteArrayView value) { m_q.bindValue(m_at++, QString::fromUtf8(value)); }
    void integer(qint64 value) { m_q.bindValue(m_at++, value); }
    void real(double value) { m_q.bindValue(m_at++, value); }
    void null() { m_q.bindValue(m_at++, QVariant()); }

private:
    QSqlQuery &m_q;
    int m_at;
};

// The columns in TraceColumnList's order.
template <class Row>
void bindTrace(Row &row, const TraceRecord &r)
{
    row.text(r.id);
    row.integer(r.startedMs);
    row.text(r.keyId);
    row.text(r.keyName);
    row.text(r.client);
    row.text(r.endpoint);
    row.text(r.modelAsked);
    row.text(r.modelServed);
    row.text(r.route);
    row.text(r.sharer);
    row.text(r.sharerName);
    row.integer(r.status);
    row.integer(r.attempts);
    row.integer(r.ttfbMs);
    row.integer(r.durationMs);
    row.integer(r.inputTokens);
    row.integer(r.outputTokens);
    row.real(r.costUsd);
    row.real(r.absorbedUsd);
    row.text(r.affinity);
    row.integer(r.stream ? 1 : 0);
    row.text(r.error);
    // The JSON columns go through one buffer the thread keeps (the row's values are copied where
    // they are bound), not a fresh array per row.
    thread_local QByteArray json;
    json.resize(0); // keeps the capacity
    appendAttemptsJson(json, r.attemptRows);
    row.utf8(json);
    if (r.pin.isEmpty()) {
        row.null();
    } else {
        json.resize(0);
        appendJson(json, r.pin);
        row.utf8(json);
    }
    row.text(r.orderedBy);
    if (r.session.isEmpty())
        row.null();
    else
        row.text(r.session);
    if (r.maxOutputTokens >= 0)
        row.integer(r.maxOutputTokens);
    else
        row.null();
}

template <class Row>
void bindLedger(Row &row, const LedgerEntry &e)
{
    row.text(e.traceId);
    row.integer(e.atMs);
    row.text(e.day);
    row.text(e.keyId);
    row.text(e.route);
    row.text(e.target);
    row.text(e.sharer);
    row.real(e.costUsd);
    row.real(e.absorbedUsd);
    row.integer(e.subscription ? 1 : 0);
    row.real(e.listValueUsd);
}

} // namespace

RecordStatements::RecordStatements(QString connection, const SqlDialect &dialect) : m_connection(std::move(connection)), m_dialect(dialect)
{
    if (!m_dialect.isPostgres())
        m_sqlite = SqliteStatement::handleOf(QSqlDatabase::database(m_connection, false));
}

RecordStatements::~RecordStatements() = default;

QString RecordStatements::sql(Table table, int rows) const
{
    switch (table) {
    case Traces: return m_dialect.upsert(QStringLiteral("traces"), QString::fromLatin1(TraceColumnList).split(QStringLiteral(", ")), 1, rows);
    case TracesIfAbsent:
        return m_dialect.insertIfAbsent(QStringLiteral("traces"), QString::fromLatin1(TraceColumnList).split(QStringLiteral(", ")), 1, rows);
    case Ledger:
        // A request's ledger rows are booked in the transaction that writes its trace row, and
        // before it (write()): a trace row already there means the request is booked (a batch
        // written again, the ledger journal replayed after a kill -9) and it is not booked twice.
        // VALUES names its columns column1, column2, … on both dialects.
        return QStringLiteral("INSERT INTO ledger(trace_id, at_ms, day, key_id, route, target, sharer, cost_usd, absorbed_usd,"
                              " subscription, list_value_usd) SELECT * FROM (VALUES %1) AS v"
                              " WHERE NOT EXISTS (SELECT 1 FROM traces WHERE traces.id = v.column1)")
            .arg(repeated(QString::fromLatin1(LedgerRow), rows));
    case Reservations: return QStringLiteral("DELETE FROM reservations WHERE id IN (%1)").arg(repeated(QStringLiteral("?"), rows));
    case TableCount: break;
    }
    return {};
}

QSqlQuery &RecordStatements::statement(Table table, int rows)
{
    std::unique_ptr<QSqlQuery> &slot = m_statements[table][std::countr_zero(unsigned(rows))];
    if (!slot) {
        slot = std::make_unique<QSqlQuery>(QSqlDatabase::database(m_connection, false));
        if (!slot->prepare(sql(table, rows)))
            qCWarning(lcStore) << "could not prepare the batch insert:" << slot->lastError().text();
        ++m_prepared;
    }
    return *slot;
}

SqliteStatement &RecordStatements::sqliteStatement(Table table, int rows)
{
    std::unique_ptr<SqliteStatement> &slot = m_sqliteStatements[table][std::countr_zero(unsigned(rows))];
    if (!slot) {
        slot = std::make_unique<SqliteStatement>(m_sqlite, sql(table, rows));
        if (!slot->isValid())
            qCWarning(lcStore) << "could not prepare the batch insert:" << slot->error();
        ++m_prepared;
    }
    return *slot;
}

bool RecordStatements::run(SqliteStatement &s, const char *what)
{
    ++m_executed;
    if (s.isValid() && s.run())
        return true;
    qCWarning(lcStore) << what << "failed:" << s.error();
    return false;
}

// Chunks of MaxRows, then the remainder by falling powers of two (50 = 32 + 16 + 2).
template <class Rows, class Bind>
bool RecordStatements::inChunks(Table table, const Rows &rows, int columns, Bind bind, const char *what)
{
    qsizetype done = 0;
    while (done < rows.size()) {
        int n = MaxRows;
        while (n > rows.size() - done)
            n /= 2;
        if (m_sqlite) {
            SqliteStatement &s = sqliteStatement(table, n);
            if (s.isValid())
                for (int i = 0; i < n; ++i)
                    bind(s, *rows.at(done + i));
            if (!run(s, what))
                return false;
        } else {
            QSqlQuery &q = statement(table, n);
            for (int i = 0; i < n; ++i) {
                QtRow row(q, i * columns);
                bind(row, *rows.at(done + i));
            }
            if (!run(q, what))
                return false;
        }
        done += n;
    }
    return true;
}

bool RecordStatements::run(QSqlQuery &q, const char *what)
{
    ++m_executed;
    if (q.exec())
        return true;
    qCWarning(lcStore) << what << "failed:" << q.lastError().text();
    return false;
}

bool RecordStatements::write(const QList<TraceRecord> &traces, const QList<LedgerEntry> &ledger, bool keepExisting)
{
    // One statement may not name a row twice (PostgreSQL's ON CONFLICT refuses it): a trace keeps
    // its last version, as row-by-row upserts would; a request its first ledger row, as the
    // booked-once check would.
    QList<const TraceRecord *> traceRows;
    traceRows.reserve(traces.size());
    // Keyed by views of the records' ids: the batch outlives the maps, and a view costs no count.
    QHash<QStringView, qsizetype> traceAt;
    traceAt.reserve(traces.size());
    for (const TraceRecord &r : traces) {
        if (const auto it = traceAt.constFind(r.id); it != traceAt.cend()) {
            traceRows[*it] = &r;
            continue;
        }
        traceAt.insert(r.id, traceRows.size());
        traceRows.append(&r);
    }
    QList<const LedgerEntry *> ledgerRows;
    ledgerRows.reserve(ledger.size());
    QSet<QStringView> booked;
    booked.reserve(ledger.size());
    for (const LedgerEntry &e : ledger) {
        if (booked.contains(e.traceId))
            continue;
        booked.insert(e.traceId);
        ledgerRows.append(&e);
    }

    // The ledger first: its booked-once check reads the trace rows as they were before this batch.
    if (!inChunks(Ledger, ledgerRows, LedgerColumnCount, [](auto &row, const LedgerEntry &e) { bindLedger(row, e); }, "insert ledger entries"))
        return false;
    if (!inChunks(keepExisting ? TracesIfAbsent : Traces, traceRows, TraceColumnCount, [](auto &row, const TraceRecord &r) { bindTrace(row, r); },
                  "insert traces"))
        return false;
    if (!m_dialect.isPostgres())
        return true;
    // The requests' reservations end in the transaction that books their ledger rows: the budget
    // never counts one twice, nor loses it in between.
    return inChunks(Reservations, traceRows, 1, [](auto &row, const TraceRecord &r) { row.text(r.id); }, "release reservations");
}

} // namespace Aile::Store
