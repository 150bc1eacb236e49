#pragma once

#include "Conversation.h"

/// The OpenAI Responses wire (POST /v1/responses) read into and written from the pivot.
namespace Aile::Translate::Responses {

Request readRequest(const QJsonObject &body, Notes &notes);
QJsonObject writeRequest(const Request &request, Notes &notes, const Options &options);
Answer readAnswer(const QJsonObject &body, Notes &notes);
QJsonObject writeAnswer(const Answer &answer, Notes &notes);
Usage readUsage(const QJsonObject &usage);
QJsonObject writeUsage(const Usage &usage);
/// The output item of a part, its id made from the answer's id and the item's place; custom: a
/// call of a custom tool, written as a custom_tool_call (CustomTools.h).
QJsonObject outputItem(const Part &part, const QString &id, bool custom = false);
/// status, and incomplete_details when the answer was cut (length, refusal).
void writeStatus(QJsonObject &response, const QString &stop);

} // namespace Aile::Translate::Responses
