#pragma once

#include "store/TraceRecord.h"

#include <QtCore/QObject>

#include <functional>

namespace Aile::Store {

class StoreWriter;

/// Where finished requests go: handed to the store writer's thread at once (the request path
/// never touches the disk) and announced to the GUI in batches about every 100 ms.
class TraceSink : public QObject
{
    Q_OBJECT
public:
    TraceSink(StoreWriter *writer, QObject *parent = nullptr);
    void add(const TraceRecord &trace, const QList<LedgerEntry> &ledger);
    /// The same, handing the records to the writer without a copy (the GUI's batch keeps one).
    void add(TraceRecord &&trace, QList<LedgerEntry> &&ledger);
    /// Runs done on context's thread once every trace added so far is in the database.
    void whenWritten(QObject *context, std::function<void()> done);
    /// Announces what is pending now rather than at the next tick (the engine stopping: the last
    /// requests still reach the access log).
    void publishNow() { publish(); }

Q_SIGNALS:
    void tracesRecorded(const QList<Aile::Store::TraceRecord> &traces);

private:
    void publish();

    StoreWriter *m_writer;
    QList<TraceRecord> m_pendingPublish;
    bool m_publishQueued = false;
};

} // namespace Aile::Store
