#pragma once

#include "StreamCodec.h"

#include <memory>

/// The Chat Completions stream (chat.completion.chunk events, then data: [DONE]) read into and written from the pivot's stream events.
namespace Aile::Translate::Chat {

std::unique_ptr<StreamDecoder> decoder();
std::unique_ptr<StreamEncoder> encoder(bool includeUsage);

} // namespace Aile::Translate::Chat
