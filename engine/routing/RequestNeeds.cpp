#include "RequestNeeds.h"

#include "billing/Quote.h"
#include "catalog/Catalog.h"

#include <QtCore/QJsonArray>

namespace Aile::Routing {
namespace {

bool nonEmptyArray(const QJsonValue &v)
{
    return v.isArray() && !v.toArray().isEmpty();
}

bool isImagePart(const QJsonObject &part)
{
    const QString type = part.value(QLatin1String("type")).toString();
    return type == QLatin1String("image_url") || type == QLatin1String("input_image") || type == QLatin1String("image");
}

/// Any image part in a list of messages (chat, messages) or input items (responses), including
/// images returned inside Anthropic tool results.
bool anyImage(const QJsonArray &items)
{
    for (const QJsonValue &item : items) {
        const QJsonObject o = item.toObject();
        if (isImagePart(o))
            return true;
        const QJsonValue content = o.value(QLatin1String("content"));
        if (content.isArray() && anyImage(content.toArray()))
            return true;
    }
    return false;
}

bool schemaFormat(const QJsonObject &format)
{
    const QString type = format.value(QLatin1String("type")).toString();
    return type == QLatin1String("json_schema") || type == QLatin1String("json_object");
}

} // namespace

RequestNeeds RequestNeeds::of(Wire::Endpoint endpoint, const QJsonObject &body)
{
    RequestNeeds n;
    n.streaming = body.value(QLatin1String("stream")).toBool();
    switch (endpoint) {
    case Wire::Endpoint::ChatCompletions:
        n.tools = nonEmptyArray(body.value(QLatin1String("tools"))) || nonEmptyArray(body.value(QLatin1String("functions")));
        n.structuredOutput = schemaFormat(body.value(QLatin1String("response_format")).toObject());
        n.imageInput = anyImage(body.value(QLatin1String("messages")).toArray());
        n.reasoning = body.contains(QLatin1String("reasoning_effort")) || body.contains(QLatin1String("reasoning"));
        break;
    case Wire::Endpoint::Responses: {
        n.tools = nonEmptyArray(body.value(QLatin1String("tools")));
        n.structuredOutput = schemaFormat(body.value(QLatin1String("text")).toObject().value(QLatin1String("format")).toObject());
        const QJsonValue input = body.value(QLatin1String("input"));
        n.imageInput = input.isArray() && anyImage(input.toArray());
        n.reasoning = body.value(QLatin1String("reasoning")).isObject();
        break;
    }
    case Wire::Endpoint::Messages:
    case Wire::Endpoint::CountTokens:
        n.tools = nonEmptyArray(body.value(QLatin1String("tools")));
        n.structuredOutput = schemaFormat(body.value(QLatin1String("output_format")).toObject());
        n.imageInput = anyImage(body.value(QLatin1String("messages")).toArray());
        n.reasoning = body.value(QLatin1String("thinking")).toObject().value(QLatin1String("type")).toString() == QLatin1String("enabled");
        break;
    default: break;
    }
    return n;
}

QString RequestNeeds::missingIn(const Catalog::ModelInfo &model, qint64 promptTokens) const
{
    const Catalog::Capabilities &c = model.capabilities;
    if (tools && !c.tools)
        return QStringLiteral("tool use");
    if (structuredOutput && !c.structuredOutput)
        return QStringLiteral("structured output");
    if (imageInput && !c.imageInput)
        return QStringLiteral("image input");
    if (streaming && !c.streaming)
        return QStringLiteral("streaming");
    if (model.contextWindow > 0 && promptTokens > model.contextWindow)
        return QStringLiteral("a context window of %1 tokens (the prompt is about %2)").arg(model.contextWindow).arg(promptTokens);
    return {};
}

QStringList RequestNeeds::used() const
{
    QStringList out;
    if (tools)
        out << QStringLiteral("tools");
    if (structuredOutput)
        out << QStringLiteral("structuredOutput");
    if (imageInput)
        out << QStringLiteral("imageInput");
    if (streaming)
        out << QStringLiteral("streaming");
    if (reasoning)
        out << QStringLiteral("reasoning");
    return out;
}

double comparisonPrice(const Billing::Rates &rates, double inputWeight, double outputWeight)
{
    if (inputWeight <= 0 && outputWeight <= 0)
        inputWeight = outputWeight = 1;
    return (inputWeight * rates.input + outputWeight * rates.output) / (inputWeight + outputWeight);
}

} // namespace Aile::Routing
