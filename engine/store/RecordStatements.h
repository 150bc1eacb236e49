#pragma once

#include "TraceRecord.h"

#include <QtCore/QString>

#include <array>
#include <memory>

class QSqlQuery;
struct sqlite3;

namespace Aile::Store {

class SqlDialect;
class SqliteStatement;

/// The traces table's columns in the order the store writes and reads them.
inline constexpr char TraceColumnList[] = "id, started_ms, key_id, key_name, client, endpoint, model_asked, model_served, route, sharer,"
                                          " sharer_name, status, attempts, ttfb_ms, duration_ms, input_tokens, output_tokens, cost_usd,"
                                          " absorbed_usd, affinity, stream, error, attempts_json, affinity_pin, ordered_by, session, max_output";

/// How a connection writes a batch of finished requests (Store::record, inside its transaction):
/// one multi-row statement per table per chunk of up to MaxRows rows, each chunk a power of two so
/// that a connection prepares at most one statement per (table, chunk size) in its lifetime and
/// binds it again for every batch. A batch of 50 requests is 3 trace statements (32 + 16 + 2 rows)
/// and 3 ledger statements instead of 100 (docs/performance.md "Change 4 (store)"). On SQLite the
/// statements are prepared and bound with SQLite's own API on Qt's handle (SqliteStatement), on
/// PostgreSQL through QSqlQuery.
class RecordStatements
{
public:
    /// Rows per statement at most: 64 × 27 trace columns = 1,728 bound parameters, far under
    /// SQLite's limit (32,766 since 3.32) and PostgreSQL's (65,535).
    static constexpr int MaxRows = 64;

    RecordStatements(QString connection, const SqlDialect &dialect);
    ~RecordStatements();
    RecordStatements(const RecordStatements &) = delete;
    RecordStatements &operator=(const RecordStatements &) = delete;

    /// Writes the rows in the caller's transaction; false (logged) when a statement failed.
    /// A trace id twice in one batch is written once, its last version; a request's ledger rows
    /// are booked only when its trace row was not there before (Store::record's idempotence).
    /// keepExisting: a trace row already there stays as it is (a journal replayed at start: the
    /// row in the database may carry more than the journal's record does).
    bool write(const QList<TraceRecord> &traces, const QList<LedgerEntry> &ledger, bool keepExisting = false);

    /// What this connection did so far: statements prepared and executed (the tests' view of "one
    /// statement per batch, prepared once").
    int prepared() const { return m_prepared; }
    int executed() const { return m_executed; }

private:
    enum Table { Traces, TracesIfAbsent, Ledger, Reservations, TableCount };
    static constexpr int ChunkSizes = 7; // 1, 2, 4, … 64 rows
    QSqlQuery &statement(Table table, int rows);
    SqliteStatement &sqliteStatement(Table table, int rows);
    QString sql(Table table, int rows) const;
    bool run(QSqlQuery &q, const char *what);
    bool run(SqliteStatement &s, const char *what);
    template <class Rows, class Bind>
    bool inChunks(Table table, const Rows &rows, int columns, Bind bind, const char *what);

    QString m_connection;
    const SqlDialect &m_dialect;
    sqlite3 *m_sqlite = nullptr; // the SQLite connection's own handle; null on PostgreSQL
    std::array<std::array<std::unique_ptr<QSqlQuery>, ChunkSizes>, TableCount> m_statements;
    std::array<std::array<std::unique_ptr<SqliteStatement>, ChunkSizes>, TableCount> m_sqliteStatements;
    int m_prepared = 0;
    int m_executed = 0;
};

} // namespace Aile::Store
