#pragma once

#include "core/EngineSettings.h"
#include "billing/SpendBook.h"
#include "catalog/Catalog.h"
#include "catalog/Sharer.h"
#include "health/QuotaBook.h"
#include "keys/ApiKey.h"
#include "health/FailingSharers.h"

#include <QtCore/QHash>
#include <QtCore/QRandomGenerator>

#include <functional>

namespace Aile {

class Clock;
namespace Store {
class Store;
class TraceSink;
}
namespace Http {
class UpstreamClient;
}
namespace Health {
class HealthBook;
class NodeBook;
}
namespace Dispatch {
class Verifier;
}
namespace Secrets {
class SecretStore;
}
namespace Routing {
class PinBook;
}

/// What the request path reads: the engine's live state, owned by the Engine on its thread and
/// handed by reference to the handlers (no globals). Only the engine thread touches it.
struct EngineContext
{
    Clock *clock = nullptr;
    Store::Store *store = nullptr;
    Http::UpstreamClient *upstream = nullptr;
    Store::TraceSink *traces = nullptr;
    Health::HealthBook *health = nullptr;
    Dispatch::Verifier *verifier = nullptr;
    Secrets::SecretStore *secrets = nullptr;
    Health::QuotaBook quota;               // providers' quota windows, from response headers
    Routing::PinBook *pins = nullptr;      // session affinity (routing/Affinity.h), in memory only
    Health::NodeBook *nodes = nullptr;     // node-backed sharers: last heard, what they serve (health/NodeBook.h)
    EngineSettings settings;
    Catalog::Catalog catalog;
    QList<Catalog::Sharer> sharers;
    QHash<QString, QString> credentials;   // handle → secret, in memory only
    QHash<QString, QString> credentialErrors;   // handle → why it has none
    QHash<QString, QString> credentialHomes;    // reference → the base URL its secret was entered for (Secrets::apiReferenceRefusal)
    QList<Keys::ApiKey> keys;
    QString adminToken;
    QJsonObject routing;                   // default_model, fallback_models, selection, models
    QString adminTokenRef;                 // where the admin token comes from (exports name it)
    std::function<void()> reloadState;     // re-reads the store after an import
    Health::FailingSharers failing;       // keys that move failing sharers back (in memory)
    Billing::SpendBook spend;              // today's spend per key, route and target (budgets read it)
    QHash<QString, quint64> routeTurns;    // round-robin routes: key id + route name → requests routed so far
    mutable QRandomGenerator draw;         // the tie draw of requests without a session; seeded in tests

    const Keys::ApiKey *keyByPlain(const QString &plain) const;
    /// A key by its id, else by its name (the management API and the CLI take either).
    const Keys::ApiKey *key(const QString &idOrName) const;
    Keys::ApiKey *key(const QString &idOrName);
    const Catalog::Sharer *sharer(const QString &handle) const;
    Catalog::Sharer *sharer(const QString &handle);
    /// The base URL a sharer is dialled at: its own, or its provider's.
    QString baseUrlOf(const Catalog::Sharer &sharer) const;
    /// After a sharer changed: its secret is in memory only while it may be sent (not needsKey()),
    /// and its reference's home is noted for the management API's check.
    /// newCredential: the sharer was just given its credential, which now belongs to its base URL.
    void noteCredentialBinding(const Catalog::Sharer &sharer, bool newCredential = false);
};

} // namespace Aile
