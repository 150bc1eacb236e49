#include "TraceSink.h"

#include "store/Store.h"

#include <QtCore/QLoggingCategory>
#include <QtCore/QTimer>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace Aile {

TraceSink::TraceSink(Store::Store *store, QObject *parent) : QObject(parent), m_store(store) {}

void TraceSink::add(const Store::TraceRecord &trace, const QList<Store::LedgerEntry> &ledger)
{
    m_pendingWrite.append(trace);
    m_pendingLedger += ledger;
    m_pendingPublish.append(trace);
    if (!m_flushQueued) {
        m_flushQueued = true;
        QMetaObject::invokeMethod(this, &TraceSink::flush, Qt::QueuedConnection);
    }
    if (!m_publishQueued) {
        m_publishQueued = true;
        QTimer::singleShot(100, this, &TraceSink::publish);
    }
}

void TraceSink::flush()
{
    m_flushQueued = false;
    if (m_pendingWrite.isEmpty() && m_pendingLedger.isEmpty())
        return;
    if (m_store && m_store->record(m_pendingWrite, m_pendingLedger))
        m_written += m_pendingWrite.size();
    else
        qWarning("could not write %d traces to the store", int(m_pendingWrite.size()));
    m_pendingWrite.clear();
    m_pendingLedger.clear();
}

void TraceSink::publish()
{
    m_publishQueued = false;
    if (m_pendingPublish.isEmpty())
        return;
    const QList<Store::TraceRecord> batch = std::move(m_pendingPublish);
    m_pendingPublish.clear();
    Q_EMIT tracesRecorded(batch);
}

} // namespace Aile
