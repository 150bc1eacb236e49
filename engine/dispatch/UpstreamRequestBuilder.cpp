#include "UpstreamRequestBuilder.h"

#include "UpstreamCredential.h"

#include "catalog/Catalog.h"
#include "catalog/Sharer.h"
#include "wire/RawJson.h"

#include <QtCore/QJsonDocument>

#include <optional>

namespace Aile::Dispatch {

namespace {

// clientBytes with the top-level model's value replaced, or nothing when that is not the whole
// rewrite: no model member of its own, a key written with escapes, a member the rewrite removes,
// or a duplicate member (the parsed body kept one of them; the upstream's parser may keep another).
std::optional<QByteArray> spliceModel(const QByteArray &clientBytes, const QJsonObject &body, const QString &upstreamModel)
{
    QList<Wire::RawMember> members;
    if (!Wire::topLevelMembers(clientBytes, &members) || members.size() != body.size())
        return std::nullopt;
    const Wire::RawMember *model = nullptr;
    for (const Wire::RawMember &m : members) {
        if (m.key.contains('\\') || m.key == "models" || m.key == "provider")
            return std::nullopt;
        if (m.key == "model")
            model = &m;
    }
    if (!model || clientBytes.at(model->valueStart) != '"')
        return std::nullopt;
    QByteArray out;
    const QByteArray value = Wire::jsonString(upstreamModel);
    out.reserve(clientBytes.size() - (model->valueEnd - model->valueStart) + value.size());
    out.append(QByteArrayView(clientBytes).first(model->valueStart));
    out.append(value);
    out.append(QByteArrayView(clientBytes).sliced(model->valueEnd));
    return out;
}

// Parsing a URL (QUrl's strict parser) costs more than the rest of the upstream request's head,
// and the same few URLs come back request after request: the parsed ones are kept per thread,
// at most 64 (a full cache starts over). A URL with a query, which varies, is parsed each time.
QUrl parsedUrl(const QString &url, bool withQuery)
{
    if (withQuery)
        return QUrl(url, QUrl::StrictMode);
    thread_local QHash<QString, QUrl> parsed;
    if (const auto it = parsed.constFind(url); it != parsed.cend())
        return *it;
    if (parsed.size() >= 64)
        parsed.clear();
    return *parsed.insert(url, QUrl(url, QUrl::StrictMode));
}

} // namespace

UpstreamBody rewriteBody(Wire::Endpoint endpoint, QJsonObject body, const QString &upstreamModel, const QByteArray &clientBytes)
{
    UpstreamBody out;
    const bool addsUsage = endpoint == Wire::Endpoint::ChatCompletions && body.value(QLatin1String("stream")).toBool()
                           && !body.value(QLatin1String("stream_options")).toObject().value(QLatin1String("include_usage")).toBool();
    if (!clientBytes.isEmpty() && !addsUsage) {
        if (std::optional<QByteArray> spliced = spliceModel(clientBytes, body, upstreamModel)) {
            out.bytes = std::move(*spliced);
            return out;
        }
    }
    body.insert(QStringLiteral("model"), upstreamModel);
    body.remove(QStringLiteral("models"));
    body.remove(QStringLiteral("provider")); // Aile's own routing preferences (provider.sort)
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
    static const QList<QByteArray> names{
        "host",    "content-length",    "connection", "keep-alive",    "proxy-connection", "proxy-authorization", "te",
        "trailer", "transfer-encoding", "upgrade",    "authorization", "x-api-key",        "accept-encoding",     "cookie",
        "origin",  "referer",           "expect",     "forwarded",     "x-forwarded-for",  "x-forwarded-host",    "x-real-ip"};
    return n.startsWith("x-aile-") || n.startsWith("sec-") || names.contains(n);
}

Http::UpstreamRequest buildUpstreamRequest(const UpstreamSetup &setup, const Catalog::Sharer &sharer, Wire::Endpoint endpoint,
                                           const Http::HttpRequest &inbound, const QByteArray &body)
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
    r.url = parsedUrl(url, !inbound.query.isEmpty());
    r.body = body;
    r.connectTimeoutMs = setup.connectTimeoutMs;
    for (const auto &[name, value] : inbound.headers.entries())
        if (!isPrivateHeader(name))
            r.headers.add(name, value);
    // Literals as static arrays: no allocation per request for these names and values.
    r.headers.set(QByteArrayLiteral("content-type"), QByteArrayLiteral("application/json"));
    r.headers.set(QByteArrayLiteral("accept-encoding"), QByteArrayLiteral("identity"));
    applyCredential(r.headers, sharer, provider, setup.credentials.value(sharer.handle).toUtf8(), inbound.headers);
    return r;
}

} // namespace Aile::Dispatch
