#pragma once

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QThread>

#include <functional>
#include <memory>

namespace Aile::Store {

class Store;
class StoreReaderWorker;

/// Reads the store off the calling thread: a worker on its own QThread holds its own read-only
/// connection (WAL lets it read beside the writer), runs the queries handed to it in order, and
/// sends each result back as a value to the thread the reader lives on. The GUI's history (trace
/// pages, counts, one trace's attempts), charts and today's spend come through here, so a busy
/// proxy never makes the GUI thread wait on SQLite.
///
/// A query is a function of the worker's Store that returns a value; it runs on the reader's
/// thread and must capture values only. The answer is dropped when its context object is gone.
class StoreReader : public QObject
{
    Q_OBJECT
public:
    /// Opens path read-only on the reader's thread; opened() or openFailed() follows.
    explicit StoreReader(const QString &path, QObject *parent = nullptr);
    /// Quits the reader's thread once the query running now (if any) returns; queued ones are dropped.
    ~StoreReader() override;

    QString path() const { return m_path; }
    /// The reader's connection is open (opened() came): a query sent now is answered. Before,
    /// a query waits for the open; after openFailed() it is never answered.
    bool isOpen() const { return m_open; }

    /// Runs query(store) on the reader's thread, then done(result) on this object's thread.
    /// what names the query for the ran() signal (a test hook, and a log line when it fails).
    template <typename R> void read(const char *what, std::function<R(const Store &)> query, QObject *context, std::function<void(R)> done)
    {
        const quint64 id = m_nextId++;
        m_waiting.insert(id, Waiting{QPointer<QObject>(context), context != nullptr});
        post(what, id, [query = std::move(query), done = std::move(done)](const Store &store) -> std::function<void()> {
            return [result = query(store), done]() mutable { done(std::move(result)); };
        });
    }

    /// Queries sent and not answered yet.
    int pending() const { return int(m_waiting.size()); }

Q_SIGNALS:
    void opened();
    void openFailed(const QString &error);
    /// A query ran (emitted from the reader's thread, so connect it Qt::DirectConnection to see
    /// which thread that is, or queued to count): its name and the id of the thread it ran on.
    void ran(const QString &what, Qt::HANDLE thread);

private:
    using Job = std::function<std::function<void()>(const Store &)>;
    void post(const char *what, quint64 id, Job job);
    void deliver(quint64 id, const std::function<void()> &answer);

    struct Waiting
    {
        QPointer<QObject> context;
        bool hasContext = false;
    };
    QString m_path;
    QThread m_thread;
    StoreReaderWorker *m_worker;
    QHash<quint64, Waiting> m_waiting;
    quint64 m_nextId = 1;
    bool m_open = false;

    friend class StoreReaderWorker;
};

} // namespace Aile::Store
