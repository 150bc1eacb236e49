#pragma once

#include "TraceRecord.h"

#include <QtCore/QList>
#include <QtCore/QString>

namespace Aile::Store {

class Store;

/// A key's recorded requests since sinceMs for a replay (docs/replay.md), newest first, at most
/// limit: only the columns a replay reads (endpoint, models, sharer, status, tokens, cost, stream,
/// session, output cap) and, of the attempt rows, only what the recorded health needs (sharer,
/// outcome, status, skip, dispatched, start). One forward-only query on the store's connection:
/// a replay of 100,000 requests reads them in a fraction of what Store::traces takes.
QList<TraceRecord> replayRows(const Store &store, const QString &keyId, qint64 sinceMs, int limit);

} // namespace Aile::Store
