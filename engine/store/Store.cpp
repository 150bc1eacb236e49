#include "Store.h"

#include "AttemptsTable.h"
#include "ChangeFeed.h"
#include "RecordStatements.h"
#include "SqlDialect.h"
#include "StoreFiles.h"

#include <QtCore/QAtomicInteger>
#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QLoggingCategory>
#include <QtCore/QScopeGuard>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlError>
#include <QtSql/QSqlQuery>

Q_LOGGING_CATEGORY(lcStore, "aile.engine.store")

namespace Aile::Store {

namespace {

QAtomicInteger<quint64> g_connectionSerial{0};

// Each migration moves the schema one version up; never edit a released one, add the next.
const char *const Migrations[] = {
    // 1: the first schema
    R"(CREATE TABLE keys(id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, hash TEXT NOT NULL UNIQUE, json TEXT NOT NULL);
       CREATE TABLE sharers(handle TEXT PRIMARY KEY, json TEXT NOT NULL);
       CREATE TABLE providers(id TEXT PRIMARY KEY, json TEXT NOT NULL);
       CREATE TABLE model_overrides(provider TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY(provider, id));
       CREATE TABLE settings(name TEXT PRIMARY KEY, json TEXT NOT NULL);
       CREATE TABLE traces(id TEXT PRIMARY KEY, started_ms INTEGER NOT NULL, key_id TEXT, key_name TEXT, client TEXT,
           endpoint TEXT, model_asked TEXT, model_served TEXT, route TEXT, sharer TEXT, sharer_name TEXT, status INTEGER,
           attempts INTEGER, ttfb_ms INTEGER, duration_ms INTEGER, input_tokens INTEGER, output_tokens INTEGER,
           cost_usd REAL, absorbed_usd REAL, affinity TEXT, stream INTEGER, error TEXT);
       CREATE INDEX traces_started ON traces(started_ms);
       CREATE TABLE attempts(trace_id TEXT NOT NULL, seq INTEGER NOT NULL, sharer TEXT, sharer_name TEXT, provider TEXT,
           model TEXT, target TEXT, status INTEGER, outcome TEXT, reason TEXT, started_ms INTEGER, ttfb_ms INTEGER,
           duration_ms INTEGER, input_tokens INTEGER, output_tokens INTEGER, quote_usd REAL, dispatched INTEGER,
           PRIMARY KEY(trace_id, seq));
       CREATE TABLE ledger(id INTEGER PRIMARY KEY AUTOINCREMENT, trace_id TEXT, at_ms INTEGER NOT NULL, day TEXT NOT NULL,
           key_id TEXT, route TEXT, target TEXT, sharer TEXT, cost_usd REAL NOT NULL, absorbed_usd REAL NOT NULL);
       CREATE INDEX ledger_day ON ledger(day, key_id);)",
    // 2: a trace's attempt rows ride in the trace row as JSON: one insert per request instead of
    //    one per attempt (the attempts table stays readable for traces written before).
    R"(ALTER TABLE traces ADD COLUMN attempts_json TEXT;)",
    // 3: the conversation's session pin after the request (JSON), beside its affinity verdict.
    R"(ALTER TABLE traces ADD COLUMN affinity_pin TEXT;)",
    // 4: what ordered the candidates when it was not the default order ("speed").
    R"(ALTER TABLE traces ADD COLUMN ordered_by TEXT;)",
    // 5: a request's ledger row is found by its request id, so writing a batch again (the ledger
    //    journal replayed after a kill -9) never books it twice.
    R"(CREATE INDEX ledger_trace ON ledger(trace_id);)",
    // 6: a row served by a subscription spends nothing; its usage at list price is kept beside
    //    the money (docs/subscriptions.md "What it costs"). Older rows read as API-key rows.
    R"(ALTER TABLE ledger ADD COLUMN subscription INTEGER NOT NULL DEFAULT 0;
       ALTER TABLE ledger ADD COLUMN list_value_usd REAL NOT NULL DEFAULT 0;)",
    // 7: team mode (docs/team.md): a request's quote held against its key's budgets while it runs,
    //    shared by the instances on one database (BudgetReservations); and what one instance learnt
    //    of an account (cooldowns, spent windows, dead keys) for the others (SharedHealthRows).
    R"(CREATE TABLE reservations(id TEXT PRIMARY KEY, day TEXT NOT NULL, key_id TEXT NOT NULL, route TEXT, target TEXT,
           amount_usd REAL NOT NULL, expires_ms INTEGER NOT NULL);
       CREATE INDEX reservations_key ON reservations(day, key_id);
       CREATE TABLE shared_health(sharer TEXT NOT NULL, model TEXT NOT NULL, kind TEXT NOT NULL, until_ms INTEGER NOT NULL,
           json TEXT NOT NULL, PRIMARY KEY(sharer, model, kind));)",
    // 8: what a replay of the request needs beside its tokens (docs/replay.md): the session's draw
    //    seed and the output cap the client asked for. Older rows keep NULL and replay without them.
    R"(ALTER TABLE traces ADD COLUMN session TEXT;
       ALTER TABLE traces ADD COLUMN max_output INTEGER;)",
    // 9: a request is booked once by its trace row (RecordStatements: the ledger rows go in before
    //    it, in its transaction), so the ledger needs no index on the random request id: one page
    //    fewer written per request (docs/performance.md "Change 4 (store)").
    R"(DROP INDEX IF EXISTS ledger_trace;)",
};

QSqlDatabase db(const QString &name)
{
    return QSqlDatabase::database(name, false);
}

bool exec(QSqlQuery &q, const QString &what)
{
    if (q.exec())
        return true;
    qCWarning(lcStore) << what << "failed:" << q.lastError().text();
    return false;
}

QString toJsonText(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QJsonObject fromJsonText(const QString &s)
{
    return QJsonDocument::fromJson(s.toUtf8()).object();
}

} // namespace

QString utcDay(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).date().toString(Qt::ISODate);
}

Store::Store(const QString &path, bool readOnly)
    : m_path(path), m_connection(QStringLiteral("aile-store-%1").arg(++g_connectionSerial)), m_readOnly(readOnly),
      m_dialect(std::make_unique<SqlDialect>(path))
{ }

Store::~Store()
{
    m_record.reset();
    {
        QSqlDatabase d = db(m_connection);
        if (d.isValid())
            d.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

int Store::latestSchemaVersion()
{
    return int(std::size(Migrations));
}

bool Store::open(QString *error)
{
    const bool file = !m_dialect->isPostgres();
    if (file && !m_readOnly)
        secureDatabaseFiles(m_path); // created 0600 before SQLite makes it with the umask's mode
    if (!m_dialect->open(m_connection, m_readOnly, error))
        return false;
    QSqlDatabase d = db(m_connection);
    QSqlQuery q(d);
    if (file && !m_readOnly) {
        // WAL with synchronous=NORMAL: a committed write survives the process being killed at any
        // moment (only an OS crash can lose the last transactions).
        q.exec(QStringLiteral("PRAGMA journal_mode=WAL"));
        q.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    }
    if (file)
        q.exec(QStringLiteral("PRAGMA foreign_keys=ON"));
    if (!m_readOnly && !migrate(error))
        return false;
    if (file && !m_readOnly)
        secureDatabaseFiles(m_path); // the -wal and -shm SQLite made, and a store left readable by others
    m_open = true;
    return true;
}

bool Store::isShared() const
{
    return m_dialect->isPostgres();
}

bool Store::reachable() const
{
    if (!isShared())
        return true;
    QSqlQuery q(db(m_connection));
    return q.exec(QStringLiteral("SELECT 1")) && q.next();
}

bool Store::reconnect(QString *error)
{
    if (!isShared())
        return true;
    m_record.reset();
    QSqlDatabase d = db(m_connection);
    d.close();
    if (!d.open()) {
        if (error)
            *error = QStringLiteral("cannot reach the store %1: %2").arg(SqlDialect::redacted(m_path), d.lastError().text().trimmed());
        return false;
    }
    QSqlQuery(d).exec(QStringLiteral("SET client_min_messages TO warning"));
    return true;
}

int Store::schemaVersion() const
{
    return m_dialect->schemaVersion(db(m_connection));
}

bool Store::migrate(QString *error)
{
    QSqlDatabase d = db(m_connection);
    m_dialect->lockMigrations(d); // instances starting together on one server migrate one after the other
    const auto unlock = qScopeGuard([&] { m_dialect->unlockMigrations(d); });
    const int from = schemaVersion();
    if (from > latestSchemaVersion()) {
        if (error)
            *error = QStringLiteral("the database %1 is from a newer Aile (schema %2, this build knows %3); upgrade Aile")
                         .arg(SqlDialect::redacted(m_path))
                         .arg(from)
                         .arg(latestSchemaVersion());
        return false;
    }
    for (int v = from; v < latestSchemaVersion(); ++v) {
        d.transaction();
        const QStringList statements = m_dialect->migration(Migrations[v]).split(QLatin1Char(';'), Qt::SkipEmptyParts);
        for (const QString &s : statements) {
            if (s.trimmed().isEmpty())
                continue;
            QSqlQuery q(d);
            if (!q.exec(s)) {
                d.rollback();
                if (error)
                    *error = QStringLiteral("migration to schema %1 failed: %2").arg(v + 1).arg(q.lastError().text());
                return false;
            }
        }
        if (!m_dialect->setSchemaVersion(d, v + 1)) {
            d.rollback();
            if (error)
                *error = QStringLiteral("migration to schema %1 could not be recorded").arg(v + 1);
            return false;
        }
        d.commit();
    }
    return true;
}

QList<Keys::ApiKey> Store::keys() const
{
    QList<Keys::ApiKey> out;
    QSqlQuery q(db(m_connection));
    q.exec(QStringLiteral("SELECT json FROM keys ORDER BY name"));
    while (q.next())
        if (auto k = Keys::ApiKey::fromJson(fromJsonText(q.value(0).toString()), nullptr))
            out.append(*k);
    return out;
}

bool Store::saveKey(const Keys::ApiKey &key)
{
    QSqlQuery q(db(m_connection));
    // A key provisioned again under the same name replaces the old one.
    q.prepare(QStringLiteral("DELETE FROM keys WHERE (name = ? OR hash = ?) AND id <> ?"));
    q.addBindValue(key.name);
    q.addBindValue(key.hash);
    q.addBindValue(key.id);
    exec(q, QStringLiteral("replace key"));
    q.prepare(
        m_dialect->upsert(QStringLiteral("keys"), {QStringLiteral("id"), QStringLiteral("name"), QStringLiteral("hash"), QStringLiteral("json")}, 1));
    q.addBindValue(key.id);
    q.addBindValue(key.name);
    q.addBindValue(key.hash);
    q.addBindValue(toJsonText(key.toJson()));
    return exec(q, QStringLiteral("save key")) && announceStateChange();
}

bool Store::removeKey(const QString &id)
{
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("DELETE FROM keys WHERE id = ?"));
    q.addBindValue(id);
    return exec(q, QStringLiteral("remove key")) && announceStateChange();
}

QList<Catalog::Sharer> Store::sharers() const
{
    QList<Catalog::Sharer> out;
    QSqlQuery q(db(m_connection));
    q.exec(QStringLiteral("SELECT json FROM sharers ORDER BY handle"));
    while (q.next())
        if (auto s = Catalog::Sharer::fromJson(fromJsonText(q.value(0).toString()), nullptr))
            out.append(*s);
    return out;
}

std::optional<Catalog::Sharer> Store::sharer(const QString &handle) const
{
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("SELECT json FROM sharers WHERE handle = ?"));
    q.addBindValue(handle);
    if (!q.exec() || !q.next())
        return std::nullopt;
    return Catalog::Sharer::fromJson(fromJsonText(q.value(0).toString()), nullptr);
}

bool Store::saveSharer(const Catalog::Sharer &sharer, QString *error, Catalog::Sharer *saved, bool newCredential)
{
    Catalog::Sharer s = sharer;
    const std::optional<Catalog::Sharer> stored = this->sharer(s.handle);
    Catalog::bindCredential(s, stored ? &*stored : nullptr, newCredential);
    // The URL it dials: its own, or its (custom) provider's. Built-in providers speak https.
    QString url = s.baseUrl;
    if (url.isEmpty()) {
        QSqlQuery p(db(m_connection));
        p.prepare(QStringLiteral("SELECT json FROM providers WHERE id = ?"));
        p.addBindValue(s.provider);
        if (p.exec() && p.next())
            url = fromJsonText(p.value(0).toString()).value(QLatin1String("baseUrl")).toString();
    }
    if (const QString refusal = Catalog::plainHttpRefusal(s, url); !refusal.isEmpty()) {
        if (error)
            *error = refusal;
        return false;
    }
    if (stored && !stored->needsKey() && s.needsKey())
        qCInfo(lcStore).noquote() << "sharer" << s.handle << "moved to" << s.binding().trimmed()
                                  << "without a new credential: it needs its key again";
    QSqlQuery q(db(m_connection));
    q.prepare(m_dialect->upsert(QStringLiteral("sharers"), {QStringLiteral("handle"), QStringLiteral("json")}, 1));
    q.addBindValue(s.handle);
    QJsonObject row = s.toJson();
    if (!s.credentialFor.isEmpty())
        row.insert(QStringLiteral("credentialFor"), s.credentialFor);
    q.addBindValue(toJsonText(row));
    if (!exec(q, QStringLiteral("save sharer"))) {
        if (error)
            *error = QStringLiteral("the sharer could not be saved: %1").arg(q.lastError().text());
        return false;
    }
    if (saved)
        *saved = s;
    return announceStateChange();
}

bool Store::removeSharer(const QString &handle)
{
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("DELETE FROM sharers WHERE handle = ?"));
    q.addBindValue(handle);
    return exec(q, QStringLiteral("remove sharer")) && announceStateChange();
}

QList<Catalog::ProviderInfo> Store::customProviders() const
{
    QList<Catalog::ProviderInfo> out;
    QSqlQuery q(db(m_connection));
    q.exec(QStringLiteral("SELECT json FROM providers ORDER BY id"));
    while (q.next())
        if (auto p = Catalog::ProviderInfo::fromJson(fromJsonText(q.value(0).toString()), nullptr))
            out.append(*p);
    return out;
}

bool Store::saveProvider(const Catalog::ProviderInfo &provider)
{
    QSqlQuery q(db(m_connection));
    q.prepare(m_dialect->upsert(QStringLiteral("providers"), {QStringLiteral("id"), QStringLiteral("json")}, 1));
    q.addBindValue(provider.id);
    q.addBindValue(toJsonText(provider.toJson()));
    return exec(q, QStringLiteral("save provider")) && announceStateChange();
}

bool Store::removeProvider(const QString &id)
{
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("DELETE FROM providers WHERE id = ?"));
    q.addBindValue(id);
    return exec(q, QStringLiteral("remove provider")) && announceStateChange();
}

QList<Catalog::ModelInfo> Store::modelOverrides() const
{
    QList<Catalog::ModelInfo> out;
    QSqlQuery q(db(m_connection));
    q.exec(QStringLiteral("SELECT json FROM model_overrides ORDER BY provider, id"));
    while (q.next())
        if (auto m = Catalog::ModelInfo::fromJson(fromJsonText(q.value(0).toString()), nullptr))
            out.append(*m);
    return out;
}

bool Store::saveModelOverride(const Catalog::ModelInfo &model)
{
    QSqlQuery q(db(m_connection));
    q.prepare(m_dialect->upsert(QStringLiteral("model_overrides"), {QStringLiteral("provider"), QStringLiteral("id"), QStringLiteral("json")}, 2));
    q.addBindValue(model.provider);
    q.addBindValue(model.id);
    q.addBindValue(toJsonText(model.toJson()));
    return exec(q, QStringLiteral("save model override")) && announceStateChange();
}

bool Store::removeModelOverride(const QString &provider, const QString &id)
{
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("DELETE FROM model_overrides WHERE provider = ? AND id = ?"));
    q.addBindValue(provider);
    q.addBindValue(id);
    return exec(q, QStringLiteral("remove model override")) && announceStateChange();
}

QJsonValue Store::setting(const QString &name) const
{
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("SELECT json FROM settings WHERE name = ?"));
    q.addBindValue(name);
    if (!q.exec() || !q.next())
        return QJsonValue(QJsonValue::Undefined);
    const QJsonArray wrapped = QJsonDocument::fromJson(q.value(0).toString().toUtf8()).array();
    return wrapped.isEmpty() ? QJsonValue(QJsonValue::Undefined) : wrapped.first();
}

bool Store::saveSetting(const QString &name, const QJsonValue &value)
{
    QSqlQuery q(db(m_connection));
    q.prepare(m_dialect->upsert(QStringLiteral("settings"), {QStringLiteral("name"), QStringLiteral("json")}, 1));
    q.addBindValue(name);
    q.addBindValue(QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)));
    return exec(q, QStringLiteral("save setting")) && announceStateChange();
}

bool Store::announce(const QString &channel, const QString &payload)
{
    if (!m_dialect->isPostgres())
        return true;
    // Delivered to every listening instance when the surrounding transaction (if any) commits.
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("SELECT pg_notify(?, ?)"));
    q.addBindValue(channel);
    q.addBindValue(payload);
    return exec(q, QStringLiteral("announce a change"));
}

bool Store::announceStateChange()
{
    return announce(QLatin1String(ChangeFeed::StateChannel), QString());
}

bool Store::inTransaction(const std::function<bool()> &work)
{
    QSqlDatabase d = db(m_connection);
    // SQLite: take the write lock at BEGIN. A deferred transaction that reads and then writes
    // while the store writer commits gets "database is locked" at once, without waiting out the
    // busy timeout (the snapshot it read is stale); IMMEDIATE waits for the writer instead.
    if (!isShared() ? !QSqlQuery(d).exec(QStringLiteral("BEGIN IMMEDIATE")) : !d.transaction())
        return false;
    if (!work()) {
        d.rollback();
        return false;
    }
    return d.commit();
}

bool Store::record(const QList<TraceRecord> &traces, const QList<LedgerEntry> &ledger)
{
    return writeRecords(traces, ledger, false);
}

bool Store::replay(const QList<TraceRecord> &traces, const QList<LedgerEntry> &ledger)
{
    return writeRecords(traces, ledger, true);
}

bool Store::writeRecords(const QList<TraceRecord> &traces, const QList<LedgerEntry> &ledger, bool keepExisting)
{
    QSqlDatabase d = db(m_connection);
    if (!d.transaction())
        return false;
    if (!m_record)
        m_record = std::make_unique<RecordStatements>(m_connection, *m_dialect);
    if (!m_record->write(traces, ledger, keepExisting)) {
        d.rollback();
        return false;
    }
    return d.commit();
}

int Store::recordStatementsPrepared() const
{
    return m_record ? m_record->prepared() : 0;
}

int Store::recordStatementsExecuted() const
{
    return m_record ? m_record->executed() : 0;
}

namespace {

QString whereClause(const TraceQuery &query, const SqlDialect &dialect, QVariantList &binds)
{
    QStringList where;
    if (query.sinceMs > 0) {
        where << QStringLiteral("started_ms >= ?");
        binds << query.sinceMs;
    }
    if (!query.keyId.isEmpty()) {
        where << QStringLiteral("(key_id = ? OR key_name = ?)");
        binds << query.keyId << query.keyId;
    }
    if (!query.model.isEmpty()) {
        where << QStringLiteral("(model_asked = ? OR model_served = ?)");
        binds << query.model << query.model;
    }
    if (!query.sharer.isEmpty()) {
        where << QStringLiteral("(sharer = ? OR sharer_name = ?)");
        binds << query.sharer << query.sharer;
    }
    if (query.status > 0) {
        where << QStringLiteral("status = ?");
        binds << query.status;
    }
    if (!query.text.isEmpty()) {
        where << QStringLiteral("(model_asked %1 ? OR model_served %1 ? OR route %1 ? OR sharer_name %1 ? OR error %1 ? OR key_name %1 ?)")
                     .arg(dialect.likeCaseBlind());
        const QString like = QLatin1Char('%') + query.text + QLatin1Char('%');
        for (int i = 0; i < 6; ++i)
            binds << like;
    }
    return where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
}

TraceRecord traceFromRow(const QSqlQuery &q)
{
    TraceRecord r;
    int i = 0;
    r.id = q.value(i++).toString();
    r.startedMs = q.value(i++).toLongLong();
    r.keyId = q.value(i++).toString();
    r.keyName = q.value(i++).toString();
    r.client = q.value(i++).toString();
    r.endpoint = q.value(i++).toString();
    r.modelAsked = q.value(i++).toString();
    r.modelServed = q.value(i++).toString();
    r.route = q.value(i++).toString();
    r.sharer = q.value(i++).toString();
    r.sharerName = q.value(i++).toString();
    r.status = q.value(i++).toInt();
    r.attempts = q.value(i++).toInt();
    r.ttfbMs = q.value(i++).toLongLong();
    r.durationMs = q.value(i++).toLongLong();
    r.inputTokens = q.value(i++).toLongLong();
    r.outputTokens = q.value(i++).toLongLong();
    r.costUsd = q.value(i++).toDouble();
    r.absorbedUsd = q.value(i++).toDouble();
    r.affinity = q.value(i++).toString();
    r.stream = q.value(i++).toBool();
    r.error = q.value(i++).toString();
    const QString attempts = q.value(i++).toString();
    for (const QJsonValue &v : QJsonDocument::fromJson(attempts.toUtf8()).array())
        r.attemptRows.append(AttemptRecord::fromJson(v.toObject()));
    r.pin = fromJsonText(q.value(i++).toString());
    r.orderedBy = q.value(i++).toString();
    r.session = q.value(i++).toString();
    const QVariant maxOutput = q.value(i++);
    r.maxOutputTokens = maxOutput.isNull() ? -1 : maxOutput.toLongLong();
    return r;
}

} // namespace

QList<TraceRecord> Store::traces(const TraceQuery &query) const
{
    QVariantList binds;
    const QString where = whereClause(query, *m_dialect, binds);
    QSqlDatabase d = db(m_connection);
    QSqlQuery q(d);
    q.prepare(
        QStringLiteral("SELECT %1 FROM traces%2 ORDER BY started_ms DESC, rowid DESC LIMIT ? OFFSET ?").arg(QLatin1String(TraceColumnList), where));
    for (const QVariant &b : binds)
        q.addBindValue(b);
    q.addBindValue(qMax(0, query.limit));
    q.addBindValue(qMax(0, query.offset));
    QList<TraceRecord> out;
    if (!exec(q, QStringLiteral("read traces")))
        return out;
    while (q.next())
        out.append(traceFromRow(q));
    for (TraceRecord &r : out) {
        if (query.withAttempts)
            loadOlderAttempts(d, r);
        else
            r.attemptRows.clear();
    }
    return out;
}

int Store::traceCount(const TraceQuery &query) const
{
    QVariantList binds;
    const QString where = whereClause(query, *m_dialect, binds);
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM traces%1").arg(where));
    for (const QVariant &b : binds)
        q.addBindValue(b);
    return exec(q, QStringLiteral("count traces")) && q.next() ? q.value(0).toInt() : 0;
}

std::optional<TraceRecord> Store::trace(const QString &id) const
{
    QSqlDatabase d = db(m_connection);
    QSqlQuery q(d);
    q.prepare(QStringLiteral("SELECT %1 FROM traces WHERE id = ?").arg(QLatin1String(TraceColumnList)));
    q.addBindValue(id);
    if (!exec(q, QStringLiteral("read trace")) || !q.next())
        return std::nullopt;
    TraceRecord r = traceFromRow(q);
    loadOlderAttempts(d, r);
    return r;
}

double Store::spent(const QString &day, const QString &keyId, const QString &route, const QString &target) const
{
    QString sql = QStringLiteral("SELECT COALESCE(SUM(cost_usd), 0) FROM ledger WHERE day = ?");
    QVariantList binds{day};
    if (!keyId.isEmpty()) {
        sql += QStringLiteral(" AND key_id = ?");
        binds << keyId;
    }
    if (!route.isEmpty()) {
        sql += QStringLiteral(" AND route = ?");
        binds << route;
    }
    if (!target.isEmpty()) {
        sql += QStringLiteral(" AND target = ?");
        binds << target;
    }
    QSqlQuery q(db(m_connection));
    q.prepare(sql);
    for (const QVariant &b : binds)
        q.addBindValue(b);
    return exec(q, QStringLiteral("sum ledger")) && q.next() ? q.value(0).toDouble() : 0.0;
}

QList<LedgerGroup> Store::ledgerGroups(const QStringList &days, const QString &keyId) const
{
    QList<LedgerGroup> out;
    if (days.isEmpty())
        return out;
    const QStringList marks(days.size(), QStringLiteral("?"));
    QString sql = QStringLiteral("SELECT day, key_id, route, target, sharer, subscription, SUM(cost_usd), SUM(list_value_usd), COUNT(*)"
                                 " FROM ledger WHERE day IN (%1)")
                      .arg(marks.join(QLatin1Char(',')));
    if (!keyId.isEmpty())
        sql += QStringLiteral(" AND key_id = ?");
    sql += QStringLiteral(" GROUP BY day, key_id, route, target, sharer, subscription");
    QSqlQuery q(db(m_connection));
    q.prepare(sql);
    for (const QString &day : days)
        q.addBindValue(day);
    if (!keyId.isEmpty())
        q.addBindValue(keyId);
    if (!exec(q, QStringLiteral("sum ledger by day, key, route, target and sharer")))
        return out;
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(), q.value(4).toString(),
                    q.value(5).toBool(), q.value(6).toDouble(), q.value(7).toDouble(), q.value(8).toInt()});
    return out;
}

QList<LedgerEntry> Store::ledger(const QString &day) const
{
    QList<LedgerEntry> out;
    QSqlQuery q(db(m_connection));
    q.prepare(QStringLiteral("SELECT trace_id, at_ms, day, key_id, route, target, sharer, cost_usd, absorbed_usd, subscription,"
                             " list_value_usd FROM ledger WHERE day = ? ORDER BY id"));
    q.addBindValue(day);
    if (!exec(q, QStringLiteral("read ledger")))
        return out;
    while (q.next()) {
        LedgerEntry e;
        e.traceId = q.value(0).toString();
        e.atMs = q.value(1).toLongLong();
        e.day = q.value(2).toString();
        e.keyId = q.value(3).toString();
        e.route = q.value(4).toString();
        e.target = q.value(5).toString();
        e.sharer = q.value(6).toString();
        e.costUsd = q.value(7).toDouble();
        e.absorbedUsd = q.value(8).toDouble();
        e.subscription = q.value(9).toBool();
        e.listValueUsd = q.value(10).toDouble();
        out.append(e);
    }
    return out;
}

} // namespace Aile::Store
