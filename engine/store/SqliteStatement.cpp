#include "SqliteStatement.h"

#include <QtCore/QScopeGuard>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlDriver>

#include <sqlite3.h>

#include <cstring>
#include <memory>
#include <vector>

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

namespace {

// The text bound to the statement being bound and run on this thread, in blocks the thread keeps:
// a value never moves once bound (a growing buffer would), and a run reuses the blocks of the one
// before. One arena per thread serves all its statements: a statement is bound and run before the
// next one is bound (RecordStatements), so only one statement's values are live at a time.
struct BoundText
{
    static constexpr qsizetype BlockBytes = 64 * 1024;
    std::vector<std::unique_ptr<char[]>> blocks;
    std::vector<std::unique_ptr<char[]>> large; // values larger than a block, freed at the run
    size_t block = 0;
    qsizetype used = 0;

    char *room(qsizetype bytes)
    {
        if (bytes > BlockBytes) {
            large.emplace_back(new char[size_t(bytes)]);
            return large.back().get();
        }
        if (block < blocks.size() && used + bytes > BlockBytes) {
            ++block;
            used = 0;
        }
        if (block == blocks.size())
            blocks.emplace_back(new char[size_t(BlockBytes)]); // not zeroed: a page counts once written
        char *at = blocks[block].get() + used;
        used += bytes;
        return at;
    }
    void giveBack(qsizetype bytes) { used -= bytes; }
    void clear()
    {
        block = 0;
        used = 0;
        large.clear();
    }
};

thread_local BoundText t_bound;

} // namespace

void SqliteStatement::text(const QString &value)
{
    if (value.isNull())
        return null();
    // UTF-8 needs at most three bytes per UTF-16 unit; what is not used is given back below.
    const qsizetype reserved = value.size() * 3;
    char *const at = t_bound.room(reserved);
    char *end = at;
    // ASCII, nearly all of a trace, is copied as it is; the first other character hands the rest to Qt.
    const QChar *units = value.constData();
    qsizetype i = 0;
    for (; i < value.size() && units[i].unicode() < 0x80; ++i)
        *end++ = char(units[i].unicode());
    if (i < value.size())
        end = m_encoder.appendToBuffer(end, QStringView(value).sliced(i));
    if (reserved <= BoundText::BlockBytes)
        t_bound.giveBack(reserved - (end - at));
    // STATIC: SQLite reads the bytes where they are until run(); a null pointer would bind NULL.
    sqlite3_bind_text(m_statement, m_next++, end > at ? at : "", int(end - at), SQLITE_STATIC);
}

void SqliteStatement::utf8(QByteArrayView value)
{
    char *const at = t_bound.room(value.size());
    if (!value.isEmpty())
        std::memcpy(at, value.data(), size_t(value.size()));
    sqlite3_bind_text(m_statement, m_next++, value.isEmpty() ? "" : at, int(value.size()), SQLITE_STATIC);
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
    const auto reuse = qScopeGuard([] { t_bound.clear(); });
    const bool done = sqlite3_step(m_statement) == SQLITE_DONE;
    if (!done)
        m_error = QString::fromUtf8(sqlite3_errmsg(m_db));
    // Reset at once: a statement left running would hold its read of the database open and keep
    // the surrounding transaction from committing. The text bound to it now points at blocks the
    // next binding reuses: every run binds all its parameters first, so SQLite never reads them.
    sqlite3_reset(m_statement);
    return done;
}

} // namespace Aile::Store
