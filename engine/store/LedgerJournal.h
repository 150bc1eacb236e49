#pragma once

#include "TraceRecord.h"

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace Aile::Store {

/// A finished request as the journal keeps it until the database has it.
struct JournalRecord
{
    TraceRecord trace;
    QList<LedgerEntry> ledger;
};

/// The append-only journal that makes a ledger row outlive a kill -9 from the moment the answer's
/// last bytes can leave (docs/hardening.md "Durability under faults"): one binary record per
/// finished request, handed to the operating system with a single write(2) before the client can
/// have its answer, no fsync. The writer's group commit puts the same rows in the database; the
/// file of a committed batch is then removed. At start, what earlier runs left is replayed
/// (Store::record is idempotent by request id), so a row is never lost to a kill and never doubled.
///
/// Files are `ledger-journal-NNNNNN.bin` in the data folder, 0600. Not thread-safe: the store
/// writer calls it under its own lock.
class LedgerJournal
{
public:
    explicit LedgerJournal(QString folder);
    ~LedgerJournal();
    LedgerJournal(const LedgerJournal &) = delete;
    LedgerJournal &operator=(const LedgerJournal &) = delete;

    /// What earlier runs left, oldest first; files names the files read (remove them once the
    /// records are in the database). A record cut short (killed inside its write) is skipped.
    QList<JournalRecord> leftOver(QStringList *files) const;
    /// Opens a new file to append to; false (and why) when it cannot be created.
    bool open(QString *error);
    bool isOpen() const { return m_fd >= 0; }

    /// The record for one finished request (built by the caller, outside any lock).
    static QByteArray line(const TraceRecord &trace, const QList<LedgerEntry> &ledger);
    /// The same record appended to out (a buffer the caller reuses: no allocation per request).
    static void appendLine(QByteArray &out, const TraceRecord &trace, const QList<LedgerEntry> &ledger);
    /// Appends one record with a single write(2); false when the system refused it.
    bool append(const QByteArray &line);
    /// Starts a new file for the records that follow once the one in use holds at least
    /// atLeastBytes; returns the closed file's path (empty if it stays in use). Opens the next file
    /// first, once, and keeps it until a swap uses it, so the caller may hold its lock only for the
    /// swap (prepareNext + swapToNext).
    bool prepareNext();
    QString swapToNext(qint64 atLeastBytes = 1);
    /// The size at which the store writer starts a new file: a file and its removal per ~1,500
    /// requests instead of one per group commit (docs/performance.md "Change 6 (store)"); a kill
    /// leaves at most this much, plus the batches not yet committed, to replay at the next start.
    static constexpr qint64 RotateBytes = 1 << 20;
    /// Removes a file whose records are in the database.
    static void remove(const QString &path);

private:
    QString pathFor(quint64 serial) const;
    QString m_folder;
    int m_fd = -1;
    QString m_path;
    qint64 m_written = 0;
    int m_nextFd = -1;
    QString m_nextPath;
    quint64 m_serial = 0;
};

} // namespace Aile::Store
