#include "ApiRouter.h"

#include "ManagementApi.h"
#include "TraceStream.h"
#include "AdminCalls.h"
#include "core/EngineSettings.h"
#include "state/KeyBook.h"
#include "dispatch/ProxyRequest.h"
#include "billing/Quote.h"
#include "health/HealthBook.h"
#include "health/NodeBook.h"
#include "http/HeaderRules.h"
#include "http/HttpExchange.h"
#include "keys/KeyRouting.h"
#include "routing/RequestPlanner.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QPointer>

#include <charconv>

namespace Aile::Api {

void respondJson(Http::HttpExchange *exchange, int status, const QJsonObject &body)
{
    Http::HttpHeaders headers;
    headers.add("content-type", "application/json");
    exchange->respond(status, headers, QJsonDocument(body).toJson(QJsonDocument::Compact));
}

void respondError(Http::HttpExchange *exchange, Wire::ErrorShape shape, int status, const QString &message, const QJsonObject &extra)
{
    Http::HttpHeaders headers;
    headers.add("content-type", "application/json");
    exchange->respond(status, headers, Wire::errorBody(shape, status, message, extra));
}

QString presentedKey(const Http::HttpRequest &request)
{
    // x-aile-key first: when the tool's own subscription login occupies Authorization, the local
    // key travels beside it (docs/subscriptions.md).
    if (const QByteArray aile = request.headers.value("x-aile-key").trimmed(); !aile.isEmpty())
        return QString::fromUtf8(aile);
    const QByteArray auth = request.headers.value("authorization");
    if (auth.size() > 7 && auth.left(7).toLower() == "bearer ")
        return QString::fromUtf8(auth.mid(7)).trimmed();
    return QString::fromUtf8(request.headers.value("x-api-key")).trimmed();
}

namespace {

// The hash of the key a client presents, remembered on its connection while it presents the same
// key (docs/performance.md "Change 16 (admit)"): a SHA-256 per request was ~7k instructions. The
// memo holds the key as presented, so it is compared as a secret is.
QString presentedDigest(Http::CredentialMemo &memo, const QString &presented)
{
    if (!memo.digest.isEmpty() && sameSecret(memo.presented, presented))
        return memo.digest;
    memo.presented = presented;
    memo.digest = Keys::hashKey(presented);
    return memo.digest;
}

} // namespace

ApiRouter::ApiRouter(const State::KeyBook &keys, const QString &adminToken, const Routing::RequestPlanner &planner,
                     const Dispatch::DispatchServices &dispatch, ManagementApi *management)
    : m_keys(keys), m_adminToken(adminToken), m_planner(planner), m_dispatch(dispatch), m_management(management)
{ }

bool ApiRouter::hostAllowed(const Http::HttpRequest &request) const
{
    // allowRemote opens the listener, never the Host check: other names are an explicit list
    // (settings.allowedHosts, "name" meaning this port, or "name:port").
    // Asked on every request: compared in place, without building "name:port" for each name.
    const QByteArray host = request.headers.value("host").toLower();
    char portText[8];
    const QByteArrayView port(portText, std::to_chars(portText, portText + sizeof portText, m_port).ptr - portText);
    const auto matches = [&](QByteArrayView name) {
        if (name.contains(':') && !name.endsWith(']'))
            return QByteArrayView(host) == name; // "name:port": that port only
        if (m_port == 80 && QByteArrayView(host) == name)
            return true;
        return host.size() == name.size() + 1 + port.size() && host.startsWith(name) && host[name.size()] == ':'
               && QByteArrayView(host).sliced(name.size() + 1) == port;
    };
    for (const char *name : {"127.0.0.1", "localhost", "[::1]"})
        if (matches(QByteArrayView(name)))
            return true;
    for (const QString &allowed : m_dispatch.settings.allowedHosts)
        if (matches(allowed.toUtf8()))
            return true;
    return false;
}

void ApiRouter::handle(Http::HttpExchange *exchange)
{
    const Http::HttpRequest &req = exchange->request();
    const Wire::ErrorShape shape = Wire::errorShapeForPath(req.path);

    // DNS rebinding: a page on evil.example resolving to 127.0.0.1 still sends its own Host.
    if (!hostAllowed(req)) {
        respondError(exchange, shape, 403,
                     QStringLiteral("the Host header must name this proxy (127.0.0.1:%1 or localhost:%1, or a name in "
                                    "settings.allowedHosts); requests addressed to other names are refused to stop DNS-rebinding attacks")
                         .arg(m_port));
        return;
    }
    const QByteArray origin = req.headers.value("origin");
    if (!origin.isEmpty() && !m_dispatch.settings.allowedOrigins.contains(QString::fromUtf8(origin))) {
        respondError(exchange, shape, 403,
                     QStringLiteral("browser origin %1 is not allowed to call this proxy; add it to settings.allowedOrigins to allow it")
                         .arg(QString::fromUtf8(origin)));
        return;
    }
    if (req.method == "OPTIONS" && !origin.isEmpty()) {
        Http::HttpHeaders h;
        h.add("access-control-allow-origin", origin);
        h.add("vary", "Origin");
        h.add("access-control-allow-methods", "GET, POST, PUT, DELETE, OPTIONS");
        h.add("access-control-allow-headers", req.headers.value("access-control-request-headers"));
        h.add("access-control-max-age", "600");
        exchange->respond(204, h, {});
        return;
    }

    const Wire::Endpoint endpoint = Wire::endpointForPath(req.path);
    // Claude Code probes the base URL with HEAD at start; answer it without a key.
    if ((req.method == "HEAD" || req.method == "GET") && (req.path == "/" || req.path.isEmpty())) {
        respondJson(exchange, 200, QJsonObject{{QStringLiteral("service"), QStringLiteral("aile")}});
        return;
    }
    if (req.path == "/health" && req.method == "GET") {
        respondJson(exchange, 200, QJsonObject{{QStringLiteral("status"), QStringLiteral("ok")}});
        return;
    }

    const QString presented = presentedKey(req);
    if (m_management && m_management->handles(req.path)) {
        if (m_adminToken.isEmpty()) {
            respondError(exchange, Wire::ErrorShape::OpenAI, 401,
                         QStringLiteral("the management API is closed: no admin token is set; `aile serve` makes one in its data "
                                        "folder (admin-token) when it can write there, or set \"adminToken\" in the configuration "
                                        "(for example \"env:AILE_ADMIN_TOKEN\")"));
            return;
        }
        if (!sameSecret(presented, m_adminToken)) {
            respondError(exchange, Wire::ErrorShape::OpenAI, 401,
                         QStringLiteral("the management API needs the admin token as Authorization: Bearer <token>"));
            return;
        }
        if (m_traceStream && TraceStream::handles(req.path))
            return m_traceStream->attach(exchange);
        const Http::ExchangeRef guard = exchange->ref();
        if (m_adminCalls && AdminCalls::handles(req.path))
            return m_adminCalls->handle({req.method, req.path, req.query, req.body}, [guard](int status, const QJsonObject &body) {
                if (guard)
                    respondJson(guard, status, body);
            });
        // A management call may answer later (once the store writer caught up, a dry run done):
        // what it waits on is tied to this context, which goes with the exchange. Off the
        // proxy's path, so a QObject here costs nothing that matters.
        auto *context = new QObject;
        exchange->listen({.ended = [context] { delete context; }});
        m_management->handle({req.method, req.path, req.query, req.body}, context, [guard](int status, const QJsonObject &body) {
            if (guard)
                respondJson(guard, status, body);
        });
        return;
    }
    const bool known = endpoint != Wire::Endpoint::Unknown || req.path == "/v1/models";
    if (!known) {
        respondError(exchange, shape, 404,
                     QStringLiteral("no such endpoint: %1 %2; the proxy serves /v1/chat/completions, /v1/responses, "
                                    "/v1/messages, /v1/embeddings and /v1/models")
                         .arg(QString::fromLatin1(req.method), QString::fromLatin1(req.path)));
        return;
    }
    const Keys::ApiKey *key = presented.isEmpty() ? nullptr : m_keys.keyByHash(presentedDigest(exchange->credentialMemo(), presented));
    if (!key) {
        respondError(
            exchange, shape, 401,
            presented.isEmpty()
                ? QStringLiteral(
                    "no API key; send your Aile key as Authorization: Bearer sk-aile-…, x-api-key, or x-aile-key (beside a subscription login)")
                : QStringLiteral(
                    "this API key is not known to this proxy (or was revoked); create one in Aile's Keys view or with aile keys create"));
        return;
    }
    if (req.path == "/v1/models") {
        if (req.method != "GET") {
            respondError(exchange, shape, 405, QStringLiteral("/v1/models takes GET"));
            return;
        }
        handleModels(exchange, *key);
        return;
    }
    if (req.method != "POST") {
        Http::HttpHeaders h;
        h.add("content-type", "application/json");
        h.add("allow", "POST");
        exchange->respond(405, h, Wire::errorBody(shape, 405, QStringLiteral("%1 takes POST with a JSON body").arg(QString::fromLatin1(req.path))));
        return;
    }
    handleChat(exchange, *key, endpoint);
}

void ApiRouter::handleChat(Http::HttpExchange *exchange, const Keys::ApiKey &key, Wire::Endpoint endpoint)
{
    const Http::HttpRequest &req = exchange->request();
    const Wire::ErrorShape shape = Wire::errorShapeFor(endpoint);
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(req.body, &parseError);
    const Routing::ClientKind client = Routing::detectClient(req.headers);
    auto refuse = [&](const QString &message) {
        Dispatch::recordRefusedRequest(m_dispatch, exchange, key, client, 400, message);
        respondError(exchange, shape, 400, message);
    };
    if (!doc.isObject()) {
        refuse(req.body.isEmpty() ? QStringLiteral("the request has no body; send a JSON object")
                                  : QStringLiteral("the body is not a JSON object (%1 at byte %2); send valid JSON")
                                        .arg(parseError.errorString())
                                        .arg(parseError.offset));
        return;
    }
    // The planner reads the body, the session, the key and the chain, and prepares what is sent;
    // a refused plan still goes through ProxyRequest: every request is a trace row.
    const QJsonObject body = doc.object();
    if (const QString bad = Http::requestNameRefusal(req.headers, body); !bad.isEmpty()) {
        refuse(bad); // before a name can reach a header, a trace column or a log line
        return;
    }
    Routing::RequestPlan planned = m_planner.plan({Routing::PlanAsk::Purpose::Request, endpoint, &body, req.body, &req.headers, &key});
    if (!planned.bodyError.isEmpty()) {
        refuse(planned.bodyError);
        return;
    }
    auto *request = new Dispatch::ProxyRequest(m_dispatch, exchange, key, endpoint, planned.sent, std::move(planned.plan), planned.facts.client);
    request->setAffinity(std::move(planned.affinity));
    if (!planned.sentChanged)
        request->setClientBytes(req.body);
    const QJsonValue cap = body.value(Routing::outputCapFieldOf(endpoint, body));
    request->noteReplayFacts(planned.facts.drawSeed ? QStringLiteral("%1").arg(*planned.facts.drawSeed, 16, 16, QLatin1Char('0'))
                                                    : QStringLiteral("none"),
                             cap.isDouble() ? qint64(cap.toDouble()) : -1);
    request->start();
}

void ApiRouter::handleModels(Http::HttpExchange *exchange, const Keys::ApiKey &key)
{
    // A model is listed once a sharer offering it has passed a test of it.
    const QString pinned = key.routingSettings().provider;
    QJsonArray data;
    QSet<QString> seen;
    // The key's named routes first: a client picks one by its name, as a model.
    for (const QJsonValue &v : key.routes) {
        const QString name = v.toObject().value(QLatin1String("name")).toString();
        seen.insert(name);
        data.append(QJsonObject{{QStringLiteral("id"), name},
                                {QStringLiteral("object"), QStringLiteral("model")},
                                {QStringLiteral("owned_by"), QStringLiteral("aile-route")},
                                {QStringLiteral("created"), 0}});
    }
    // Each model also carries what this engine quotes for it (the cheapest of its sharers, $ per
    // million tokens) and the wires it serves it on: what a desktop engine that has this one as a
    // node-backed sharer routes and prices by (docs/team.md).
    QHash<QString, qsizetype> at;
    for (const Catalog::Sharer &s : m_dispatch.sharers) {
        // A dead key's models leave the catalogue until it is restored.
        if (s.blocked || s.provider == Health::nodeProvider() || (!pinned.isEmpty() && s.provider != pinned)
            || (m_dispatch.health && m_dispatch.health->of(s.handle).deadKey))
            continue;
        const Catalog::ProviderInfo *provider = m_dispatch.catalog.provider(s.provider);
        for (const QString &m : s.tested) {
            const QString id = s.provider + QLatin1Char('/') + m;
            const std::optional<Billing::Rates> rates = Billing::ratesFor(s, m_dispatch.catalog.model(s.provider, m), m, 0);
            const QJsonObject price =
                rates ? QJsonObject{{QStringLiteral("input"), rates->input}, {QStringLiteral("output"), rates->output}} : QJsonObject{};
            if (seen.contains(id)) {
                const qsizetype i = at.value(id, -1);
                QJsonObject entry = i >= 0 ? data.at(i).toObject() : QJsonObject{};
                const QJsonObject had = entry.value(QLatin1String("aile_price")).toObject();
                if (i >= 0 && rates
                    && (had.isEmpty()
                        || qMax(rates->input, rates->output)
                               < qMax(had.value(QLatin1String("input")).toDouble(), had.value(QLatin1String("output")).toDouble()))) {
                    entry.insert(QStringLiteral("aile_price"), price);
                    data.replace(i, entry);
                }
                continue;
            }
            seen.insert(id);
            at.insert(id, data.size());
            QJsonObject entry{{QStringLiteral("id"), id},
                              {QStringLiteral("object"), QStringLiteral("model")},
                              {QStringLiteral("owned_by"), s.provider},
                              {QStringLiteral("created"), 0}};
            if (!price.isEmpty())
                entry.insert(QStringLiteral("aile_price"), price);
            if (provider) {
                QStringList wires(provider->wires.begin(), provider->wires.end());
                wires.sort();
                entry.insert(QStringLiteral("aile_wires"), QJsonArray::fromStringList(wires));
            }
            data.append(entry);
        }
    }
    // What this engine's node-backed sharers serve, while they are heard from (docs/team.md),
    // marked so that an engine using this one as its node does not chain through it.
    const qint64 now = m_dispatch.clock.nowMs();
    for (const Catalog::Sharer &s : m_dispatch.sharers) {
        if (!m_dispatch.nodes || s.blocked || s.provider != Health::nodeProvider() || !m_dispatch.nodes->silence(s.handle, now).isEmpty())
            continue;
        for (const Health::NodeModel &m : m_dispatch.nodes->models(s.handle)) {
            const QString id = m.provider + QLatin1Char('/') + m.model;
            if ((!pinned.isEmpty() && m.provider != pinned) || seen.contains(id))
                continue;
            seen.insert(id);
            data.append(QJsonObject{{QStringLiteral("id"), id},
                                    {QStringLiteral("object"), QStringLiteral("model")},
                                    {QStringLiteral("owned_by"), Health::NodeBook::relayedOwner()},
                                    {QStringLiteral("created"), 0}});
        }
    }
    respondJson(exchange, 200, QJsonObject{{QStringLiteral("object"), QStringLiteral("list")}, {QStringLiteral("data"), data}});
}

} // namespace Aile::Api
