#pragma once

#include "TraceRecord.h"

#include <QtCore/QMutex>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QThread>

#include <functional>
#include <memory>

namespace Aile::Store {

class Store;

/// Writes traces and ledger entries off the engine thread, so the proxy's request path never waits
/// on the disk. Everything queued since the last wake-up is committed in one transaction (group
/// commit); a write is on disk within one transaction of the request finishing, and WAL keeps it
/// through a kill -9 from then on.
///
/// Two threads, each with its own connection (docs/threading.md "Store-writer thread"): the group
/// commits run on a thread at idle priority, so that a commit never keeps the engine thread waiting
/// for a core; a thread at normal priority opens the store, replays the journal, serves flush(),
/// whenWritten() and stop(), and commits whatever the idle thread has left waiting for
/// RescueMs (a machine kept busy by other programs). One of them commits at a time, in order.
/// A shared store (PostgreSQL), ":memory:", AILE_STORE_WRITER_PRIORITY=normal or a system without
/// SCHED_IDLE has the normal thread alone.
class StoreWriter : public QObject
{
    Q_OBJECT
public:
    explicit StoreWriter(QString databasePath, QObject *parent = nullptr);
    ~StoreWriter() override;

    /// Where the ledger journal lives (default: beside a database file; a server has no such folder).
    void setJournalFolder(const QString &folder) { m_journalFolder = folder; }
    /// Opens the writer's connection on its thread; false when the database cannot be opened.
    bool start(QString *error);
    /// Commits what is queued now, waiting for it (at shutdown).
    void flush();
    /// Commits what is queued and ends the thread.
    void stop();

    /// Any thread: queues a trace and its ledger entries for the next transaction.
    void enqueue(const TraceRecord &trace, const QList<LedgerEntry> &ledger);
    /// The same, taking the records over instead of copying them.
    void enqueue(TraceRecord &&trace, QList<LedgerEntry> &&ledger);
    /// Runs done on context's thread once everything queued before this call is committed.
    void whenWritten(QObject *context, std::function<void()> done);
    qint64 committed() const;

    /// How long queued rows may wait for the idle thread before the normal one commits them.
    static constexpr int RescueMs = 250;

private:
    class Worker;
    class Lane;
    Worker *m_worker = nullptr;
    QString m_path;
    QString m_journalFolder;
};

} // namespace Aile::Store
