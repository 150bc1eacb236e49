#pragma once

#include "store/TraceRecord.h"

#include <QtCore/QObject>

namespace Aile {
class Clock;
namespace Store {
class Store;
}

/// Where finished requests go: written to the store right away (coalesced per event-loop turn,
/// one transaction) and announced to the GUI in batches about every 100 ms.
class TraceSink : public QObject
{
    Q_OBJECT
public:
    TraceSink(Store::Store *store, QObject *parent = nullptr);
    void add(const Store::TraceRecord &trace, const QList<Store::LedgerEntry> &ledger);
    /// Writes whatever is queued now (at shutdown, and in tests).
    void flush();
    qint64 written() const { return m_written; }

Q_SIGNALS:
    void tracesRecorded(const QList<Aile::Store::TraceRecord> &traces);

private:
    void publish();

    Store::Store *m_store;
    QList<Store::TraceRecord> m_pendingWrite;
    QList<Store::LedgerEntry> m_pendingLedger;
    QList<Store::TraceRecord> m_pendingPublish;
    bool m_flushQueued = false;
    bool m_publishQueued = false;
    qint64 m_written = 0;
};

} // namespace Aile
