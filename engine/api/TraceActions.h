#pragma once

#include "ManagementApi.h"

namespace Aile {
class Clock;
namespace State {
struct SharerBook;
}
namespace Store {
class Store;
class TraceSink;
} // namespace Store
namespace Health {
class HealthBook;
}
namespace Dispatch {
class Verifier;
}
} // namespace Aile

namespace Aile::Api {

/// From a trace to a fix (docs/management-api.md, "Trace actions"): POST /traces/{id}/actions
/// with {"action": A, "sharer": HANDLE[, "model": M]} acts on one sharer of that trace's attempt
/// rows, as its outcome suggests:
/// - clear-cooldown: the sharer is back in selection now;
/// - mark-fixed: a dead key is restored, then probed (the probe's answer is in the reply);
/// - retest: one minimal request of the model (the attempt's own by default); a pass marks it tested.
/// Each action is itself recorded as a trace (client "aile-action", endpoint the action's path,
/// one row whose outcome is the action and whose reason is what happened), so the Traces view and
/// GET /keys/usage/requests show who did what after which request.
class TraceActions : public ManagementComponent
{
public:
    /// What an action reads and moves: the trace (store, once traces has written it), the
    /// sharer, its health and the verifier; the action's own trace goes to traces. Null: none.
    struct Services
    {
        const Clock &clock;
        const State::SharerBook &sharers;
        Store::Store *store;
        Store::TraceSink *traces;
        Health::HealthBook *health;
        Dispatch::Verifier *verifier;
    };

    explicit TraceActions(const Services &services) : m_services(services) { }
    static bool handles(const QByteArray &path);
    /// context: the caller's lifetime (the exchange); the reply is dropped when it is gone.
    bool handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply) override;

private:
    static void act(const Services &services, const QString &traceId, const QJsonObject &body, QObject *context, const ManagementReply &reply);
    static void record(const Services &services, const QString &traceId, const QString &action, const QString &handle, const QString &model, bool ok,
                       const QString &message);

    Services m_services;
};

} // namespace Aile::Api
