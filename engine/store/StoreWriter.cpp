#include "StoreWriter.h"

#include "Store.h"

#include <QtCore/QLoggingCategory>
#include <QtCore/QSemaphore>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace Aile::Store {

/// Lives on the writer thread; owns the writer's connection.
class StoreWriter::Worker : public QObject
{
public:
    explicit Worker(QString path) : m_path(std::move(path)) {}

    bool open(QString *error)
    {
        m_store = std::make_unique<Store>(m_path);
        return m_store->open(error);
    }

    void close()
    {
        drain();
        m_store.reset();
    }

    void enqueue(const TraceRecord &trace, const QList<LedgerEntry> &ledger)
    {
        bool wake = false;
        {
            QMutexLocker lock(&m_mutex);
            m_traces.append(trace);
            m_ledger += ledger;
            wake = !m_wakePending;
            m_wakePending = true;
        }
        if (wake)
            QMetaObject::invokeMethod(this, [this] { drain(); }, Qt::QueuedConnection);
    }

    void whenWritten(QObject *context, std::function<void()> done)
    {
        QPointer<QObject> guard(context);
        QMetaObject::invokeMethod(this, [this, guard, done = std::move(done)] {
            drain();
            if (guard)
                QMetaObject::invokeMethod(guard.data(), done, Qt::QueuedConnection);
        }, Qt::QueuedConnection);
    }

    void drain()
    {
        QList<TraceRecord> traces;
        QList<LedgerEntry> ledger;
        {
            QMutexLocker lock(&m_mutex);
            traces.swap(m_traces);
            ledger.swap(m_ledger);
            m_wakePending = false;
        }
        if ((traces.isEmpty() && ledger.isEmpty()) || !m_store)
            return;
        if (m_store->record(traces, ledger))
            m_committed.fetchAndAddRelaxed(traces.size());
        else
            qCWarning(lcStore) << "could not write" << traces.size() << "traces and" << ledger.size() << "ledger entries";
    }

    QAtomicInteger<qint64> m_committed{0};

private:
    QString m_path;
    std::unique_ptr<Store> m_store;
    QMutex m_mutex;
    QList<TraceRecord> m_traces;
    QList<LedgerEntry> m_ledger;
    bool m_wakePending = false;
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
    m_worker = new Worker(m_path);
    m_worker->moveToThread(&m_thread);
    m_thread.start();
    bool ok = false;
    QSemaphore opened;
    QString openError;
    // Start-up only: the engine is not serving yet, so waiting here delays nobody.
    QMetaObject::invokeMethod(m_worker, [&] {
        ok = m_worker->open(&openError);
        opened.release();
    }, Qt::QueuedConnection);
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
    QMetaObject::invokeMethod(m_worker, [&] {
        m_worker->drain();
        done.release();
    }, Qt::QueuedConnection);
    done.acquire();
}

void StoreWriter::stop()
{
    if (!m_worker)
        return;
    QSemaphore closed;
    QMetaObject::invokeMethod(m_worker, [&] {
        m_worker->close();
        closed.release();
    }, Qt::QueuedConnection);
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
