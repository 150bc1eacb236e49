#include "SqliteStatement.h"

#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlDriver>

#include <sqlite3.h>

namespace Aile::Store {

sqlite3 *SqliteStatement::handleOf(const QSqlDatabase &db)
{
    if (!db.isValid() || !db.driver())
        return nullptr;
    const QVariant handle = db.driver()->handle();
    // Qt's SQLite driver hands its connection over as a QVariant of "sqlite3*" (QSqlDriver::handle()).
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return nullptr;
    return *static_cast<sqlite3 *const *>(handle.constData());
}

SqliteStatement::SqliteStatement(sqlite3 *db, const QString &sql) : m_db(db)
{
    const QByteArray text = sql.toUtf8();
    // PERSISTENT: the statement lives for the connection's life and is bound again for every batch.
    if (sqlite3_prepare_v3(db, text.constData(), int(text.size()), SQLITE_PREPARE_PERSISTENT, &m_statement, nullptr) != SQLITE_OK) {
        m_error = QString::fromUtf8(sqlite3_errmsg(db));
        sqlite3_finalize(m_statement);
        m_statement = nullptr;
    }
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_statement);
}

void SqliteStatement::text(const QString &value)
{
    if (value.isNull())
        return null();
    m_scratch.resize(value.size() * 3); // UTF-8 needs at most three bytes per UTF-16 unit; capacity is kept
    const char *begin = m_scratch.data();
    const int size = int(m_encoder.appendToBuffer(m_scratch.data(), value) - begin);
    // A null pointer would bind NULL: an empty string is "".
    sqlite3_bind_text(m_statement, m_next++, size ? begin : "", size, SQLITE_TRANSIENT);
}

void SqliteStatement::utf8(QByteArrayView value)
{
    sqlite3_bind_text(m_statement, m_next++, value.isNull() ? "" : value.data(), int(value.size()), SQLITE_TRANSIENT);
}

void SqliteStatement::integer(qint64 value)
{
    sqlite3_bind_int64(m_statement, m_next++, value);
}

void SqliteStatement::real(double value)
{
    sqlite3_bind_double(m_statement, m_next++, value);
}

void SqliteStatement::null()
{
    sqlite3_bind_null(m_statement, m_next++);
}

bool SqliteStatement::run()
{
    m_next = 1;
    const bool done = sqlite3_step(m_statement) == SQLITE_DONE;
    if (!done)
        m_error = QString::fromUtf8(sqlite3_errmsg(m_db));
    // Reset at once: a statement left running would hold its read of the database open and keep
    // the surrounding transaction from committing.
    sqlite3_reset(m_statement);
    return done;
}

} // namespace Aile::Store
