#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QString>

namespace Aile {
struct EngineContext;
namespace Http {
class HttpExchange;
}

namespace Api {

/// The management API on the proxy's own listener (GUI, CLI and scripts): needs the admin
/// token as a Bearer credential. Traces, sharers, keys, routes, dry runs.
class ManagementApi
{
public:
    explicit ManagementApi(EngineContext &context) : m_ctx(context) {}
    bool handles(const QByteArray &path) const;
    void handle(Http::HttpExchange *exchange, const QString &presentedToken);

private:
    void handleTraces(Http::HttpExchange *exchange);

    EngineContext &m_ctx;
};

/// Compares secrets in time independent of where they differ.
bool sameSecret(const QString &a, const QString &b);

} // namespace Api
} // namespace Aile
