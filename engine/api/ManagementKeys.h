#pragma once

#include "ManagementApi.h"

namespace Aile {
class Clock;
namespace State {
struct KeyBook;
struct SharerBook;
} // namespace State
namespace Store {
class Store;
}
namespace Billing {
class SpendBook;
}
namespace Keys {
struct ApiKey;
}

namespace Api {

/// The key calls of the management API (docs/keys.md): list, create (the plain key shown once),
/// read, edit the name, routing settings and routes (validated against the catalogue and the
/// sharers, applied without a restart), revoke. A key's answer carries today's spend.
class ManagementKeys : public ManagementComponent
{
public:
    /// keys: edited here; sharers: what routes may name; store: where edits are saved (null: in memory only).
    ManagementKeys(State::KeyBook &keys, const State::SharerBook &sharers, Store::Store *store, const Billing::SpendBook &spend, const Clock &clock)
        : m_keys(keys), m_sharers(sharers), m_store(store), m_spend(spend), m_clock(clock)
    { }
    /// Answers a /keys or /keys/{id} call and returns true; false for any other path.
    bool handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply) override;

private:
    QJsonObject keyJson(const Keys::ApiKey &key) const;
    QString checkName(const QJsonValue &value, const QString &selfId, int *status) const;

    State::KeyBook &m_keys;
    const State::SharerBook &m_sharers;
    Store::Store *m_store;
    const Billing::SpendBook &m_spend;
    const Clock &m_clock;
};

} // namespace Api
} // namespace Aile
