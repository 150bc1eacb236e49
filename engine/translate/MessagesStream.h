#pragma once

#include "StreamCodec.h"

#include <memory>

/// The Messages stream (message_start … message_stop events) read into and written from the pivot's stream events.
namespace Aile::Translate::Messages {

std::unique_ptr<StreamDecoder> decoder();
std::unique_ptr<StreamEncoder> encoder();

} // namespace Aile::Translate::Messages
