#pragma once

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QString>

namespace Aile {
class Clock;
struct EngineSettings;
namespace Catalog {
class Catalog;
struct Sharer;
} // namespace Catalog
namespace Http {
class UpstreamClient;
}
namespace Health {
class HealthBook;
class QuotaBook;
class FailingSharers;
class NodeBook;
} // namespace Health
namespace Billing {
class SpendBook;
}
namespace Routing {
class PinBook;
}
namespace Store {
class Store;
class TraceSink;
} // namespace Store

namespace Dispatch {

/// What a proxied request uses of the engine, and nothing else: by reference, built from the
/// engine's state once, by the engine (host/). It reads the catalogue, the sharers and their
/// credentials; it moves health, quota windows, failing sharers, pins, today's spend and the trace
/// sink; it dials through the upstream client.
struct DispatchServices
{
    Clock &clock;
    const EngineSettings &settings;
    const Catalog::Catalog &catalog;
    const QList<Catalog::Sharer> &sharers;
    const QHash<QString, QString> &credentials; // handle → secret (buildUpstreamRequest)
    Http::UpstreamClient &upstream;
    Health::HealthBook *health; // null in an engine without one
    Health::QuotaBook &quota;
    Health::FailingSharers &failing;
    Routing::PinBook *pins; // session affinity; null without
    Billing::SpendBook &spend;
    Store::TraceSink *traces;          // null: nothing is recorded
    Store::Store *store;               // the engine's store; a shared one holds budgets (team mode)
    Health::NodeBook *nodes = nullptr; // node-backed sharers: an answer through one is a message from it

    /// A sharer by its handle (any case), or null.
    const Catalog::Sharer *sharer(const QString &handle) const;
};

} // namespace Dispatch
} // namespace Aile
