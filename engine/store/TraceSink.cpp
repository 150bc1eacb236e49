#include "TraceSink.h"

#include "store/StoreWriter.h"

#include <QtCore/QTimer>

namespace Aile::Store {

TraceSink::TraceSink(StoreWriter *writer, QObject *parent) : QObject(parent), m_writer(writer) { }

void TraceSink::add(const TraceRecord &trace, const QList<LedgerEntry> &ledger)
{
    add(TraceRecord(trace), QList<LedgerEntry>(ledger));
}

void TraceSink::add(TraceRecord &&trace, QList<LedgerEntry> &&ledger)
{
    m_pendingPublish.append(trace);
    if (m_writer)
        m_writer->enqueue(std::move(trace), std::move(ledger));
    if (!m_publishQueued) {
        m_publishQueued = true;
        QTimer::singleShot(100, this, &TraceSink::publish);
    }
}

void TraceSink::whenWritten(QObject *context, std::function<void()> done)
{
    if (m_writer)
        m_writer->whenWritten(context, std::move(done));
    else
        QMetaObject::invokeMethod(context, std::move(done), Qt::QueuedConnection);
}

void TraceSink::publish()
{
    m_publishQueued = false;
    if (m_pendingPublish.isEmpty())
        return;
    QList<TraceRecord> batch;
    batch.swap(m_pendingPublish);
    // Room for the next interval at once, as many as this one held and a quarter more: a list grown
    // by doubling moves every record in it at each growth (docs/performance.md "Change 13 (record)").
    m_pendingPublish.reserve(batch.size() + batch.size() / 4);
    Q_EMIT tracesRecorded(batch);
}

} // namespace Aile::Store
