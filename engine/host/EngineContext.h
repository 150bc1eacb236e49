#pragma once

#include "core/EngineSettings.h"
#include "billing/SpendBook.h"
#include "health/FailingSharers.h"
#include "health/QuotaBook.h"
#include "state/KeyBook.h"
#include "state/SharerBook.h"

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QRandomGenerator>

#include <functional>

namespace Aile {

class Clock;
namespace Store {
class Store;
class StoreReader;
class TraceSink;
} // namespace Store
namespace Http {
class UpstreamClient;
}
namespace Health {
class HealthBook;
class NodeBook;
} // namespace Health
namespace Dispatch {
class Verifier;
}
namespace Secrets {
class SecretStore;
}
namespace Routing {
class PinBook;
}

/// The engine's live state, owned by the Engine (the composition root) on its thread. No
/// component below host/ sees it whole: each is handed by reference the few parts it uses (the
/// sharer book, the key book, the clock, the health book...; docs/architecture.md lists them).
/// Only the engine thread touches it.
struct EngineContext : State::SharerBook, State::KeyBook
{
    Clock *clock = nullptr;
    Store::Store *store = nullptr;
    Store::StoreReader *history = nullptr; // reads the store on its own thread (Api::History)
    Http::UpstreamClient *upstream = nullptr;
    Store::TraceSink *traces = nullptr;
    Health::HealthBook *health = nullptr;
    Dispatch::Verifier *verifier = nullptr;
    Secrets::SecretStore *secrets = nullptr;
    Health::QuotaBook quota;           // providers' quota windows, from response headers
    Routing::PinBook *pins = nullptr;  // session affinity (routing/Affinity.h), in memory only
    Health::NodeBook *nodes = nullptr; // node-backed sharers: last heard, what they serve (health/NodeBook.h)
    EngineSettings settings;
    QString adminToken;
    QJsonObject routing;                // default_model, fallback_models, selection, models
    QString adminTokenRef;              // where the admin token comes from (exports name it)
    std::function<void()> reloadState;  // re-reads the store after an import
    Health::FailingSharers failing;     // keys that move failing sharers back (in memory)
    Billing::SpendBook spend;           // today's spend per key, route and target (budgets read it)
    QHash<QString, quint64> routeTurns; // round-robin routes: key id + route name → requests routed so far
    mutable QRandomGenerator draw;      // the tie draw of requests without a session; seeded in tests
};

} // namespace Aile
