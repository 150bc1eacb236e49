#include "AdminCalls.h"

#include <QtCore/QLoggingCategory>

Q_LOGGING_CATEGORY(lcAdminCalls, "aile.engine.api.admin")

namespace Aile::Api {

void AdminCalls::handle(const ManagementRequest &request, const ManagementReply &reply) const
{
    const bool isStatus = request.path == "/admin/status";
    const QByteArray method = isStatus ? "GET" : "POST";
    if (request.method != method)
        return reply(405, managementError(QStringLiteral("%1 takes %2").arg(QString::fromLatin1(request.path), QString::fromLatin1(method))));
    if (isStatus) {
        if (!status)
            return reply(503, managementError(QStringLiteral("the engine is not running")));
        return reply(200, status());
    }
    if (!shutdown)
        return reply(503, managementError(QStringLiteral("this engine cannot be stopped through its API; stop the program that runs it")));
    qCInfo(lcAdminCalls) << "stopping: asked through POST /admin/shutdown";
    reply(202,
          QJsonObject{{QStringLiteral("stopping"), true}, {QStringLiteral("message"), QStringLiteral("the engine stops now and closes its port")}});
    shutdown(); // queued by the engine, so this answer leaves first
}

} // namespace Aile::Api
