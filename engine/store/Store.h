#pragma once

#include "TraceRecord.h"
#include "catalog/Catalog.h"
#include "catalog/Sharer.h"
#include "keys/ApiKey.h"

#include <QtCore/QJsonValue>
#include <QtCore/QString>

#include <functional>
#include <memory>

class QSqlQuery;

namespace Aile::Store {

/// Which traces to read, newest first.
struct TraceQuery
{
    int limit = 100;
    int offset = 0;
    qint64 sinceMs = 0;
    QString keyId;
    QString model; // matches asked or served
    QString sharer;
    int status = 0; // 0: any
    QString text;   // substring of model, route, sharer name, error
    bool withAttempts = true;
};

/// The engine's database (Qt Sql; SQLite, or PostgreSQL for several instances: SqlDialect): keys (hashed), sharers (no secrets), settings,
/// traces with their attempt rows, and the ledger. WAL mode, versioned migrations. One Store per
/// thread: each instance owns its own connection.
class SqlDialect;
class RecordStatements;

class Store
{
public:
    /// path: a file, ":memory:" for tests, or a postgresql:// URL (team mode, docs/team.md).
    /// readOnly opens an existing database for reading.
    explicit Store(const QString &path, bool readOnly = false);
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    bool open(QString *error);
    bool isOpen() const { return m_open; }
    int schemaVersion() const;
    static int latestSchemaVersion();
    QString path() const { return m_path; }
    bool isShared() const;                                  // PostgreSQL: other instances may write beside this one
    QString connectionName() const { return m_connection; } // this thread's Qt Sql connection

    QList<Keys::ApiKey> keys() const;
    bool saveKey(const Keys::ApiKey &key);
    bool removeKey(const QString &id);

    QList<Catalog::Sharer> sharers() const;
    std::optional<Catalog::Sharer> sharer(const QString &handle) const;
    /// Every sharer update passes here: the credential stays bound to the (provider, base URL)
    /// it was entered for (Catalog::bindCredential; newCredential: the call stored a secret), and
    /// a credential over plain http:// to a host other than loopback is refused (error says why).
    /// saved, if given, receives the sharer as stored.
    bool saveSharer(const Catalog::Sharer &sharer, QString *error = nullptr, Catalog::Sharer *saved = nullptr, bool newCredential = false);
    bool removeSharer(const QString &handle);

    QList<Catalog::ProviderInfo> customProviders() const;
    bool saveProvider(const Catalog::ProviderInfo &provider);
    bool removeProvider(const QString &id);
    QList<Catalog::ModelInfo> modelOverrides() const;
    bool saveModelOverride(const Catalog::ModelInfo &model);
    bool removeModelOverride(const QString &provider, const QString &id);

    QJsonValue setting(const QString &name) const;
    bool saveSetting(const QString &name, const QJsonValue &value);

    /// Shared store: tells every instance listening on channel (ChangeFeed) that something changed;
    /// a no-op on SQLite. Every write of keys, sharers, providers, models and settings announces
    /// itself on ChangeFeed::StateChannel, so the other instances read the store again.
    bool announce(const QString &channel, const QString &payload);

    /// Runs work in one transaction: committed when it returns true, rolled back otherwise (a
    /// configuration is applied whole or not at all).
    bool inTransaction(const std::function<bool()> &work);

    /// A shared store's connection: whether the server answers a trivial query now, and a fresh
    /// connection after it dropped (prepared statements are made again on next use). Both are
    /// true on SQLite, whose file never goes away under it (docs/team.md "Losing the database").
    bool reachable() const;
    bool reconnect(QString *error);
    /// Set by whoever finds the shared store gone (a failed reservation, the engine's store watch),
    /// cleared once it answers again: the request path then refuses what needs it without waiting
    /// for a connection timeout.
    void setUnreachable(bool unreachable) { m_unreachable = unreachable; }
    bool unreachable() const { return m_unreachable; }

    /// Writes traces, their attempt rows and ledger entries in one transaction, a few multi-row
    /// statements prepared once per connection (RecordStatements). Idempotent by request id: a
    /// batch written again replaces its trace rows and books no ledger row twice.
    bool record(const QList<TraceRecord> &traces, const QList<LedgerEntry> &ledger);
    /// The same for a ledger journal replayed at start: a trace row already there is kept (the
    /// journal's record carries less than the row: no replay seed, no plan facts).
    bool replay(const QList<TraceRecord> &traces, const QList<LedgerEntry> &ledger);
    /// Statements record() prepared and executed on this connection so far (tests).
    int recordStatementsPrepared() const;
    int recordStatementsExecuted() const;
    QList<TraceRecord> traces(const TraceQuery &query) const;
    int traceCount(const TraceQuery &query) const;
    std::optional<TraceRecord> trace(const QString &id) const;
    /// The money the ledger holds for a day (UTC) and key, optionally one route and one target:
    /// what budgets and spend limits count (a subscription's list-price value is not money spent).
    double spent(const QString &day, const QString &keyId, const QString &route = {}, const QString &target = {}) const;
    QList<LedgerEntry> ledger(const QString &day) const;
    /// The ledger of the given days summed by the database per day, key, route, target, sharer and
    /// kind, optionally of one key only (LedgerGroup).
    QList<LedgerGroup> ledgerGroups(const QStringList &days, const QString &keyId = {}) const;

private:
    bool migrate(QString *error);
    bool writeRecords(const QList<TraceRecord> &traces, const QList<LedgerEntry> &ledger, bool keepExisting);
    bool announceStateChange();
    QString m_path;
    QString m_connection;
    bool m_readOnly;
    bool m_open = false;
    bool m_unreachable = false;
    std::unique_ptr<RecordStatements> m_record; // the writer's prepared batch statements
    std::unique_ptr<SqlDialect> m_dialect;
};

/// "YYYY-MM-DD" of a moment, UTC.
QString utcDay(qint64 ms);

} // namespace Aile::Store
