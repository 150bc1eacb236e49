#pragma once

class QSqlDatabase;

namespace Aile::Store {

struct TraceRecord;

/// The attempt rows of a trace written before they moved into the trace row (store schema 1
/// kept them in their own `attempts` table); nothing when the trace already carries its rows.
void loadOlderAttempts(const QSqlDatabase &d, TraceRecord &r);

} // namespace Aile::Store
