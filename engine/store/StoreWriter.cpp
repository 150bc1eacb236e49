#include "StoreWriter.h"

#include "LedgerJournal.h"
#include "SqlDialect.h"
#include "Store.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QFileInfo>
#include <QtCore/QTimer>

#include <QtCore/QLoggingCategory>
#include <QtCore/QSemaphore>

#if defined(Q_OS_LINUX)
#include <sched.h>
#endif

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace Aile::Store {

/// One of the writer's threads: a context for its events and timers, and its own connection (a
/// Qt SQL connection is used on the thread that opened it, and nowhere else).
class StoreWriter::Lane : public QObject
{
public:
    explicit Lane(const QString &threadName) { m_thread.setObjectName(threadName); }

    void start()
    {
        moveToThread(&m_thread);
        m_thread.start();
    }

    // Runs f on this lane's thread and waits for it. Start-up and stop only (and flush(), which
    // the engine calls at shutdown): the engine is not serving then, so waiting delays nobody.
    template <typename F> void runAndWait(F f)
    {
        QSemaphore done;
        QMetaObject::invokeMethod(
            this,
            [&] {
                f();
                done.release();
            },
            Qt::QueuedConnection);
        done.acquire();
    }

    void end()
    {
        m_thread.quit();
        m_thread.wait();
    }

    std::unique_ptr<Store> store;

private:
    QThread m_thread;
};

/// What both lanes share: the queue the engine fills, the ledger journal, the batches the store
/// refused. drain() holds m_drainLock from taking a batch to committing it, so batches commit
/// one at a time and in order, whichever lane runs them.
class StoreWriter::Worker
{
public:
    Worker(QString path, QString journalFolder) : m_path(std::move(path)), m_journalFolder(std::move(journalFolder))
    {
        m_clock.start();
        // Test seams (no user setting): widen the window between an answer and its group commit;
        // how late a batch must be to be told; how long the normal lane waits for the idle one;
        // an idle lane that never commits (a machine that never leaves it a core).
        m_commitDelayMs = qEnvironmentVariableIntValue("AILE_TEST_COMMIT_DELAY_MS");
        if (qEnvironmentVariableIsSet("AILE_TEST_WRITER_LATE_MS"))
            m_lateMs = qEnvironmentVariableIntValue("AILE_TEST_WRITER_LATE_MS");
        if (qEnvironmentVariableIsSet("AILE_TEST_WRITER_RESCUE_MS"))
            m_rescueMs = qEnvironmentVariableIntValue("AILE_TEST_WRITER_RESCUE_MS");
        m_idleLaneStalled = qEnvironmentVariableIsSet("AILE_TEST_WRITER_IDLE_STALLED");
    }

    bool start(QString *error)
    {
        const bool idleLane = wantsIdleLane();
        m_sync = std::make_unique<Lane>(QLatin1String(idleLane ? "aile-store-sync" : "aile-store-writer"));
        m_sync->start();
        bool ok = false;
        m_sync->runAndWait([&] { ok = open(error); });
        if (ok && idleLane)
            startIdleLane();
        return ok;
    }

    void stop()
    {
        if (m_idle) {
            m_idle->runAndWait([&] {
                QMutexLocker drainLock(&m_drainLock); // not in the middle of a batch
                m_idle->store.reset();
            });
            m_idle->end();
        }
        m_sync->runAndWait([&] { close(); });
        m_sync->end();
    }

    void flush()
    {
        m_sync->runAndWait([&] { drain(*m_sync); });
    }

    void enqueue(TraceRecord trace, QList<LedgerEntry> ledger)
    {
        // A request with a ledger row is journaled before this returns, and this runs before the
        // answer's last bytes are released (Dispatch::ProxyRequest): a kill -9 from then on
        // cannot lose the row. The line is built outside the lock; the lock covers one write(2).
        // The line goes in a buffer each calling thread keeps: a record is about 1 KiB, past
        // glibc's per-thread cache, so a fresh one per request took malloc's slow path.
        thread_local QByteArray line;
        line.resize(0); // keeps the capacity
        if (!ledger.isEmpty() && m_journal)
            LedgerJournal::appendLine(line, trace, ledger);
        bool wake = false;
        bool armRescue = false;
        {
            QMutexLocker lock(&m_mutex);
            if (!line.isEmpty() && m_journal->isOpen() && !m_journal->append(line))
                qCWarning(lcStore) << "could not append to the ledger journal; the row waits for the database alone";
            if (m_traces.isEmpty())
                m_firstQueued.start();
            m_traces.append(std::move(trace));
            m_ledger.append(std::move(ledger));
            wake = !m_wakePending;
            m_wakePending = true;
            armRescue = m_idle && !m_rescueArmed && m_commitDelayMs <= 0; // held commits are the seam's: never rescued
            m_rescueArmed = m_rescueArmed || armRescue;
        }
        Lane *committer = m_idle ? m_idle.get() : m_sync.get();
        if (wake)
            QMetaObject::invokeMethod(
                committer, [this, committer] { scheduleDrain(*committer); }, Qt::QueuedConnection);
        if (armRescue)
            QMetaObject::invokeMethod(
                m_sync.get(), [this] { rescueLateRows(); }, Qt::QueuedConnection);
    }

    void whenWritten(QObject *context, std::function<void()> done)
    {
        QPointer<QObject> guard(context);
        QMetaObject::invokeMethod(
            m_sync.get(),
            [this, guard, done = std::move(done)] {
                drain(*m_sync);
                if (guard)
                    QMetaObject::invokeMethod(guard.data(), done, Qt::QueuedConnection);
            },
            Qt::QueuedConnection);
    }

    QAtomicInteger<qint64> m_committed{0};

private:
    // The idle lane: Linux's SCHED_IDLE, for a local SQLite file (a second connection to a
    // ":memory:" database would be another database; a team server's PostgreSQL keeps one
    // connection per instance), unless AILE_STORE_WRITER_PRIORITY=normal.
    bool wantsIdleLane() const
    {
#if defined(Q_OS_LINUX)
        return qEnvironmentVariable("AILE_STORE_WRITER_PRIORITY") != QLatin1String("normal") && m_path != QLatin1String(":memory:")
               && !SqlDialect::isServerLocation(m_path);
#else
        return false;
#endif
    }

    // docs/performance.md "Change 13 (writer)": with two cores shared by the engine, its clients
    // and its upstreams, a group commit at normal priority kept the engine thread waiting up to a
    // scheduler tick (4 ms) when it woke for a request; at SCHED_IDLE the kernel runs the engine
    // at once and the commits on what is left. A thread cannot come back from SCHED_IDLE without
    // privileges, so the normal lane is what keeps commits coming on a busy machine.
    void startIdleLane()
    {
#if defined(Q_OS_LINUX)
        auto lane = std::make_unique<Lane>(QStringLiteral("aile-store-writer"));
        lane->start();
        bool ok = false;
        QString why;
        lane->runAndWait([&] {
            sched_param none{};
            if (sched_setscheduler(0, SCHED_IDLE, &none) != 0) { // 0: the calling thread
                why = qt_error_string(errno);
                return;
            }
            lane->store = std::make_unique<Store>(m_path);
            ok = lane->store->open(&why);
            if (!ok)
                lane->store.reset();
        });
        if (ok) {
            m_idle = std::move(lane);
            return;
        }
        lane->end();
        qCInfo(lcStore).noquote() << "the store writer commits at normal priority:" << why;
#endif
    }

    bool open(QString *error)
    {
        m_sync->store = std::make_unique<Store>(m_path);
        if (!m_sync->store->open(error))
            return false;
        if (m_path == QLatin1String(":memory:") || (m_sync->store->isShared() && m_journalFolder.isEmpty()))
            return true;
        m_journal = std::make_unique<LedgerJournal>(m_journalFolder.isEmpty() ? QFileInfo(m_path).absolutePath() : m_journalFolder);
        replayJournal(*m_sync->store);
        QString journalError;
        if (!m_journal->open(&journalError))
            qCWarning(lcStore).noquote() << journalError << "- ledger rows wait for the database alone until the next start";
        return true;
    }

    void close()
    {
        drain(*m_sync, CloseJournalFile); // a clean end leaves no journal file to replay
        m_journal.reset();
        m_sync->store.reset();
    }

    // Group commit (docs/performance.md): at most one transaction per MinCommitIntervalMs, so that
    // under load one commit carries many requests' rows instead of one each. The ledger rows are in
    // the journal already, so the wait costs no durability; flush() still drains at once.
    void scheduleDrain(Lane &lane)
    {
        if (m_idleLaneStalled && &lane == m_idle.get())
            return;
        int delay = m_commitDelayMs;
        const qint64 last = m_lastDrainMs.loadRelaxed();
        if (delay <= 0 && last >= 0)
            delay = int(qMax<qint64>(0, MinCommitIntervalMs - (m_clock.elapsed() - last)));
        if (delay <= 0)
            drain(lane);
        else
            QTimer::singleShot(delay, &lane, [this, &lane] { drain(lane); });
    }

    // On the normal lane, armed by the first row of a batch: rows the idle lane has left waiting
    // for m_rescueMs are committed here, and the timer follows the queue until it is empty.
    void rescueLateRows()
    {
        for (;;) {
            if (!m_sync->store)
                return; // stopped
            qint64 waited = 0;
            {
                QMutexLocker lock(&m_mutex);
                if (m_traces.isEmpty()) {
                    m_rescueArmed = false;
                    return;
                }
                waited = m_firstQueued.elapsed();
            }
            if (waited < m_rescueMs) {
                QTimer::singleShot(int(m_rescueMs - waited), m_sync.get(), [this] { rescueLateRows(); });
                return;
            }
            drain(*m_sync, false, m_rescueMs);
        }
    }

    void replayJournal(Store &store)
    {
        QStringList files;
        const QList<JournalRecord> left = m_journal->leftOver(&files);
        QList<TraceRecord> traces;
        QList<LedgerEntry> ledger;
        for (const JournalRecord &r : left) {
            traces.append(r.trace);
            ledger += r.ledger;
        }
        // Rows committed before the kill are not doubled: a request id is booked once.
        // Store::replay keeps a trace row already there (its record here carries less).
        if (!left.isEmpty() && !store.replay(traces, ledger)) {
            qCWarning(lcStore) << "could not replay" << left.size() << "journaled requests; the journal is kept for the next start";
            return;
        }
        if (!left.isEmpty())
            qCInfo(lcStore) << "replayed" << left.size() << "requests from the ledger journal left by a run that did not stop cleanly";
        for (const QString &f : files)
            LedgerJournal::remove(f);
    }

    static constexpr bool CloseJournalFile = true;

    // Commits what is queued on this lane's connection. onlyIfOlderThanMs: the rescue's, which
    // leaves a batch younger than that to the idle lane (it may have committed the late one while
    // the rescue waited for the lock).
    void drain(Lane &lane, bool closeJournalFile = false, qint64 onlyIfOlderThanMs = -1)
    {
        QMutexLocker drainLock(&m_drainLock);
        if (!lane.store)
            return; // a lane stopped (or not open): its batch stays queued for the other
        Store &store = *lane.store;
        m_lastDrainMs.storeRelaxed(m_clock.elapsed());
        QList<TraceRecord> traces;
        QList<LedgerEntry> ledger;
        // The journal file in use is closed with a batch once it holds RotateBytes (or at the end),
        // under the lock, and removed once that batch is committed: batches commit in order, so
        // every row in it is then in the database. The next file is opened before the lock, once.
        const bool journaled = m_journal && m_journal->isOpen() && m_journal->prepareNext();
        QString batchJournal;
        qint64 waitedMs = 0;
        {
            QMutexLocker lock(&m_mutex);
            waitedMs = m_traces.isEmpty() ? 0 : m_firstQueued.elapsed();
            if (onlyIfOlderThanMs >= 0 && waitedMs < onlyIfOlderThanMs)
                return;
            traces.swap(m_traces);
            ledger.swap(m_ledger);
            // The next batch starts at this one's size: growing from empty by doubling cost the
            // engine thread ~1,000 instructions per request (callgrind).
            m_traces.reserve(traces.size());
            m_ledger.reserve(ledger.size());
            m_wakePending = false;
            if (journaled)
                batchJournal = m_journal->swapToNext(closeJournalFile ? 1 : LedgerJournal::RotateBytes);
        }
        if (!batchJournal.isEmpty() && std::exchange(m_journalPinned, false))
            batchJournal.clear(); // it holds a batch kept for the next start (keepFailed): left in place
        noteLate(waitedMs, traces.size(), onlyIfOlderThanMs >= 0);
        if (traces.isEmpty() && ledger.isEmpty()) {
            // Nothing new, but a closed file of earlier batches: removed once they are all in.
            if (!batchJournal.isEmpty() && m_failed.isEmpty())
                LedgerJournal::remove(batchJournal);
            else if (!batchJournal.isEmpty())
                m_failed.append({{}, {}, batchJournal});
            return;
        }
        // Batches that failed go first, in order: a row is never written after a later one.
        if (!m_failed.isEmpty() && (m_retryArmed || !retryFailed(store))) { // while a retry is armed, its timer paces the tries
            keepFailed({traces, ledger, batchJournal});
            return;
        }
        if (store.record(traces, ledger)) {
            m_committed.fetchAndAddRelaxed(traces.size());
            LedgerJournal::remove(batchJournal);
        } else {
            qCWarning(lcStore) << "could not write" << traces.size() << "traces and" << ledger.size()
                               << "ledger entries; kept, and written once the store answers again";
            keepFailed({traces, ledger, batchJournal});
        }
    }

    // Rows that waited long for their commit are told, at most once a minute each: the normal
    // lane taking over from a starved idle one (information), and a batch that waited LateMs or
    // more (a warning: the machine or its disk is slower than the writer needs).
    void noteLate(qint64 waitedMs, qsizetype rows, bool rescued)
    {
        if (m_commitDelayMs > 0 || rows == 0) // held commits are the seam's, never told
            return;
        if (rescued && (!m_sinceRescueNote.isValid() || m_sinceRescueNote.elapsed() >= 60'000)) {
            m_sinceRescueNote.start();
            qCInfo(lcStore).noquote() << QStringLiteral(
                                             "the store writer's idle-priority thread left %1 requests waiting %2 ms (the machine is busy); "
                                             "they were committed at normal priority")
                                             .arg(rows)
                                             .arg(waitedMs);
        }
        if (waitedMs < m_lateMs || (m_sinceLateNote.isValid() && m_sinceLateNote.elapsed() < 60'000))
            return;
        m_sinceLateNote.start();
        qCWarning(lcStore).noquote() << QStringLiteral(
                                            "the store writer took up %1 requests %2 ms after the first of them finished: the machine or its disk is "
                                            "busy; ledger rows are in the journal meanwhile, and traces, usage and charts wait for the commit")
                                            .arg(rows)
                                            .arg(waitedMs);
    }

    // A shared store that dropped its connection (docs/team.md "Losing the database"): the batch
    // waits in memory (its rows are in the journal too, for a kill meanwhile) and is written on a
    // fresh connection, tried after 0.5 s, then at doubling intervals up to 8 s. Past MaxKeptTraces
    // a batch waits in its journal file alone, replayed at the next start. Under m_drainLock.
    struct FailedBatch
    {
        QList<TraceRecord> traces;
        QList<LedgerEntry> ledger;
        QString journal;
    };
    static constexpr qsizetype MaxKeptTraces = 100'000;
    static constexpr int FirstRetryMs = 500;
    static constexpr int LongestRetryMs = 8'000;

    void keepFailed(FailedBatch batch)
    {
        if (m_keptTraces + batch.traces.size() <= MaxKeptTraces) {
            m_keptTraces += batch.traces.size();
            m_failed.append(std::move(batch));
        } else {
            qCWarning(lcStore) << "too many requests wait for the store;" << batch.traces.size()
                               << "of them wait in the ledger journal for the next start";
            // Its rows are in the file in use (it closed none): that file must outlive this run.
            m_journalPinned = m_journalPinned || batch.journal.isEmpty();
        }
        scheduleRetry();
    }

    // The retries run on the normal lane, whichever lane failed.
    void scheduleRetry()
    {
        if (m_retryArmed || m_failed.isEmpty())
            return;
        m_retryArmed = true;
        m_retryMs = m_retryMs == 0 ? FirstRetryMs : qMin(m_retryMs * 2, LongestRetryMs);
        QMetaObject::invokeMethod(
            m_sync.get(),
            [this, ms = m_retryMs] {
                QTimer::singleShot(ms, m_sync.get(), [this] {
                    QMutexLocker drainLock(&m_drainLock);
                    m_retryArmed = false;
                    if (m_sync->store && !retryFailed(*m_sync->store))
                        scheduleRetry();
                });
            },
            Qt::QueuedConnection);
    }

    bool retryFailed(Store &store)
    {
        if (!store.reachable()) {
            QString error;
            if (!store.reconnect(&error)) {
                qCInfo(lcStore).noquote() << error << "- the writer tries again";
                return false;
            }
            qCInfo(lcStore) << "the store writer reconnected;" << m_failed.size() << "waiting batches follow";
        }
        while (!m_failed.isEmpty()) {
            const FailedBatch &b = m_failed.first();
            if (!store.record(b.traces, b.ledger))
                return false;
            m_committed.fetchAndAddRelaxed(b.traces.size());
            m_keptTraces -= b.traces.size();
            LedgerJournal::remove(b.journal);
            m_failed.removeFirst();
        }
        m_retryMs = 0;
        return true;
    }

    QString m_path;
    QString m_journalFolder;
    std::unique_ptr<Lane> m_sync; // normal priority: open, replay, flush, whenWritten, stop, retries, the rescue
    std::unique_ptr<Lane> m_idle; // SCHED_IDLE: the group commits (none: m_sync commits them)
    std::unique_ptr<LedgerJournal> m_journal;
    int m_commitDelayMs = 0;
    static constexpr qint64 MinCommitIntervalMs = 10;
    QElapsedTimer m_clock;
    QAtomicInteger<qint64> m_lastDrainMs{-1}; // m_clock's reading when the last drain started (the group commit's pace)
    static constexpr qint64 LateMs = 2'000;
    qint64 m_lateMs = LateMs; // a batch whose first row waited this long is told (noteLate)
    qint64 m_rescueMs = RescueMs;
    bool m_idleLaneStalled = false;
    QMutex m_drainLock; // one batch at a time, in order; guards what follows up to m_mutex
    QElapsedTimer m_sinceLateNote;
    QElapsedTimer m_sinceRescueNote;
    QList<FailedBatch> m_failed; // batches the store refused, oldest first (retryFailed)
    qsizetype m_keptTraces = 0;
    int m_retryMs = 0;
    bool m_retryArmed = false;
    bool m_journalPinned = false; // the journal file in use holds a dropped batch's rows
    QMutex m_mutex;               // the queue, below
    QList<TraceRecord> m_traces;
    QList<LedgerEntry> m_ledger;
    bool m_wakePending = false;
    bool m_rescueArmed = false;
    QElapsedTimer m_firstQueued; // when the oldest row in m_traces was queued
};

StoreWriter::StoreWriter(QString databasePath, QObject *parent) : QObject(parent), m_path(std::move(databasePath)) { }

StoreWriter::~StoreWriter()
{
    stop();
}

bool StoreWriter::start(QString *error)
{
    m_worker = new Worker(m_path, m_journalFolder);
    return m_worker->start(error);
}

void StoreWriter::flush()
{
    if (m_worker)
        m_worker->flush();
}

void StoreWriter::stop()
{
    if (!m_worker)
        return;
    m_worker->stop();
    delete m_worker;
    m_worker = nullptr;
}

void StoreWriter::enqueue(const TraceRecord &trace, const QList<LedgerEntry> &ledger)
{
    if (m_worker)
        m_worker->enqueue(trace, ledger);
}

void StoreWriter::enqueue(TraceRecord &&trace, QList<LedgerEntry> &&ledger)
{
    if (m_worker)
        m_worker->enqueue(std::move(trace), std::move(ledger));
}

void StoreWriter::whenWritten(QObject *context, std::function<void()> done)
{
    if (m_worker)
        m_worker->whenWritten(context, std::move(done));
    else
        QMetaObject::invokeMethod(context, done, Qt::QueuedConnection);
}

qint64 StoreWriter::committed() const
{
    return m_worker ? m_worker->m_committed.loadRelaxed() : 0;
}

} // namespace Aile::Store
