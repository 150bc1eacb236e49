#pragma once

#include "Conversation.h"

/// The Anthropic Messages wire (POST /v1/messages) read into and written from the pivot.
namespace Aile::Translate::Messages {

Request readRequest(const QJsonObject &body, Notes &notes);
QJsonObject writeRequest(const Request &request, Notes &notes, const Options &options);
Answer readAnswer(const QJsonObject &body, Notes &notes);
QJsonObject writeAnswer(const Answer &answer, Notes &notes);
QString stopReason(const QString &stop);
QString stopFrom(const QString &stopReason);
Usage readUsage(const QJsonObject &usage);
QJsonObject writeUsage(const Usage &usage);

} // namespace Aile::Translate::Messages
