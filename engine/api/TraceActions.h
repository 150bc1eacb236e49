#pragma once

#include "ManagementApi.h"

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
class TraceActions
{
public:
    static bool handles(const QByteArray &path);
    /// context: the caller's lifetime (the exchange); the reply is dropped when it is gone.
    static void handle(EngineContext &ctx, const ManagementRequest &request, QObject *context, const ManagementReply &reply);

private:
    static void act(EngineContext &ctx, const QString &traceId, const QJsonObject &body, QObject *context, const ManagementReply &reply);
    static void record(EngineContext &ctx, const QString &traceId, const QString &action, const QString &handle, const QString &model,
                       bool ok, const QString &message);
};

} // namespace Aile::Api
