#include "StoreReaderWorker.h"

#include "Store.h"
#include "StoreReader.h"

#include <QtCore/QLoggingCategory>
#include <QtCore/QThread>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace Aile::Store {

StoreReaderWorker::StoreReaderWorker(StoreReader *reader) : m_reader(reader) { }

StoreReaderWorker::~StoreReaderWorker() = default;

void StoreReaderWorker::open(const QString &path)
{
    auto store = std::make_unique<Store>(path, true);
    QString error;
    if (!store->open(&error)) {
        qCWarning(lcStore).noquote() << "cannot read the store:" << error;
        // Emitted on the reader's own thread, from its event loop: whoever connects right after
        // making the reader hears it (emitted from here it could come before they connect).
        QMetaObject::invokeMethod(
            m_reader, [reader = m_reader, error] { Q_EMIT reader->openFailed(error); }, Qt::QueuedConnection);
        return;
    }
    m_store = std::move(store);
    QMetaObject::invokeMethod(
        m_reader, [reader = m_reader] { Q_EMIT reader->opened(); }, Qt::QueuedConnection);
}

void StoreReaderWorker::run(const QString &what, quint64 id, const Job &job)
{
    if (!m_store)
        return; // never opened: the answer never comes, as for a reader gone
    Q_EMIT m_reader->ran(what, QThread::currentThreadId());
    std::function<void()> answer = job(*m_store);
    StoreReader *reader = m_reader;
    // Back to the reader's own thread; the reader outlives this thread (its destructor waits).
    QMetaObject::invokeMethod(
        reader, [reader, id, answer = std::move(answer)] { reader->deliver(id, answer); }, Qt::QueuedConnection);
}

} // namespace Aile::Store
