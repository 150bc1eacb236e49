#pragma once

#include "http/HttpRequest.h"
#include "http/HttpServer.h"
#include "wire/Wire.h"

#include <QtCore/QJsonObject>

namespace Aile {
struct EngineContext;
namespace Keys {
struct ApiKey;
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
    ApiRouter(EngineContext &context, ManagementApi *management);
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

    EngineContext &m_ctx;
    ManagementApi *m_management;
    quint16 m_port = 0;
    TraceStream *m_traceStream = nullptr;
    const AdminCalls *m_adminCalls = nullptr;
};

/// Answers with a JSON body in the wire's error shape.
void respondError(Http::HttpExchange *exchange, Wire::ErrorShape shape, int status, const QString &message,
                  const QJsonObject &extra = {});
void respondJson(Http::HttpExchange *exchange, int status, const QJsonObject &body);
/// The local key a request carries: Authorization: Bearer or x-api-key.
QString presentedKey(const Http::HttpRequest &request);

} // namespace Api
} // namespace Aile
