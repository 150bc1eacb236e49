#pragma once

#include "billing/Quote.h"
#include "routing/ClientKind.h"
#include "store/TraceRecord.h"
#include "wire/Wire.h"

#include <QtCore/QList>

namespace Aile {
namespace Http {
class HttpExchange;
}
namespace Keys {
struct ApiKey;
}
namespace Routing {
struct Plan;
struct Target;
} // namespace Routing
namespace Store {
struct LedgerEntry;
}

namespace Dispatch {

class Attempt;
struct DispatchServices;

/// The trace of one request as it starts: a fresh id, who asked, on which path, for which model.
Store::TraceRecord baseTrace(const Http::HttpExchange *exchange, const Keys::ApiKey &key, Routing::ClientKind client, const QString &modelAsked,
                             qint64 now);

/// Records a request refused before routing (malformed body and the like) as a trace row.
void recordRefusedRequest(const DispatchServices &services, const Http::HttpExchange *exchange, const Keys::ApiKey &key, Routing::ClientKind client,
                          int status, const QString &message);

/// The row of a target or sharer passed over before any dial (a spent budget, a cost cap, cooling, …).
Store::AttemptRecord refusedRow(const Routing::Plan &plan, const Routing::Target &target, int seq, const QString &reason, const QString &skip,
                                qint64 nowMs);

/// x-aile-price: a candidate's rates ($ per million tokens, input/output), or "unpriced".
QString priceLabel(const std::optional<Billing::Rates> &rates);

/// Prices the served attempt into trace (its tokens, cost and absorbed cost) and books its ledger
/// entry in today's spend (Billing::book), which is returned; nothing when it is not charged.
QList<Store::LedgerEntry> bookServed(const DispatchServices &services, const Routing::Plan &plan, Wire::Endpoint endpoint, const Keys::ApiKey &key,
                                     const Attempt &served, Store::TraceRecord &trace, qint64 nowMs);

} // namespace Dispatch
} // namespace Aile
