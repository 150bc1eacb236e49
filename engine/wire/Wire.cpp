#include "Wire.h"

#include <QtCore/QJsonDocument>

namespace Aile::Wire {

Endpoint endpointForPath(const QByteArray &path)
{
    QByteArray p = path;
    while (p.size() > 1 && p.endsWith('/'))
        p.chop(1);
    if (p == "/v1/chat/completions")
        return Endpoint::ChatCompletions;
    if (p == "/v1/responses")
        return Endpoint::Responses;
    if (p == "/v1/messages")
        return Endpoint::Messages;
    if (p == "/v1/messages/count_tokens")
        return Endpoint::CountTokens;
    if (p == "/v1/embeddings")
        return Endpoint::Embeddings;
    if (p == "/v1/moderations")
        return Endpoint::Moderations;
    if (p == "/v1/rerank")
        return Endpoint::Rerank;
    return Endpoint::Unknown;
}

QByteArray pathOf(Endpoint endpoint)
{
    switch (endpoint) {
    case Endpoint::ChatCompletions: return "/v1/chat/completions";
    case Endpoint::Responses: return "/v1/responses";
    case Endpoint::Messages: return "/v1/messages";
    case Endpoint::CountTokens: return "/v1/messages/count_tokens";
    case Endpoint::Embeddings: return "/v1/embeddings";
    case Endpoint::Moderations: return "/v1/moderations";
    case Endpoint::Rerank: return "/v1/rerank";
    case Endpoint::Unknown: break;
    }
    return {};
}

QString wireName(Endpoint endpoint)
{
    switch (endpoint) {
    case Endpoint::ChatCompletions: return QStringLiteral("chat");
    case Endpoint::Responses: return QStringLiteral("responses");
    case Endpoint::Messages:
    case Endpoint::CountTokens: return QStringLiteral("messages");
    case Endpoint::Embeddings: return QStringLiteral("embeddings");
    case Endpoint::Moderations: return QStringLiteral("moderations");
    case Endpoint::Rerank: return QStringLiteral("rerank");
    case Endpoint::Unknown: break;
    }
    return {};
}

bool isChat(Endpoint endpoint)
{
    return endpoint == Endpoint::ChatCompletions || endpoint == Endpoint::Responses || endpoint == Endpoint::Messages
           || endpoint == Endpoint::CountTokens;
}

QString outputCapField(Endpoint endpoint)
{
    switch (endpoint) {
    case Endpoint::ChatCompletions: return QStringLiteral("max_tokens");
    case Endpoint::Responses: return QStringLiteral("max_output_tokens");
    case Endpoint::Messages: return QStringLiteral("max_tokens");
    default: return {};
    }
}

ErrorShape errorShapeFor(Endpoint endpoint)
{
    return endpoint == Endpoint::Messages || endpoint == Endpoint::CountTokens ? ErrorShape::Anthropic : ErrorShape::OpenAI;
}

ErrorShape errorShapeForPath(const QByteArray &path)
{
    return path.startsWith("/v1/messages") ? ErrorShape::Anthropic : ErrorShape::OpenAI;
}

QString errorTypeFor(ErrorShape shape, int status)
{
    if (shape == ErrorShape::Anthropic) {
        switch (status) {
        case 400: return QStringLiteral("invalid_request_error");
        case 401: return QStringLiteral("authentication_error");
        case 402: return QStringLiteral("billing_error");
        case 403: return QStringLiteral("permission_error");
        case 404: return QStringLiteral("not_found_error");
        case 413: return QStringLiteral("request_too_large");
        case 429: return QStringLiteral("rate_limit_error");
        case 529: return QStringLiteral("overloaded_error");
        case 524: return QStringLiteral("timeout_error");
        default: return status >= 500 ? QStringLiteral("api_error") : QStringLiteral("invalid_request_error");
        }
    }
    switch (status) {
    case 401: return QStringLiteral("authentication_error");
    case 402: return QStringLiteral("insufficient_quota");
    case 403: return QStringLiteral("permission_error");
    case 404: return QStringLiteral("not_found_error");
    case 429: return QStringLiteral("rate_limit_error");
    case 524: return QStringLiteral("timeout_error");
    default: return status >= 500 ? QStringLiteral("server_error") : QStringLiteral("invalid_request_error");
    }
}

QByteArray errorBody(ErrorShape shape, int status, const QString &message, const QJsonObject &extra, const QString &type)
{
    QJsonObject error = extra;
    error.insert(QStringLiteral("message"), message);
    error.insert(QStringLiteral("type"), type.isEmpty() ? errorTypeFor(shape, status) : type);
    QJsonObject root;
    if (shape == ErrorShape::Anthropic) {
        root.insert(QStringLiteral("type"), QStringLiteral("error"));
    } else {
        if (!error.contains(QStringLiteral("code")))
            error.insert(QStringLiteral("code"), status);
    }
    root.insert(QStringLiteral("error"), error);
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

QByteArray errorEvent(Endpoint endpoint, int status, const QString &message)
{
    if (errorShapeFor(endpoint) == ErrorShape::Anthropic)
        return "event: error\ndata: " + errorBody(ErrorShape::Anthropic, status, message) + "\n\n";
    if (endpoint == Endpoint::Responses) {
        QJsonObject ev{{QStringLiteral("type"), QStringLiteral("error")},
                       {QStringLiteral("code"), errorTypeFor(ErrorShape::OpenAI, status)},
                       {QStringLiteral("message"), message},
                       {QStringLiteral("param"), QJsonValue()}};
        return "event: error\ndata: " + QJsonDocument(ev).toJson(QJsonDocument::Compact) + "\n\n";
    }
    return "data: " + errorBody(ErrorShape::OpenAI, status, message) + "\n\n";
}

} // namespace Aile::Wire
