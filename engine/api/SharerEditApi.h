#pragma once

#include "ManagementApi.h"

namespace Aile {
namespace State {
struct SharerBook;
}
namespace Store {
class Store;
}
namespace Health {
class HealthBook;
}
namespace Dispatch {
class Verifier;
}
namespace Secrets {
class SecretStore;
}

namespace Api {

/// One sharer through the management API (docs/management-api.md): POST /sharers adds one,
/// GET/PUT/DELETE /sharers/{handle} read, edit and remove it, and POST /sharers/{handle}/relink,
/// /clear-cooldown, /test and /probe act on it. A secret goes to the secret store only; the store
/// keeps the reference.
class SharerEditApi : public ManagementComponent
{
public:
    /// sharers: edited here (the sharers and their credentials in memory); store: where edits are
    /// saved (null: in memory only); health: cooldowns and dead keys (null: none); verifier: tests
    /// and probes (null: none); secrets: where a given secret goes (null: none can be given);
    /// adminTokenRef: the engine's own reference, which a sharer may not name.
    SharerEditApi(State::SharerBook &sharers, Store::Store *store, Health::HealthBook *health, Dispatch::Verifier *verifier,
                  Secrets::SecretStore *secrets, const QString &adminTokenRef)
        : m_sharers(sharers), m_store(store), m_health(health), m_verifier(verifier), m_secrets(secrets), m_adminTokenRef(adminTokenRef)
    { }
    bool handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply) override;

private:
    void save(const QString &handle, const QJsonObject &body, QObject *context, const ManagementReply &reply);
    void remove(const QString &handle, const ManagementReply &reply);

    State::SharerBook &m_sharers;
    Store::Store *m_store;
    Health::HealthBook *m_health;
    Dispatch::Verifier *m_verifier;
    Secrets::SecretStore *m_secrets;
    const QString &m_adminTokenRef;
};

} // namespace Api
} // namespace Aile
