#pragma once

#include "ClientKind.h"
#include "RequestNeeds.h"
#include "billing/Quote.h"
#include "keys/KeyRouting.h"
#include "keys/Routes.h"
#include "wire/Wire.h"

#include <QtCore/QHash>
#include <QtCore/QJsonObject>

#include <optional>

namespace Aile {
namespace Http {
class HttpHeaders;
}
namespace Keys {
struct ApiKey;
}

namespace Routing {

/// What routing needs to know of a request.
struct RequestFacts
{
    Wire::Endpoint endpoint = Wire::Endpoint::Unknown;
    QString model; // as the client wrote it
    const Http::HttpHeaders *headers = nullptr;
    const Keys::ApiKey *key = nullptr;
    ClientKind client = ClientKind::Unknown;
    qint64 promptTokens = 0;
    qint64 maxOutputTokens = Billing::DefaultMaxTokens;
    bool stream = false;
    const QJsonObject *body = nullptr;              // the client's body, where one exists (the cost cap's checks)
    std::optional<quint64> drawSeed;                // a session's stable seed; unset: a random draw
    RequestNeeds needs;                             // capabilities the body uses (the capability filter)
    QString sort;                                   // provider.sort: price, latency or throughput; empty: default order
    const Keys::Route *route = nullptr;             // the key's named route being planned (its name was the model)
    const Keys::RouteTarget *routeTarget = nullptr; // the route's target being planned
    quint64 routeTurn = 0;                          // a round-robin route's turn (requests routed through it so far)
    // No header of the request is one of Aile's own (x-aile-…), so a plan's many lookups of them
    // answer empty without a scan (set by the planner; false: every lookup scans).
    bool noAileHeaders = false;

    /// Speed first: the route's prefer when it says speed or price, else the key's.
    bool prefersSpeed() const;

    /// The key's routing settings, parsed once per key (ApiKey::routingSettings; the defaults without a key).
    const Keys::KeyRouting &keyRouting() const;
    /// A request header, trimmed; empty when absent (or without headers).
    QString headerText(const char *name) const;
    /// A request header's first value as sent (untrimmed); empty when absent (or without headers).
    QByteArray header(const char *name) const;
};

/// A request header's first value by its literal lower-case name; empty without headers. The name
/// is not copied into a QByteArray (HttpHeaders' lookup by a runtime name builds one per call, and
/// a plan reads some thirty headers, most of them absent).
QByteArray headerValue(const Http::HttpHeaders *headers, const char *name);
/// Whether any header is one of Aile's own (a name starting x-aile-).
bool anyAileHeader(const Http::HttpHeaders &headers);

/// Round-robin routes' turns: routeTurnKey(key id, route name) → requests routed through it so far.
using RouteTurns = QHash<QString, quint64>;
/// Where a round-robin route's turn is kept in RouteTurns.
inline QString routeTurnKey(const QString &keyId, const QString &route)
{
    return keyId + QLatin1Char('/') + route;
}

/// What routing reads of a request's body, shared by the proxy and the dry run: the estimated
/// prompt, the output cap, streaming, the capabilities used and provider.sort. rawBody is the
/// body as sent (the prompt estimate reads it). Returns an error for a body routing cannot read.
QString readBodyFacts(Wire::Endpoint endpoint, const QJsonObject &body, const QByteArray &rawBody, RequestFacts *facts);
/// The field that caps the answer's tokens in this body (chat also takes max_completion_tokens).
QString outputCapFieldOf(Wire::Endpoint endpoint, const QJsonObject &body);

} // namespace Routing
} // namespace Aile
