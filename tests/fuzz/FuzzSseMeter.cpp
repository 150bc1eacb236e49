// fuzz_sse_meter: an upstream's answer, streamed or not, on the three chat wires, through the SSE
// parser and the response meter exactly as dispatch/ProxyRequest reads it (docs/hardening.md).
// The meter reads JSON through its sieve (wire/JsonSieve.h) and passes over events a look at their
// bytes shows to be quiet (wire/EventGlance.h); a second meter beside it reads every answer as a
// whole QJsonDocument, and the two must agree on everything the engine reads next.
//
// Input: byte 0 picks the wire and the mode: 'c' chat completions, 'r' responses, 'm' messages,
// lower case streamed, upper case a whole body (any other byte: wire = byte % 3, streamed = bit 5).
// Byte 1 seeds the split of the rest into reads of 1..64 bytes (0: one read), so line ends and
// events fall across reads as they do off a socket. The rest is the upstream's body.
#include "wire/ResponseMeter.h"
#include "wire/SseParser.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace Aile::Wire;

namespace {

Endpoint endpointOf(uint8_t b)
{
    switch (b | 0x20) {
    case 'c': return Endpoint::ChatCompletions;
    case 'r': return Endpoint::Responses;
    case 'm': return Endpoint::Messages;
    default: break;
    }
    static constexpr Endpoint wires[] = {Endpoint::ChatCompletions, Endpoint::Responses, Endpoint::Messages};
    return wires[b % 3];
}

// The relayed bytes are the events' raw bytes, in order, then the cut tail: together, the input.
void check(bool ok)
{
    if (!ok)
        abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const Endpoint endpoint = endpointOf(data[0]);
    const bool streamed = (data[0] & 0x20) != 0;
    uint32_t split = data[1];
    const QByteArray body = QByteArray::fromRawData(reinterpret_cast<const char *>(data) + 2, qsizetype(size - 2));

    ResponseMeter meter(endpoint, streamed);
    ResponseMeter reference(endpoint, streamed, ResponseMeter::Reading::WholeDocument);
    SseParser plain; // the bare parser beside the meter: the same events, byte for byte
    QByteArray relayed, parsed;
    qsizetype at = 0;
    while (at < body.size()) {
        qsizetype n = body.size() - at;
        if (split != 0) {
            split = split * 1103515245u + 12345u;
            n = qMin<qsizetype>(n, 1 + (split >> 16) % 64);
        }
        const QByteArray read = body.mid(at, n);
        at += n;
        if (streamed) {
            const QList<SseEvent> events = meter.feedStream(read);
            const QList<SseEvent> expected = reference.feedStream(read);
            check(events.size() == expected.size());
            for (qsizetype i = 0; i < events.size(); ++i) {
                relayed += events[i].raw;
                (void)events[i].isComment();
                check(events[i].usageOnly == expected[i].usageOnly);
            }
            for (const SseEvent &ev : plain.feed(read))
                parsed += ev.raw;
            // After every read, not only at the end: the events the sieved meter passes over
            // unread (wire/EventGlance.h) must leave it where reading them leaves the reference.
            check(meter.sawOutput() == reference.sawOutput() && meter.sawEndEvent() == reference.sawEndEvent());
            check(meter.sawErrorEvent() == reference.sawErrorEvent() && meter.reportedModel() == reference.reportedModel());
            check(meter.usage().inputTokens == reference.usage().inputTokens && meter.usage().outputTokens == reference.usage().outputTokens);
        } else {
            meter.feedBody(read);
            reference.feedBody(read);
        }
    }
    meter.finish();
    reference.finish();
    if (streamed) {
        relayed += meter.takePendingStream();
        parsed += plain.takePending();
        check(relayed == body);
        check(parsed == body);
    }
    // What the engine reads next: usage for the ledger, the end and error events, the evidence.
    const Usage &usage = meter.usage();
    (void)usage.known();
    (void)meter.sawEndEvent();
    (void)meter.sawOutput();
    if (meter.sawErrorEvent())
        (void)errorEvent(endpoint, 502, meter.errorMessage());
    (void)meter.reportedModel().size();
    (void)meter.reasoningTokens().size();
    (void)meter.toolCallIds().size();
    // The sieve reads what the whole document reads.
    const Usage &expected = reference.usage();
    check(usage.inputTokens == expected.inputTokens && usage.outputTokens == expected.outputTokens);
    check(usage.cacheReadTokens == expected.cacheReadTokens && usage.cacheWriteTokens == expected.cacheWriteTokens);
    check(usage.cacheInInput == expected.cacheInInput && usage.rejected == expected.rejected);
    check(meter.sawEndEvent() == reference.sawEndEvent() && meter.sawErrorEvent() == reference.sawErrorEvent());
    check(meter.sawOutput() == reference.sawOutput() && meter.errorMessage() == reference.errorMessage());
    check(meter.reportedModel() == reference.reportedModel());
    check(meter.reasoningTokens() == reference.reasoningTokens() && meter.toolCallIds() == reference.toolCallIds());
    return 0;
}
