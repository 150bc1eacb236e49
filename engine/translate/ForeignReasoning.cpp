#include "ForeignReasoning.h"

#include "Common.h"

#include <QtCore/QJsonArray>

namespace Aile::Translate {

namespace {

bool markedOrUnsigned(const QJsonObject &block)
{
    if (str(block, "type") != QLatin1String("thinking"))
        return false; // redacted_thinking is Anthropic's own, encrypted: it may go back to Anthropic
    const QString signature = str(block, "signature");
    return signature.isEmpty() || signature.startsWith(QLatin1String(TranslatedReasoningMark));
}

QStringList stripMessages(QJsonObject &body)
{
    QStringList dropped;
    QJsonArray messages = body.value(QLatin1String("messages")).toArray();
    int lastAssistant = -1;
    bool lastLostThinking = false;
    bool changed = false;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        QJsonObject m = messages.at(i).toObject();
        if (str(m, "role") != QLatin1String("assistant"))
            continue;
        lastAssistant = int(i);
        lastLostThinking = false;
        const QJsonArray content = m.value(QLatin1String("content")).toArray();
        QJsonArray kept;
        for (const QJsonValue &v : content) {
            if (markedOrUnsigned(v.toObject()))
                lastLostThinking = true;
            else
                kept.append(v);
        }
        if (kept.size() == content.size())
            continue;
        changed = true;
        m.insert(QStringLiteral("content"), kept);
        messages[i] = m;
    }
    if (!changed)
        return dropped;
    dropped.append(QStringLiteral("messages[].content[].thinking (written by translation, unsigned: the provider would refuse it)"));
    // A turn left with nothing is taken out whole: Anthropic joins the user turns around it.
    QJsonArray nonEmpty;
    for (const QJsonValue &v : messages) {
        const QJsonObject m = v.toObject();
        if (!(str(m, "role") == QLatin1String("assistant") && m.value(QLatin1String("content")).isArray()
              && m.value(QLatin1String("content")).toArray().isEmpty()))
            nonEmpty.append(v);
    }
    body.insert(QStringLiteral("messages"), nonEmpty);
    if (lastAssistant >= 0 && lastLostThinking && body.contains(QLatin1String("thinking"))) {
        body.remove(QStringLiteral("thinking"));
        dropped.append(QStringLiteral("thinking (the last assistant turn's reasoning came from another provider)"));
    }
    return dropped;
}

QStringList stripResponses(QJsonObject &body, const QString &provider)
{
    QStringList dropped;
    const QJsonValue input = body.value(QLatin1String("input"));
    if (!input.isArray())
        return dropped;
    // OpenAI's encrypted reasoning goes to OpenAI's own providers, and to a node, which applies this rule itself.
    const bool openAI = provider == QLatin1String("openai") || provider == QLatin1String("codex") || provider == QLatin1String("aile");
    QJsonArray kept;
    bool marked = false;
    bool encrypted = false;
    for (const QJsonValue &v : input.toArray()) {
        const QJsonObject item = v.toObject();
        if (str(item, "type") == QLatin1String("reasoning")) {
            if (str(item, "id").startsWith(QStringLiteral("rs_") + QLatin1String(TranslatedReasoningMark))) {
                marked = true;
                continue;
            }
            if (!openAI && !str(item, "encrypted_content").isEmpty()) {
                encrypted = true;
                continue;
            }
        }
        kept.append(v);
    }
    if (marked)
        dropped.append(QStringLiteral("input[].reasoning (written by translation: no provider holds it)"));
    if (encrypted)
        dropped.append(QStringLiteral("input[].reasoning (encrypted reasoning is never sent to another provider)"));
    if (marked || encrypted)
        body.insert(QStringLiteral("input"), kept);
    return dropped;
}

} // namespace

QString translatedSignature()
{
    return QLatin1String(TranslatedReasoningMark);
}

QString translatedReasoningId(const QString &suffix)
{
    return QStringLiteral("rs_") + QLatin1String(TranslatedReasoningMark) + QLatin1Char('_') + suffix;
}

QStringList stripUnverifiableReasoning(Wire::Endpoint endpoint, QJsonObject &body, const QString &provider)
{
    if (endpoint == Wire::Endpoint::Messages)
        return stripMessages(body);
    if (endpoint == Wire::Endpoint::Responses)
        return stripResponses(body, provider);
    return {};
}

} // namespace Aile::Translate
