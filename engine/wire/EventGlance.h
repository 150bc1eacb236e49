#pragma once

#include "SseParser.h"
#include "Wire.h"

#include <QtCore/QByteArrayView>

namespace Aile::Wire {

/// What the response meter already knows that decides whether an event can still tell it
/// anything: whether output was seen, and the model the chat answer named (UTF-8).
struct MeterKnows
{
    bool sawOutput = false;
    QByteArrayView chatModel;
};

/// Whether reading this streamed event's JSON could change nothing the meter holds: a look at its
/// bytes, without parsing them, that answers "nothing new" only where a parse would find nothing
/// new (docs/performance.md "Change 14 (SSE)"). Most of a long answer is such events: text deltas
/// on a stream whose model is known and whose output has begun.
///
/// The look finds names by their literal, quoted spelling, so any escape in the data that could
/// spell a name another way (`\u`, or one JSON does not define, which Qt's parser reads as the
/// character itself) makes it answer false; so does any name the meter reads on the
/// event's wire, anywhere in the data, even inside a string. False is always safe: the meter then
/// parses the event as it always did. test_meter_sieve and fuzz_sse_meter hold the look to the
/// whole-document reading after every read.
bool changesNothing(Endpoint endpoint, const SseEvent &event, const MeterKnows &knows);

} // namespace Aile::Wire
