#include "EventGlance.h"

#include <cstring>
#include <string_view>

namespace Aile::Wire {

namespace {

using namespace std::string_view_literals;

// Whether the bytes at p (n of them left) begin with the literal: a fixed-size compare the
// compiler inlines, as the look runs at every quote of every relayed event.
template <size_t N> bool at(const char *p, size_t n, const char (&literal)[N])
{
    return n >= N - 1 && std::memcmp(p, literal, N - 1) == 0;
}

// `:"value"` with nothing between: the value, up to the next quote; false for any other shape
// (spaces, a number, an escaped quote's cut value end in a parse, never in a wrong yes).
bool stringValue(const char *p, size_t n, std::string_view *value)
{
    if (!at(p, n, ":\""))
        return false;
    const void *close = std::memchr(p + 2, '"', n - 2);
    if (!close)
        return false;
    *value = std::string_view(p + 2, size_t(static_cast<const char *>(close) - (p + 2)));
    return true;
}

// An escape that could spell a letter of a name: \u, and any escape JSON does not define, which
// Qt's parser reads as the character itself ("\content" is "content"). The defined ones (\" \\ \/
// \b \f \n \r \t) spell no letter.
bool hasSpellingEscape(const char *p, size_t n)
{
    const char *end = p + n;
    for (const void *s = std::memchr(p, '\\', n); s; s = std::memchr(p, '\\', size_t(end - p))) {
        p = static_cast<const char *>(s) + 1;
        if (p == end)
            return false;
        if (!std::memchr("\"\\/bfnrt", *p, 8))
            return true;
        ++p; // an escape's second byte is never the start of another
        if (p >= end)
            return false;
    }
    return false;
}

// The names the chat meter reads (ResponseMeter::readEventObject, readChatObject and
// readReasoning), by the byte after their opening quote: false when the text after a quote
// could be one that tells the meter something.
bool chatQuiet(const char *p, size_t n, const MeterKnows &knows)
{
    switch (*p) {
    case 'e': return !at(p, n, "error\"") && !at(p, n, "encrypted_content\"");
    case 'u': return !at(p, n, "usage\"");
    case 't': return !at(p, n, "tool_calls\"") && !at(p, n, "thinking_blocks\"");
    case 'r': return !at(p, n, "reasoning") && !at(p, n, "refusal\"");            // reasoning, reasoning_content, reasoning_details...
    case 'c': return knows.sawOutput || !at(p, n, "content\"");                   // the first text sets sawOutput
    case 'f': return !at(p, n, "finish_reason\"") || at(p + 14, n - 14, ":null"); // a finish reason ends the answer
    case 'm': {
        if (!at(p, n, "model\""))
            return true;
        std::string_view model; // the first model, or another one, is news
        return !knows.chatModel.isEmpty() && stringValue(p + 6, n - 6, &model)
               && model == std::string_view(knows.chatModel.data(), size_t(knows.chatModel.size()));
    }
    default: return true;
    }
}

// The responses and messages wires are read by their events' "type": the text after a quote is
// quiet unless it is an "error" name, or a "type" whose value quietType does not accept.
bool typedQuiet(const char *p, size_t n, bool (*quietType)(std::string_view))
{
    if (at(p, n, "error\""))
        return false;
    if (!at(p, n, "type\""))
        return true;
    std::string_view type;
    return stringValue(p + 5, n - 5, &type) && quietType(type);
}

// Responses: only a delta's type says nothing new once output has been seen.
bool responsesType(std::string_view type)
{
    return type.size() >= 6 && type.substr(type.size() - 6) == ".delta"sv;
}

// Messages: the types of Anthropic's events that tell such a meter nothing new.
bool messagesType(std::string_view type)
{
    for (std::string_view quiet :
         {"content_block_delta"sv, "text_delta"sv, "input_json_delta"sv, "thinking_delta"sv, "citations_delta"sv, "content_block_stop"sv, "ping"sv})
        if (type == quiet)
            return true;
    return false;
}

} // namespace

bool changesNothing(Endpoint endpoint, const SseEvent &event, const MeterKnows &knows)
{
    if (event.data.isEmpty() || event.name == "error")
        return false;
    const bool chat = endpoint == Endpoint::ChatCompletions;
    if (!chat && endpoint != Endpoint::Responses && endpoint != Endpoint::Messages)
        return false;
    if (!chat && !knows.sawOutput)
        return false; // on those wires a quiet event still sets sawOutput the first time
    const char *data = event.data.constData();
    const size_t size = size_t(event.data.size());
    // An escaped name could hide from the look: \u0075sage is "usage", and so is \usage for Qt.
    if (hasSpellingEscape(data, size))
        return false;
    const char *end = data + size;
    for (const void *q = std::memchr(data, '"', size); q; q = std::memchr(q, '"', size_t(end - static_cast<const char *>(q)))) {
        const char *p = static_cast<const char *>(q) + 1;
        const size_t n = size_t(end - p);
        if (n == 0)
            break;
        const bool quiet = chat ? chatQuiet(p, n, knows) : typedQuiet(p, n, endpoint == Endpoint::Responses ? responsesType : messagesType);
        if (!quiet)
            return false;
        q = p;
    }
    return true;
}

} // namespace Aile::Wire
