#include "ManagementApi.h"

#include "ApiRouter.h"
#include "core/EngineContext.h"
#include "core/TraceSink.h"
#include "http/HttpExchange.h"
#include "store/Store.h"

#include <QtCore/QJsonArray>
#include <QtCore/QPointer>

namespace Aile::Api {

bool sameSecret(const QString &a, const QString &b)
{
    const QByteArray x = a.toUtf8(), y = b.toUtf8();
    if (x.size() != y.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < x.size(); ++i)
        diff |= static_cast<unsigned char>(x.at(i) ^ y.at(i));
    return diff == 0;
}

bool ManagementApi::handles(const QByteArray &path) const
{
    return path.startsWith("/keys/") || path == "/keys" || path.startsWith("/sharers") || path == "/v1/routing"
           || path.startsWith("/admin/");
}

void ManagementApi::handle(Http::HttpExchange *exchange, const QString &presentedToken)
{
    const Http::HttpRequest &req = exchange->request();
    if (m_ctx.adminToken.isEmpty()) {
        respondError(exchange, Wire::ErrorShape::OpenAI, 401,
                     QStringLiteral("the management API is closed: no admin token is set; set \"adminToken\" in the configuration "
                                    "(for example \"env:AILE_ADMIN_TOKEN\")"));
        return;
    }
    if (!sameSecret(presentedToken, m_ctx.adminToken)) {
        respondError(exchange, Wire::ErrorShape::OpenAI, 401,
                     QStringLiteral("the management API needs the admin token as Authorization: Bearer <token>"));
        return;
    }
    if (req.path == "/keys/usage/requests" && req.method == "GET") {
        handleTraces(exchange);
        return;
    }
    respondError(exchange, Wire::ErrorShape::OpenAI, 404,
                 QStringLiteral("no such management endpoint: %1 %2").arg(QString::fromLatin1(req.method), QString::fromLatin1(req.path)));
}

void ManagementApi::handleTraces(Http::HttpExchange *exchange)
{
    const Http::HttpRequest &req = exchange->request();
    Store::TraceQuery q;
    bool ok = false;
    const int limit = req.queryValue(QStringLiteral("limit")).toInt(&ok);
    q.limit = ok ? qBound(1, limit, 1000) : 100;
    q.offset = qMax(0, req.queryValue(QStringLiteral("offset")).toInt());
    q.sinceMs = req.queryValue(QStringLiteral("since")).toLongLong();
    q.keyId = req.queryValue(QStringLiteral("key"));
    q.model = req.queryValue(QStringLiteral("model"));
    q.sharer = req.queryValue(QStringLiteral("sharer"));
    q.status = req.queryValue(QStringLiteral("status")).toInt();
    q.text = req.queryValue(QStringLiteral("q"));
    // A request that just finished is in the answer: read once the writer has committed it.
    QPointer<Http::HttpExchange> guard(exchange);
    m_ctx.traces->whenWritten(exchange, [this, guard, q] {
        if (!guard)
            return;
        QJsonArray data;
        for (const Store::TraceRecord &t : m_ctx.store->traces(q))
            data.append(t.toJson());
        respondJson(guard, 200,
                    QJsonObject{{QStringLiteral("object"), QStringLiteral("list")},
                                {QStringLiteral("data"), data},
                                {QStringLiteral("total"), m_ctx.store->traceCount(q)}});
    });
}

} // namespace Aile::Api
