#pragma once

#include "Conversation.h"
#include "StreamCodec.h"

#include <memory>

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

std::unique_ptr<StreamDecoder> decoder();
std::unique_ptr<StreamEncoder> encoder();

} // namespace Aile::Translate::Messages
