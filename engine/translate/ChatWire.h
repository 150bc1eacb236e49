#pragma once

#include "Conversation.h"
#include "StreamCodec.h"

#include <memory>

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

std::unique_ptr<StreamDecoder> decoder();
std::unique_ptr<StreamEncoder> encoder(bool includeUsage);

} // namespace Aile::Translate::Chat
