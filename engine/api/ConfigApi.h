#pragma once

#include "ManagementApi.h"

#include <functional>

namespace Aile {
class Clock;
struct EngineSettings;
namespace State {
struct SharerBook;
struct KeyBook;
} // namespace State
namespace Store {
class Store;
}

namespace Api {

/// The configuration through the management API (docs/configuration.md): GET /admin/config
/// exports it in the file's format (never a secret), POST or PUT /admin/config imports one,
/// checked whole before anything is written, and GET/PUT /v1/routing read and edit the account's
/// routing section (default_model, fallback_models).
class ConfigApi : public ManagementComponent
{
public:
    /// sharers and keys: what an export writes and an import is checked against; routing: the
    /// routing section (edited here); settings: what an export writes; store: where imports and
    /// edits go; adminTokenRef: where the admin token comes from (exports name it, imports may not
    /// name it for a sharer); reloadState: re-reads the store into the engine after an import.
    ConfigApi(const State::SharerBook &sharers, const State::KeyBook &keys, QJsonObject &routing, const EngineSettings &settings, Store::Store *store,
              const Clock &clock, const QString &adminTokenRef, const std::function<void()> &reloadState)
        : m_sharers(sharers), m_keys(keys), m_routing(routing), m_settings(settings), m_store(store), m_clock(clock), m_adminTokenRef(adminTokenRef),
          m_reloadState(reloadState)
    { }
    bool handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply) override;

private:
    void importConfig(const ManagementRequest &request, const ManagementReply &reply);
    void accountRouting(const ManagementRequest &request, const ManagementReply &reply);

    const State::SharerBook &m_sharers;
    const State::KeyBook &m_keys;
    QJsonObject &m_routing;
    const EngineSettings &m_settings;
    Store::Store *m_store;
    const Clock &m_clock;
    const QString &m_adminTokenRef;
    const std::function<void()> &m_reloadState;
};

} // namespace Api
} // namespace Aile
