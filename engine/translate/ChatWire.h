#pragma once

#include "Conversation.h"

/// The OpenAI Chat Completions wire (POST /v1/chat/completions) read into and written from the pivot.
namespace Aile::Translate::Chat {

Request readRequest(const QJsonObject &body, Notes &notes);
QJsonObject writeRequest(const Request &request, Notes &notes, const Options &options);
Answer readAnswer(const QJsonObject &body, Notes &notes);
QJsonObject writeAnswer(const Answer &answer, Notes &notes);
QString finishReason(const QString &stop);
QString stopFrom(const QString &finishReason);
Usage readUsage(const QJsonObject &usage);
QJsonObject writeUsage(const Usage &usage);

} // namespace Aile::Translate::Chat
