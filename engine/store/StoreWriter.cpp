#include "StoreWriter.h"

#include "LedgerJournal.h"
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

/// Lives on the writer thread; owns the writer's connection.
class StoreWriter::Worker : public QObject
{
public:
    Worker(QString path, QString journalFolder) : m_path(std::move(path)), m_journalFolder(std::move(journalFolder)) { }

    bool open(QString *error)
    {
        runAtIdlePriority();
        m_store = std::make_unique<Store>(m_path);
        if (!m_store->open(error))
            return false;
        if (m_path == QLatin1String(":memory:") || (m_store->isShared() && m_journalFolder.isEmpty()))
            return true;
        m_journal = std::make_unique<LedgerJournal>(m_journalFolder.isEmpty() ? QFileInfo(m_path).absolutePath() : m_journalFolder);
        replayJournal();
        QString journalError;
        if (!m_journal->open(&journalError))
            qCWarning(lcStore).noquote() << journalError << "- ledger rows wait for the database alone until the next start";
        // A test seam (no user setting): widens the window between an answer and its group commit.
        m_commitDelayMs = qEnvironmentVariableIntValue("AILE_TEST_COMMIT_DELAY_MS");
        if (qEnvironmentVariableIsSet("AILE_TEST_WRITER_LATE_MS")) // a test seam: how late a batch must be to be told
            m_lateMs = qEnvironmentVariableIntValue("AILE_TEST_WRITER_LATE_MS");
        return true;
    }

    // AILE_STORE_WRITER_PRIORITY=idle: the writer gives way to every other thread of the machine
    // (docs/performance.md "Change 12 (tail)"). With two cores shared by the engine, its clients
    // and its upstreams, a group commit at normal priority can keep the engine thread waiting up
    // to a scheduler tick (4 ms) when it wakes for a request; at SCHED_IDLE the kernel runs the
    // engine at once and the writer on what is left. Not the default: on a machine kept busy by
    // other programs (a build beside the coding tool) an idle writer falls seconds behind, and
    // so do the traces, usage and charts that wait for it. Linux alone; an unprivileged thread
    // cannot come back from it.
    void runAtIdlePriority()
    {
#if defined(Q_OS_LINUX)
        if (qEnvironmentVariable("AILE_STORE_WRITER_PRIORITY") != QLatin1String("idle"))
            return;
        sched_param none{};
        m_idle = sched_setscheduler(0, SCHED_IDLE, &none) == 0; // 0: the calling thread
        if (!m_idle)
            qCInfo(lcStore) << "the store writer keeps its normal priority:" << qt_error_string(errno);
#endif
    }

    void close()
    {
        drain(CloseJournalFile); // a clean end leaves no journal file to replay
        m_journal.reset();
        m_store.reset();
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
        }
        if (wake)
            QMetaObject::invokeMethod(
                this, [this] { scheduleDrain(); }, Qt::QueuedConnection);
    }

    // Group commit (docs/performance.md): at most one transaction per MinCommitIntervalMs, so that
    // under load one commit carries many requests' rows instead of one each. The ledger rows are in
    // the journal already, so the wait costs no durability; flush() still drains at once.
    void scheduleDrain()
    {
        int delay = m_commitDelayMs;
        if (delay <= 0 && m_sinceDrain.isValid())
            delay = int(qMax<qint64>(0, MinCommitIntervalMs - m_sinceDrain.elapsed()));
        if (delay <= 0)
            drain();
        else
            QTimer::singleShot(delay, this, [this] { drain(); });
    }

    void replayJournal()
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
        if (!left.isEmpty() && !m_store->replay(traces, ledger)) {
            qCWarning(lcStore) << "could not replay" << left.size() << "journaled requests; the journal is kept for the next start";
            return;
        }
        if (!left.isEmpty())
            qCInfo(lcStore) << "replayed" << left.size() << "requests from the ledger journal left by a run that did not stop cleanly";
        for (const QString &f : files)
            LedgerJournal::remove(f);
    }

    void whenWritten(QObject *context, std::function<void()> done)
    {
        QPointer<QObject> guard(context);
        QMetaObject::invokeMethod(
            this,
            [this, guard, done = std::move(done)] {
                drain();
                if (guard)
                    QMetaObject::invokeMethod(guard.data(), done, Qt::QueuedConnection);
            },
            Qt::QueuedConnection);
    }

    static constexpr bool CloseJournalFile = true;

    void drain(bool closeJournalFile = false)
    {
        m_sinceDrain.start();
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
            traces.swap(m_traces);
            ledger.swap(m_ledger);
            m_wakePending = false;
            if (journaled)
                batchJournal = m_journal->swapToNext(closeJournalFile ? 1 : LedgerJournal::RotateBytes);
        }
        if (!batchJournal.isEmpty() && std::exchange(m_journalPinned, false))
            batchJournal.clear(); // it holds a batch kept for the next start (keepFailed): left in place
        noteLate(waitedMs, traces.size());
        if ((traces.isEmpty() && ledger.isEmpty()) || !m_store) {
            // Nothing new, but a closed file of earlier batches: removed once they are all in.
            if (!batchJournal.isEmpty() && m_failed.isEmpty())
                LedgerJournal::remove(batchJournal);
            else if (!batchJournal.isEmpty())
                m_failed.append({{}, {}, batchJournal});
            return;
        }
        // Batches that failed go first, in order: a row is never written after a later one.
        if (!m_failed.isEmpty() && (m_retryArmed || !retryFailed())) { // while a retry is armed, its timer paces the tries
            keepFailed({traces, ledger, batchJournal});
            return;
        }
        if (m_store->record(traces, ledger)) {
            m_committed.fetchAndAddRelaxed(traces.size());
            LedgerJournal::remove(batchJournal);
        } else {
            qCWarning(lcStore) << "could not write" << traces.size() << "traces and" << ledger.size()
                               << "ledger entries; kept, and written once the store answers again";
            keepFailed({traces, ledger, batchJournal});
        }
    }

    // A writer starved of the CPU (a machine kept busy by other programs) commits late; told at
    // most once a minute, with the way out.
    void noteLate(qint64 waitedMs, qsizetype rows)
    {
        // Only the idle priority's lateness: not a test seam's held commits.
        if (!m_idle || m_commitDelayMs > 0 || rows == 0 || waitedMs < m_lateMs || (m_sinceLateNote.isValid() && m_sinceLateNote.elapsed() < 60'000))
            return;
        m_sinceLateNote.start();
        qCWarning(lcStore).noquote() << QStringLiteral(
                                            "the store writer took up %1 requests %2 ms after the first of them finished: it runs at idle priority "
                                            "(AILE_STORE_WRITER_PRIORITY=idle) and the machine is busy; ledger rows are in the journal meanwhile. "
                                            "Unset AILE_STORE_WRITER_PRIORITY to run it at normal priority")
                                            .arg(rows)
                                            .arg(waitedMs);
    }

    // A shared store that dropped its connection (docs/team.md "Losing the database"): the batch
    // waits in memory (its rows are in the journal too, for a kill meanwhile) and is written on a
    // fresh connection, tried after 0.5 s, then at doubling intervals up to 8 s. Past MaxKeptTraces
    // a batch waits in its journal file alone, replayed at the next start.
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

    void scheduleRetry()
    {
        if (m_retryArmed || m_failed.isEmpty())
            return;
        m_retryArmed = true;
        m_retryMs = m_retryMs == 0 ? FirstRetryMs : qMin(m_retryMs * 2, LongestRetryMs);
        QTimer::singleShot(m_retryMs, this, [this] {
            m_retryArmed = false;
            if (!retryFailed())
                scheduleRetry();
        });
    }

    bool retryFailed()
    {
        if (!m_store->reachable()) {
            QString error;
            if (!m_store->reconnect(&error)) {
                qCInfo(lcStore).noquote() << error << "- the writer tries again";
                return false;
            }
            qCInfo(lcStore) << "the store writer reconnected;" << m_failed.size() << "waiting batches follow";
        }
        while (!m_failed.isEmpty()) {
            const FailedBatch &b = m_failed.first();
            if (!m_store->record(b.traces, b.ledger))
                return false;
            m_committed.fetchAndAddRelaxed(b.traces.size());
            m_keptTraces -= b.traces.size();
            LedgerJournal::remove(b.journal);
            m_failed.removeFirst();
        }
        m_retryMs = 0;
        return true;
    }

    QAtomicInteger<qint64> m_committed{0};

private:
    QString m_path;
    QString m_journalFolder;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<LedgerJournal> m_journal;
    int m_commitDelayMs = 0;
    static constexpr qint64 MinCommitIntervalMs = 10;
    QElapsedTimer m_sinceDrain; // since the last drain started (the group commit's pace)
    static constexpr qint64 LateMs = 2'000;
    qint64 m_lateMs = LateMs; // a batch whose first row waited this long is told (noteLate)
    QElapsedTimer m_sinceLateNote;
    bool m_idle = false;         // runs at SCHED_IDLE (runAtIdlePriority)
    QList<FailedBatch> m_failed; // batches the store refused, oldest first (retryFailed)
    qsizetype m_keptTraces = 0;
    int m_retryMs = 0;
    bool m_retryArmed = false;
    bool m_journalPinned = false; // the journal file in use holds a dropped batch's rows
    QMutex m_mutex;
    QList<TraceRecord> m_traces;
    QList<LedgerEntry> m_ledger;
    bool m_wakePending = false;
    QElapsedTimer m_firstQueued; // when the oldest row in m_traces was queued
};

StoreWriter::StoreWriter(QString databasePath, QObject *parent) : QObject(parent), m_path(std::move(databasePath))
{
    m_thread.setObjectName(QStringLiteral("aile-store-writer"));
}

StoreWriter::~StoreWriter()
{
    stop();
}

bool StoreWriter::start(QString *error)
{
    m_worker = new Worker(m_path, m_journalFolder);
    m_worker->moveToThread(&m_thread);
    m_thread.start();
    bool ok = false;
    QSemaphore opened;
    QString openError;
    // Start-up only: the engine is not serving yet, so waiting here delays nobody.
    QMetaObject::invokeMethod(
        m_worker,
        [&] {
            ok = m_worker->open(&openError);
            opened.release();
        },
        Qt::QueuedConnection);
    opened.acquire();
    if (!ok && error)
        *error = openError;
    return ok;
}

void StoreWriter::flush()
{
    if (!m_worker)
        return;
    QSemaphore done;
    QMetaObject::invokeMethod(
        m_worker,
        [&] {
            m_worker->drain();
            done.release();
        },
        Qt::QueuedConnection);
    done.acquire();
}

void StoreWriter::stop()
{
    if (!m_worker)
        return;
    QSemaphore closed;
    QMetaObject::invokeMethod(
        m_worker,
        [&] {
            m_worker->close();
            closed.release();
        },
        Qt::QueuedConnection);
    closed.acquire();
    m_thread.quit();
    m_thread.wait();
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
