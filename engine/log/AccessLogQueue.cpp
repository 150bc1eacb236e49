#include "AccessLogQueue.h"

#include "AccessLog.h"

#include <span>

namespace Aile::Log {

AccessLogQueue::AccessLogQueue(QObject *parent) : QObject(parent) { }

AccessLogQueue::~AccessLogQueue()
{
    flush();
}

void AccessLogQueue::append(const QList<Store::TraceRecord> &batch)
{
    if (batch.isEmpty() || !lcAccess().isInfoEnabled())
        return;
    m_batches.push_back(batch); // implicitly shared with the sink's other listeners: no copy
    if (m_sliceQueued)
        return;
    m_sliceQueued = true;
    // A posted event, not a call: Qt delivers the events posted while it delivers others at its
    // next pass, so the sockets that became ready in between are served first.
    QMetaObject::invokeMethod(this, &AccessLogQueue::writeSlice, Qt::QueuedConnection);
}

void AccessLogQueue::flush()
{
    while (!m_batches.empty())
        writeFront(m_batches.front().size() - m_at);
}

qsizetype AccessLogQueue::pending() const
{
    qsizetype n = -m_at;
    for (const QList<Store::TraceRecord> &batch : m_batches)
        n += batch.size();
    return n;
}

void AccessLogQueue::writeSlice()
{
    m_sliceQueued = false;
    if (m_batches.empty())
        return;
    writeFront(SliceLines);
    if (m_batches.empty())
        return;
    m_sliceQueued = true;
    QMetaObject::invokeMethod(this, &AccessLogQueue::writeSlice, Qt::QueuedConnection);
}

void AccessLogQueue::writeFront(qsizetype lines)
{
    QList<Store::TraceRecord> &batch = m_batches.front();
    const qsizetype n = qMin(lines, batch.size() - m_at);
    logAccess(std::span<const Store::TraceRecord>(batch.constData() + m_at, size_t(n)));
    if (batch.isDetached()) {
        // The queue holds the batch alone (no window took it): its written records are freed a
        // slice at a time too (removing from a list's front moves no other record).
        batch.remove(0, m_at + n);
        m_at = 0;
    } else {
        m_at += n;
    }
    if (m_at == batch.size() || batch.isEmpty()) {
        m_batches.pop_front();
        m_at = 0;
    }
}

} // namespace Aile::Log
