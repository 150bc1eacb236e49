#include "SqlDialect.h"

#include <QtCore/QRegularExpression>
#include <QtCore/QUrl>
#include <QtCore/QUrlQuery>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlError>
#include <QtSql/QSqlQuery>

namespace Aile::Store {

namespace {

// Any 64-bit number of our own: the advisory lock every instance takes to migrate.
constexpr qint64 MigrationLock = 0x41696c654d696772; // "AileMigr"

} // namespace

SqlDialect::SqlDialect(const QString &location) : m_kind(isServerLocation(location) ? Kind::Postgres : Kind::Sqlite), m_location(location) { }

bool SqlDialect::isServerLocation(const QString &location)
{
    return location.startsWith(QLatin1String("postgresql://")) || location.startsWith(QLatin1String("postgres://"));
}

QString SqlDialect::redacted(const QString &location)
{
    if (!isServerLocation(location))
        return location;
    QUrl url(location);
    if (!url.password().isEmpty())
        url.setPassword(QStringLiteral("***"));
    return url.toString();
}

bool SqlDialect::open(const QString &name, bool readOnly, QString *error) const
{
    if (!isPostgres()) {
        QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        d.setDatabaseName(m_location);
        d.setConnectOptions(readOnly ? QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=2000")
                                     : QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
        if (d.open())
            return true;
        if (error)
            *error = QStringLiteral("cannot open the database %1: %2").arg(m_location, d.lastError().text());
        return false;
    }
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL"))) {
        if (error)
            *error = QStringLiteral("cannot open the store %1: Qt's PostgreSQL driver (QPSQL) is not installed; "
                                    "on Debian: apt-get install libqt6sql6-psql")
                         .arg(redacted(m_location));
        return false;
    }
    // postgresql://user[:password]@host[:port]/database[?host=/socket/folder&sslmode=require&…]:
    // host= names a Unix socket folder, as libpq reads it; the other query items are libpq's own
    // connection keywords. Without a password here, libpq reads $PGPASSWORD or ~/.pgpass.
    const QUrl url(m_location);
    QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
    d.setUserName(url.userName());
    d.setPassword(url.password());
    d.setHostName(url.host());
    if (url.port() > 0)
        d.setPort(url.port());
    d.setDatabaseName(url.path().mid(1));
    QStringList options;
    bool timeout = false;
    for (const auto &[key, value] : QUrlQuery(url).queryItems(QUrl::FullyDecoded)) {
        if (key == QLatin1String("host")) {
            d.setHostName(value);
            continue;
        }
        if (key == QLatin1String("port")) {
            d.setPort(value.toInt());
            continue;
        }
        if (!QRegularExpression(QStringLiteral("^[a-z_]+$")).match(key).hasMatch() || value.contains(QLatin1Char(';')))
            continue; // never let a query item smuggle a second keyword in
        timeout = timeout || key == QLatin1String("connect_timeout");
        options << key + QLatin1Char('=') + value;
    }
    if (!timeout)
        options << QStringLiteral("connect_timeout=10"); // a dead server says so instead of hanging the start
    d.setConnectOptions(options.join(QLatin1Char(';')));
    if (!d.open()) {
        if (error)
            *error = QStringLiteral("cannot open the store %1: %2").arg(redacted(m_location), d.lastError().text().trimmed());
        return false;
    }
    QSqlQuery(d).exec(QStringLiteral("SET client_min_messages TO warning")); // CREATE … IF NOT EXISTS notices
    return true;
}

int SqlDialect::schemaVersion(const QSqlDatabase &db) const
{
    QSqlQuery q(db);
    if (!isPostgres()) {
        q.exec(QStringLiteral("PRAGMA user_version"));
        return q.next() ? q.value(0).toInt() : 0;
    }
    // PostgreSQL has no user_version: a one-row table holds it.
    if (!q.exec(QStringLiteral("SELECT version FROM aile_schema")) || !q.next())
        return 0;
    return q.value(0).toInt();
}

bool SqlDialect::setSchemaVersion(QSqlDatabase &db, int version) const
{
    QSqlQuery q(db);
    if (!isPostgres())
        return q.exec(QStringLiteral("PRAGMA user_version=%1").arg(version));
    return q.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS aile_schema(version INTEGER NOT NULL)"))
           && q.exec(QStringLiteral("DELETE FROM aile_schema")) && q.exec(QStringLiteral("INSERT INTO aile_schema(version) VALUES(%1)").arg(version));
}

void SqlDialect::lockMigrations(QSqlDatabase &db) const
{
    if (isPostgres())
        QSqlQuery(db).exec(QStringLiteral("SELECT pg_advisory_lock(%1)").arg(MigrationLock));
}

void SqlDialect::unlockMigrations(QSqlDatabase &db) const
{
    if (isPostgres())
        QSqlQuery(db).exec(QStringLiteral("SELECT pg_advisory_unlock(%1)").arg(MigrationLock));
}

QString SqlDialect::migration(const char *sqliteText) const
{
    QString sql = QString::fromUtf8(sqliteText);
    if (!isPostgres())
        return sql;
    sql.replace(QStringLiteral("INTEGER PRIMARY KEY AUTOINCREMENT"), QStringLiteral("BIGSERIAL PRIMARY KEY"));
    sql.replace(QRegularExpression(QStringLiteral("\\bINTEGER\\b")), QStringLiteral("BIGINT"));
    sql.replace(QRegularExpression(QStringLiteral("\\bREAL\\b")), QStringLiteral("DOUBLE PRECISION"));
    sql.replace(QStringLiteral("CREATE TABLE traces("), QStringLiteral("CREATE TABLE traces(rowid BIGSERIAL, "));
    return sql;
}

QString SqlDialect::upsert(const QString &table, const QStringList &columns, int keyCount, int rows) const
{
    const QString row = QStringList(columns.size(), QStringLiteral("?")).join(QLatin1Char(','));
    const QString marks = QStringList(qMax(1, rows), row).join(QStringLiteral("),("));
    const QString cols = columns.join(QStringLiteral(", "));
    if (!isPostgres())
        return QStringLiteral("INSERT OR REPLACE INTO %1(%2) VALUES(%3)").arg(table, cols, marks);
    QStringList set;
    for (int i = keyCount; i < columns.size(); ++i)
        set << QStringLiteral("%1 = EXCLUDED.%1").arg(columns.at(i));
    return QStringLiteral("INSERT INTO %1(%2) VALUES(%3) ON CONFLICT (%4) DO %5")
        .arg(table, cols, marks, columns.mid(0, keyCount).join(QStringLiteral(", ")),
             set.isEmpty() ? QStringLiteral("NOTHING") : QStringLiteral("UPDATE SET ") + set.join(QStringLiteral(", ")));
}

QString SqlDialect::insertIfAbsent(const QString &table, const QStringList &columns, int keyCount, int rows) const
{
    const QString row = QStringList(columns.size(), QStringLiteral("?")).join(QLatin1Char(','));
    const QString values = QStringList(qMax(1, rows), row).join(QStringLiteral("),("));
    if (!isPostgres())
        return QStringLiteral("INSERT OR IGNORE INTO %1(%2) VALUES(%3)").arg(table, columns.join(QStringLiteral(", ")), values);
    return QStringLiteral("INSERT INTO %1(%2) VALUES(%3) ON CONFLICT (%4) DO NOTHING")
        .arg(table, columns.join(QStringLiteral(", ")), values, columns.mid(0, keyCount).join(QStringLiteral(", ")));
}

} // namespace Aile::Store
