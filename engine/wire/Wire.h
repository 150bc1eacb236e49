#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QString>

namespace Aile::Wire {

/// The inbound endpoints the engine proxies. "The three chat wires" are chat completions,
/// responses and messages (count_tokens rides the messages wire).
enum class Endpoint {
    Unknown,
    ChatCompletions, // POST /v1/chat/completions
    Responses,       // POST /v1/responses
    Messages,        // POST /v1/messages
    CountTokens,     // POST /v1/messages/count_tokens
    Embeddings,      // POST /v1/embeddings
    Moderations,     // POST /v1/moderations
    Rerank,          // POST /v1/rerank
};

Endpoint endpointForPath(const QByteArray &path);
/// The inbound path of an endpoint, e.g. "/v1/messages".
QByteArray pathOf(Endpoint endpoint);
/// The wire name a provider declares in the catalogue: chat, responses, messages, embeddings…
QString wireName(Endpoint endpoint);
bool isChat(Endpoint endpoint);
/// The request field that caps output tokens on this endpoint, or empty when it has none.
QString outputCapField(Endpoint endpoint);

enum class ErrorShape { OpenAI, Anthropic };
ErrorShape errorShapeFor(Endpoint endpoint);
ErrorShape errorShapeForPath(const QByteArray &path);

/// The wire's own error type for a status: OpenAI "invalid_request_error", Anthropic
/// "rate_limit_error", and so on.
QString errorTypeFor(ErrorShape shape, int status);

/// An error body in the wire's own shape: OpenAI {"error":{message,type,code}}, Anthropic
/// {"type":"error","error":{type,message}}. Extra members (refusedBy, …) go inside "error".
QByteArray errorBody(ErrorShape shape, int status, const QString &message, const QJsonObject &extra = {}, const QString &type = {});

/// The error as an SSE frame of the wire, for a failure after a stream was committed.
QByteArray errorEvent(Endpoint endpoint, int status, const QString &message);

} // namespace Aile::Wire
