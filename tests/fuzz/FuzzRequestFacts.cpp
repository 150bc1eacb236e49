// fuzz_request_facts: what the engine reads from a client's request before it routes it, as
// api/ApiRouter::handleChat reads it: the client kind from the headers, the body as JSON, "model"
// and "models", the body facts routing needs (prompt estimate, output cap, streaming, the
// capabilities used, provider.sort) and the session evidence (docs/hardening.md); and the raw
// reading of the body's top-level members that splices the model into the bytes sent upstream,
// against the parse.
//
// Input: the request as text. The first line is the path ("/v1/messages", a query is dropped),
// then "name: value" header lines up to an empty line, then the body, byte for byte.
#include "http/HttpHeaders.h"
#include "routing/ClientKind.h"
#include "routing/RequestNeeds.h"
#include "routing/Router.h"
#include "routing/SessionEvidence.h"
#include "wire/RawJson.h"
#include "wire/Wire.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>

using namespace Aile;

namespace {

// The next line of in from *at (without its LF, a trailing CR dropped), or nullopt past the end.
std::optional<QByteArray> nextLine(const QByteArray &in, qsizetype *at)
{
    if (*at >= in.size())
        return std::nullopt;
    qsizetype end = in.indexOf('\n', *at);
    if (end < 0)
        end = in.size();
    QByteArray line = in.mid(*at, end - *at);
    *at = end + 1;
    if (line.endsWith('\r'))
        line.chop(1);
    return line;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray in = QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    qsizetype at = 0;
    QByteArray path = nextLine(in, &at).value_or(QByteArray());
    if (const qsizetype q = path.indexOf('?'); q >= 0)
        path.truncate(q);
    Http::HttpHeaders headers;
    while (const std::optional<QByteArray> line = nextLine(in, &at)) {
        if (line->isEmpty())
            break;
        const qsizetype colon = line->indexOf(':');
        if (colon > 0)
            headers.add(line->left(colon), line->mid(colon + 1).trimmed());
    }
    const QByteArray rawBody = in.mid(qMin(at, in.size()));

    Wire::Endpoint endpoint = Wire::endpointForPath(path);
    if (endpoint == Wire::Endpoint::Unknown)
        endpoint = Wire::Endpoint::ChatCompletions;
    (void)Wire::errorShapeForPath(path);
    const Routing::ClientKind client = Routing::detectClient(headers);
    (void)Routing::clientName(client);

    const QJsonDocument doc = QJsonDocument::fromJson(rawBody);
    if (!doc.isObject())
        return 0;
    const QJsonObject body = doc.object();
    // The raw reading of the same bytes (wire/RawJson.h), by which the model is spliced into the
    // body sent upstream, agrees with the parse wherever it answers: each value's bytes are one
    // JSON value, the parsed one. (A false answer is safe: the body is re-serialised instead.)
    QList<Wire::RawMember> members;
    if (Wire::topLevelMembers(rawBody, &members)) {
        for (const Wire::RawMember &m : members) {
            const QJsonDocument one = QJsonDocument::fromJson('[' + rawBody.mid(m.valueStart, m.valueEnd - m.valueStart) + ']');
            if (!one.isArray() || one.array().size() != 1)
                abort();
            if (members.size() == body.size() && !m.key.contains('\\')
                && one.array().first() != body.value(QString::fromUtf8(m.key.data(), m.key.size())))
                abort();
        }
    }
    const QJsonValue modelValue = body.value(QLatin1String("model"));
    if (!modelValue.isUndefined() && !modelValue.isString())
        return 0;
    Routing::RequestFacts facts;
    facts.endpoint = endpoint;
    facts.model = modelValue.toString();
    facts.headers = &headers;
    facts.client = client;
    (void)Routing::outputCapFieldOf(endpoint, body);
    if (!Routing::readBodyFacts(endpoint, body, rawBody, &facts).isEmpty())
        return 0;
    (void)facts.needs.used();
    (void)facts.prefersSpeed();

    const Routing::SessionEvidence evidence = Routing::readSessionEvidence(endpoint, headers, body, client, QStringLiteral("key-1"), facts.model);
    // Pins are digests: 16 bytes or nothing, whatever the client sent.
    for (const QByteArray *pin :
         {&evidence.reasoning, &evidence.toolCall, &evidence.conversation, &evidence.session, &evidence.cacheKey, &evidence.opening}) {
        if (!pin->isEmpty() && pin->size() != 16)
            abort();
    }
    QStringList chain;
    for (const QJsonValue &v : body.value(QLatin1String("models")).toArray()) {
        if (!v.isString() || v.toString().isEmpty())
            return 0;
        chain << v.toString();
    }
    for (const QString &model : chain)
        (void)Routing::isDistinctiveToolCallId(model);
    return 0;
}
