#pragma once

#include "http/HttpRequest.h"
#include "dispatch/DispatchServices.h"
#include "http/HttpServer.h"
#include "wire/Wire.h"

#include <QtCore/QJsonObject>

namespace Aile {
namespace Keys {
struct ApiKey;
}
namespace State {
struct KeyBook;
}
namespace Routing {
class RequestPlanner;
}

namespace Api {

class ManagementApi;
class TraceStream;
struct AdminCalls;

/// The front door of every inbound request: the DNS-rebinding and browser-origin checks,
/// authentication, then the chat endpoints, /v1/models, or the management API.
class ApiRouter : public Http::IRequestHandler
{
public:
    /// keys: who may call; adminToken: who may manage (empty: management closed); planner: where
    /// a request is planned; dispatch: what a proxied request uses (its settings hold the allowed
    /// hosts and origins, its sharers and health the models /v1/models lists); management: the
    /// management API behind the admin token.
    ApiRouter(const State::KeyBook &keys, const QString &adminToken, const Routing::RequestPlanner &planner,
              const Dispatch::DispatchServices &dispatch, ManagementApi *management);
    void handle(Http::HttpExchange *exchange) override;
    /// The port the listener is on, for the Host check.
    void setListenPort(quint16 port) { m_port = port; }
    /// GET /admin/traces/stream, behind the admin token like the rest of the management API.
    void setTraceStream(TraceStream *stream) { m_traceStream = stream; }
    /// GET /admin/status and POST /admin/shutdown, answered by the engine's owner (AdminCalls.h).
    void setAdminCalls(const AdminCalls *calls) { m_adminCalls = calls; }

private:
    bool hostAllowed(const Http::HttpRequest &request) const;
    void handleChat(Http::HttpExchange *exchange, const Keys::ApiKey &key, Wire::Endpoint endpoint);
    void handleModels(Http::HttpExchange *exchange, const Keys::ApiKey &key);

    const State::KeyBook &m_keys;
    const QString &m_adminToken;
    const Routing::RequestPlanner &m_planner;
    Dispatch::DispatchServices m_dispatch;
    ManagementApi *m_management;
    quint16 m_port = 0;
    TraceStream *m_traceStream = nullptr;
    const AdminCalls *m_adminCalls = nullptr;
};

/// Answers with a JSON body in the wire's error shape.
void respondError(Http::HttpExchange *exchange, Wire::ErrorShape shape, int status, const QString &message, const QJsonObject &extra = {});
void respondJson(Http::HttpExchange *exchange, int status, const QJsonObject &body);
/// The local key a request carries: Authorization: Bearer or x-api-key.
QString presentedKey(const Http::HttpRequest &request);

} // namespace Api
} // namespace Aile
