#include "Plan.h"

namespace Aile::Routing {

Plan Plan::refusal(int status, const QString &message, const QJsonObject &extra)
{
    Plan p;
    p.status = status;
    p.message = message;
    p.extra = extra;
    return p;
}

} // namespace Aile::Routing
