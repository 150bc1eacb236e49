#include "UpstreamRequestBuilder.h"

#include "UpstreamCredential.h"

#include "catalog/Catalog.h"
#include "catalog/Sharer.h"

#include <QtCore/QJsonDocument>

namespace Aile::Dispatch {

UpstreamBody rewriteBody(Wire::Endpoint endpoint, QJsonObject body, const QString &upstreamModel)
{
    UpstreamBody out;
    body.insert(QStringLiteral("model"), upstreamModel);
    body.remove(QStringLiteral("models"));
    body.remove(QStringLiteral("provider"));   // Aile's own routing preferences (provider.sort)
    if (endpoint == Wire::Endpoint::ChatCompletions && body.value(QLatin1String("stream")).toBool()) {
        QJsonObject options = body.value(QLatin1String("stream_options")).toObject();
        if (!options.value(QLatin1String("include_usage")).toBool()) {
            options.insert(QStringLiteral("include_usage"), true);
            body.insert(QStringLiteral("stream_options"), options);
            out.injectedUsage = true;
        }
    }
    out.bytes = QJsonDocument(body).toJson(QJsonDocument::Compact);
    return out;
}

bool isPrivateHeader(const QByteArray &n)
{
    static const QList<QByteArray> names{"host", "content-length", "connection", "keep-alive", "proxy-connection",
                                         "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade",
                                         "authorization", "x-api-key", "accept-encoding", "cookie", "origin", "referer",
                                         "expect", "forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip"};
    return n.startsWith("x-aile-") || n.startsWith("sec-") || names.contains(n);
}

Http::UpstreamRequest buildUpstreamRequest(const UpstreamSetup &setup, const Catalog::Sharer &sharer,
                                           Wire::Endpoint endpoint, const Http::HttpRequest &inbound,
                                           const QByteArray &body)
{
    const Catalog::ProviderInfo *provider = setup.catalog.provider(sharer.provider);
    QString base = !sharer.baseUrl.isEmpty() ? sharer.baseUrl : provider ? provider->baseUrl : QString();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    const QString apiPath = provider ? provider->pathFor(Wire::wireName(endpoint)) : QStringLiteral("/v1");
    QByteArray rest = Wire::pathOf(endpoint);
    rest.remove(0, 3); // "/v1"
    QString url = base + apiPath + QString::fromLatin1(rest);
    if (!inbound.query.isEmpty())
        url += QLatin1Char('?') + QString::fromLatin1(inbound.query);

    Http::UpstreamRequest r;
    r.method = "POST";
    r.url = QUrl(url, QUrl::StrictMode);
    r.body = body;
    r.connectTimeoutMs = setup.connectTimeoutMs;
    for (const auto &[name, value] : inbound.headers.entries())
        if (!isPrivateHeader(name))
            r.headers.add(name, value);
    r.headers.set("content-type", "application/json");
    r.headers.set("accept-encoding", "identity");
    applyCredential(r.headers, sharer, provider, setup.credentials.value(sharer.handle).toUtf8(), inbound.headers);
    return r;
}

} // namespace Aile::Dispatch
