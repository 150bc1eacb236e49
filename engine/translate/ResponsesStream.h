#pragma once

#include "StreamCodec.h"

#include <memory>

/// The Responses stream (response.created … response.completed events) read into and written from the pivot's stream events.
namespace Aile::Translate::Responses {

std::unique_ptr<StreamDecoder> decoder();
std::unique_ptr<StreamEncoder> encoder();

} // namespace Aile::Translate::Responses
