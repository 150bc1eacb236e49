#include "RecordStatements.h"

#include "SqlDialect.h"

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
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

void bindTrace(QSqlQuery &q, int base, const TraceRecord &r)
{
    QJsonArray attempts;
    for (const AttemptRecord &x : r.attemptRows)
        attempts.append(x.toJson());
    const QVariant values[TraceColumnCount] = {r.id,
                                               r.startedMs,
                                               r.keyId,
                                               r.keyName,
                                               r.client,
                                               r.endpoint,
                                               r.modelAsked,
                                               r.modelServed,
                                               r.route,
                                               r.sharer,
                                               r.sharerName,
                                               r.status,
                                               r.attempts,
                                               r.ttfbMs,
                                               r.durationMs,
                                               r.inputTokens,
                                               r.outputTokens,
                                               r.costUsd,
                                               r.absorbedUsd,
                                               r.affinity,
                                               int(r.stream),
                                               r.error,
                                               QString::fromUtf8(QJsonDocument(attempts).toJson(QJsonDocument::Compact)),
                                               r.pin.isEmpty() ? QVariant(QString())
                                                               : QVariant(QString::fromUtf8(QJsonDocument(r.pin).toJson(QJsonDocument::Compact))),
                                               r.orderedBy,
                                               r.session.isEmpty() ? QVariant() : QVariant(r.session),
                                               r.maxOutputTokens >= 0 ? QVariant(r.maxOutputTokens) : QVariant()};
    for (int i = 0; i < TraceColumnCount; ++i)
        q.bindValue(base + i, values[i]);
}

void bindLedger(QSqlQuery &q, int base, const LedgerEntry &e)
{
    const QVariant values[LedgerColumnCount] = {
        e.traceId, e.atMs, e.day, e.keyId, e.route, e.target, e.sharer, e.costUsd, e.absorbedUsd, int(e.subscription), e.listValueUsd};
    for (int i = 0; i < LedgerColumnCount; ++i)
        q.bindValue(base + i, values[i]);
}

} // namespace

RecordStatements::RecordStatements(QString connection, const SqlDialect &dialect) : m_connection(std::move(connection)), m_dialect(dialect) { }

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
    QHash<QString, qsizetype> traceAt;
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
    QSet<QString> booked;
    booked.reserve(ledger.size());
    for (const LedgerEntry &e : ledger) {
        if (booked.contains(e.traceId))
            continue;
        booked.insert(e.traceId);
        ledgerRows.append(&e);
    }

    // Chunks of MaxRows, then the remainder by falling powers of two (50 = 32 + 16 + 2).
    const auto inChunks = [this](Table table, const auto &rows, int columns, auto bind, const char *what) {
        qsizetype done = 0;
        while (done < rows.size()) {
            int n = MaxRows;
            while (n > rows.size() - done)
                n /= 2;
            QSqlQuery &q = statement(table, n);
            for (int i = 0; i < n; ++i)
                bind(q, i * columns, *rows.at(done + i));
            if (!run(q, what))
                return false;
            done += n;
        }
        return true;
    };
    // The ledger first: its booked-once check reads the trace rows as they were before this batch.
    if (!inChunks(Ledger, ledgerRows, LedgerColumnCount, bindLedger, "insert ledger entries"))
        return false;
    if (!inChunks(keepExisting ? TracesIfAbsent : Traces, traceRows, TraceColumnCount, bindTrace, "insert traces"))
        return false;
    if (!m_dialect.isPostgres())
        return true;
    // The requests' reservations end in the transaction that books their ledger rows: the budget
    // never counts one twice, nor loses it in between.
    const auto bindId = [](QSqlQuery &q, int at, const TraceRecord &r) { q.bindValue(at, r.id); };
    return inChunks(Reservations, traceRows, 1, bindId, "release reservations");
}

} // namespace Aile::Store
