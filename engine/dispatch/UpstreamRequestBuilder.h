#pragma once

#include "http/HttpRequest.h"
#include "http/UpstreamClient.h"
#include "wire/Wire.h"

#include <QtCore/QHash>
#include <QtCore/QJsonObject>

namespace Aile {
namespace Catalog {
class Catalog;
struct Sharer;
} // namespace Catalog

namespace Dispatch {

/// The body that goes upstream: the client's, with the model id as the provider spells it and,
/// on a streamed chat completion, usage asked for (so the request can be billed).
struct UpstreamBody
{
    QByteArray bytes;
    bool injectedUsage = false; // the client did not ask for the usage chunk: do not relay it
};
/// clientBytes: body as the client wrote it, when body is exactly what it parsed to. When nothing
/// but the model needs changing, those bytes go upstream with only the model's value spliced
/// (every other byte as the client wrote it, and no JSON written); otherwise body is re-serialised.
UpstreamBody rewriteBody(Wire::Endpoint endpoint, QJsonObject body, const QString &upstreamModel, const QByteArray &clientBytes = {});

/// Headers that never cross the proxy: hop-by-hop ones, the local credential, our own x-aile-*.
bool isPrivateHeader(const QByteArray &lowerName);

/// The request to one sharer: its URL (base URL + the provider's path for the wire + the rest of
/// the inbound path), the client's headers less private ones, and the sharer's credential.
/// What building it reads: the catalogue (paths, base URLs), the connect bound, the credentials.
struct UpstreamSetup
{
    const Catalog::Catalog &catalog;
    qint64 connectTimeoutMs;
    const QHash<QString, QString> &credentials; // handle → secret
};
Http::UpstreamRequest buildUpstreamRequest(const UpstreamSetup &setup, const Catalog::Sharer &sharer, Wire::Endpoint endpoint,
                                           const Http::HttpRequest &inbound, const QByteArray &body);

} // namespace Dispatch
} // namespace Aile
