#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QString>
#include <QtCore/QStringConverter>

struct sqlite3;
struct sqlite3_stmt;

class QSqlDatabase;

namespace Aile::Store {

/// One statement prepared on a Qt SQLite connection's own handle (QSqlDriver::handle()) and bound
/// with SQLite's API: the store writer's batch inserts, where Qt's binding (a QVariant per value,
/// a placeholder name formatted and looked up per value, UTF-16 that SQLite converts again) was
/// most of the writer's CPU (docs/performance.md "Change 1 (writer)"). It runs inside the
/// transaction Qt began on the same handle. Debian's Qt SQLite driver links the system libsqlite3
/// (libqt6sql6-sqlite depends on libsqlite3-0), the library this one calls, so both share the handle.
class SqliteStatement
{
public:
    /// The connection's sqlite3 handle; null when the connection is not Qt's SQLite driver.
    static sqlite3 *handleOf(const QSqlDatabase &db);

    SqliteStatement(sqlite3 *db, const QString &sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement &) = delete;
    SqliteStatement &operator=(const SqliteStatement &) = delete;

    bool isValid() const { return m_statement != nullptr; }

    /// Binds the next parameter (the first after run()). Text is copied into blocks the thread
    /// keeps (SQLite reads it there at run(), without copying it again or allocating), so
    /// the caller's strings need not outlive the call. A null QString binds NULL, as Qt's driver does.
    void text(const QString &value);
    void utf8(QByteArrayView value);
    void integer(qint64 value);
    void real(double value);
    void null();

    /// Runs the statement once with what was bound, then resets it for the next binding; false
    /// (and why in error()) when SQLite refused it.
    bool run();
    QString error() const { return m_error; }

private:

    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_statement = nullptr;
    int m_next = 1; // SQLite numbers parameters from 1
    QStringEncoder m_encoder{QStringConverter::Utf8, QStringConverter::Flag::Stateless};
    QString m_error;
};

} // namespace Aile::Store
