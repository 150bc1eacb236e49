#pragma once

#include <QtCore/QString>
#include <QtCore/QStringList>

class QSqlDatabase;

namespace Aile::Store {

/// The two databases the store speaks: SQLite (the embedded default: a file, or ":memory:") and
/// PostgreSQL (team mode, docs/team.md: a `postgresql://` URL, Qt's QPSQL driver). Every place the
/// SQL differs between them is here, once: column types, the upsert, the auto-incremented id, the
/// schema version, the case-blind LIKE and change notifications. The store's queries otherwise use
/// the SQL both accept (positional `?` placeholders included: QPSQL numbers them).
class SqlDialect
{
public:
    enum class Kind { Sqlite, Postgres };

    /// A store location: "postgresql://" or "postgres://" URL → PostgreSQL, anything else a SQLite file.
    explicit SqlDialect(const QString &location);

    Kind kind() const { return m_kind; }
    bool isPostgres() const { return m_kind == Kind::Postgres; }
    static bool isServerLocation(const QString &location);
    /// The location as it may be shown or logged: a URL's password replaced by "***".
    static QString redacted(const QString &location);

    /// Adds and opens the connection `name` (false and why in error). readOnly: SQLite opens the
    /// file read-only; PostgreSQL reads with an ordinary connection (it has no file to protect).
    bool open(const QString &name, bool readOnly, QString *error) const;

    /// The schema version the database holds (0: none yet) and the statement that records a new one.
    int schemaVersion(const QSqlDatabase &db) const;
    bool setSchemaVersion(QSqlDatabase &db, int version) const;
    /// Serialises migrations between instances starting together on one database (PostgreSQL: an
    /// advisory lock held by this connection until unlock).
    void lockMigrations(QSqlDatabase &db) const;
    void unlockMigrations(QSqlDatabase &db) const;

    /// A migration written in SQLite's words, in this dialect's: PostgreSQL gets BIGINT for
    /// INTEGER (milliseconds do not fit 32 bits), DOUBLE PRECISION for REAL, BIGSERIAL for the
    /// autoincremented id, and a `rowid` column on traces (the insertion order SQLite keeps for free).
    QString migration(const char *sqliteText) const;

    /// INSERT that replaces the row with the same key: SQLite's INSERT OR REPLACE, PostgreSQL's
    /// INSERT … ON CONFLICT (key) DO UPDATE. columns lists the key columns first (keyCount of them).
    /// rows: how many rows the one statement takes (their parameters one row after the other).
    QString upsert(const QString &table, const QStringList &columns, int keyCount, int rows = 1) const;
    /// INSERT that keeps the row already there with the same key: SQLite's INSERT OR IGNORE,
    /// PostgreSQL's ON CONFLICT (key) DO NOTHING.
    QString insertIfAbsent(const QString &table, const QStringList &columns, int keyCount, int rows = 1) const;
    /// LIKE that ignores ASCII case on both (SQLite's LIKE already does).
    QString likeCaseBlind() const { return isPostgres() ? QStringLiteral("ILIKE") : QStringLiteral("LIKE"); }

private:
    Kind m_kind;
    QString m_location;
};

} // namespace Aile::Store
