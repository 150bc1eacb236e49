#pragma once

#include "Conversation.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

namespace Aile::Translate {

/// A data: URI or URL as an Anthropic image source, and back.
QJsonObject anthropicImageSource(const QString &url);
QString imageUrlFromAnthropic(const QJsonObject &source);

/// Anthropic's thinking budget and OpenAI's reasoning effort, read as each other (low, medium, high).
QString effortForBudget(qint64 budgetTokens);
qint64 budgetForEffort(const QString &effort);

/// Tool arguments: a JSON text (OpenAI) and an object (Anthropic). Text that is not an object is
/// kept whole under "_arguments" rather than lost.
QJsonObject argumentsObject(const QString &text);
QString argumentsText(const QJsonObject &object);

/// A string member of a JSON object (empty when absent or not a string).
inline QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

Part toolCallPart(const QString &id, const QString &name, const QString &arguments);

/// Content that is a string or an array of typed parts, each part read by readPart; a part whose
/// type readPart does not know (it returns false) is refused, named by its place.
using PartReader = bool (*)(const QString &type, const QJsonObject &item, Part &out);
QList<Part> readParts(const QJsonValue &content, const QString &where, Notes &notes, PartReader readPart);

/// Usage on OpenAI's two wires: the same figures under "prompt"/"completion" (chat) or
/// "input"/"output" (responses); cached tokens are counted inside the prompt's.
Usage readOpenAIUsage(const QJsonObject &usage, const QString &in, const QString &out);
QJsonObject writeOpenAIUsage(const Usage &usage, const QString &in, const QString &out);
/// What both OpenAI writers end with: prompt_cache_key from the client or the session, and the
/// notes for what an OpenAI wire has no field for (cache_control, metadata.user_id).
void endOpenAIRequest(QJsonObject &body, const Request &request, bool cacheMarks, Notes &notes, const Options &options);

/// The text of the Text parts, joined by blank lines.
QString joinedText(const QList<Part> &parts);
Part textPart(const QString &text);

/// A JSON number, or -1 when the value is absent or not a whole number.
qint64 tokenCount(const QJsonValue &value);

QByteArray compact(const QJsonObject &object);

} // namespace Aile::Translate
