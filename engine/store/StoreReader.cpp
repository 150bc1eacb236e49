#include "StoreReader.h"

#include "Store.h"
#include "StoreReaderWorker.h"

namespace Aile::Store {

StoreReader::StoreReader(const QString &path, QObject *parent) : QObject(parent), m_path(path), m_worker(new StoreReaderWorker(this))
{
    m_thread.setObjectName(QStringLiteral("aile-store-reader"));
    connect(this, &StoreReader::opened, this, [this] { m_open = true; });
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start(QThread::LowPriority);
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, path] { worker->open(path); }, Qt::QueuedConnection);
}

StoreReader::~StoreReader()
{
    // The queries queued and not started are dropped with the event loop; one running finishes.
    m_thread.requestInterruption();
    m_thread.quit();
    m_thread.wait();
}

void StoreReader::post(const char *what, quint64 id, Job job)
{
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, name = QString::fromLatin1(what), id, job = std::move(job)] { worker->run(name, id, job); },
        Qt::QueuedConnection);
}

void StoreReader::deliver(quint64 id, const std::function<void()> &answer)
{
    const auto it = m_waiting.find(id);
    if (it == m_waiting.end())
        return;
    const Waiting waiting = it.value();
    m_waiting.erase(it);
    if (waiting.hasContext && waiting.context.isNull())
        return;
    answer();
}

} // namespace Aile::Store
