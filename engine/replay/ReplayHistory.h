#pragma once

#include "store/TraceRecord.h"

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QString>

namespace Aile::Store {
class Store;
}

namespace Aile::Replay {

/// The most recorded requests one replay reads; past it the oldest are left out and the report says so.
constexpr int MaxReplayedRequests = 200000;

/// A key's recorded requests since sinceMs, oldest first, at most limit of the newest (truncated
/// set when more exist). Only what a replay reads (Store::replayRows), from rows of every schema.
QList<Store::TraceRecord> loadHistory(const Store::Store &store, const QString &keyId, qint64 sinceMs, int limit = MaxReplayedRequests,
                                      bool *truncated = nullptr);

/// The sharers' health as the recorded attempts tell it: a sharer that was cooling, out of quota
/// or failing when a request tried it is taken as down from that request's start until its next
/// served answer, for at most holdMs. Where the record says nothing, a sharer is taken as up.
class HealthTimeline
{
public:
    HealthTimeline(const QList<Store::TraceRecord> &history, qint64 holdMs);
    /// Why handle could not serve at atMs by the record, or empty.
    QString downAt(const QString &handle, qint64 atMs) const;
    int spans() const;

    /// What an attempt row says of its sharer: empty when it served or the cause was not the
    /// sharer's (a capability, a filter, the client gone).
    static QString failureOf(const Store::AttemptRecord &attempt);

private:
    struct Span
    {
        qint64 fromMs = 0;
        qint64 untilMs = 0;
        QString why;
    };
    QHash<QString, QList<Span>> m_spans; // per sharer, by start
};

} // namespace Aile::Replay
