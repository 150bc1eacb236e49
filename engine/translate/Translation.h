#pragma once

#include "Conversation.h"
#include "wire/SseParser.h"
#include "wire/Wire.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <memory>

namespace Aile::Translate {

class StreamDecoder;
class StreamEncoder;

/// A client's chat request rewritten for an upstream that speaks another wire.
struct RequestTranslation
{
    QByteArray body;      // the upstream body; empty when refused
    QString refusedField; // the field no target of this wire can carry
    QString refusal;      // the 400 message: the field, the target wire and the fix
    QStringList dropped;  // fields left out that the answer does not depend on (for the trace)
    bool stream = false;
    bool clientWantsUsage = false; // a chat client's stream_options.include_usage
    QStringList customTools;       // a Responses client's custom tools: their calls go back as custom_tool_call
    bool ok() const { return refusedField.isEmpty(); }
};

/// "messages->chat": the label of a translation, for x-aile-translated and the trace row.
QString label(Wire::Endpoint client, Wire::Endpoint upstream);
/// Both ends are chat wires this layer reads and writes (messages, chat, responses) and differ.
bool canTranslate(Wire::Endpoint client, Wire::Endpoint upstream);

RequestTranslation translateRequest(Wire::Endpoint client, Wire::Endpoint upstream, const QByteArray &body, const Options &options = {});
/// The 400 body a refused translation answers, in the client's wire shape.
QByteArray refusalBody(Wire::Endpoint client, const RequestTranslation &translation);

struct AnswerTranslation
{
    QByteArray body;
    QStringList dropped;
    bool ok = true; // false: the upstream body was not an answer of its wire (body is an error)
};

/// A non-streamed answer of the upstream's wire, rewritten for the client's.
/// customTools: the request's RequestTranslation::customTools.
AnswerTranslation translateAnswer(Wire::Endpoint client, Wire::Endpoint upstream, const QByteArray &body, const QStringList &customTools = {});

/// An upstream error body (any status) in the client's wire shape, its message and type kept.
QByteArray translateError(Wire::Endpoint client, Wire::Endpoint upstream, int status, const QByteArray &body);

/// A streamed answer, translated event by event: each upstream SSE event in, zero or more client
/// events out, nothing held back but what the client wire's closing events repeat.
class StreamTranslator
{
public:
    StreamTranslator(Wire::Endpoint client, Wire::Endpoint upstream, bool clientWantsUsage = false, const QStringList &customTools = {});
    ~StreamTranslator();
    StreamTranslator(const StreamTranslator &) = delete;
    StreamTranslator &operator=(const StreamTranslator &) = delete;

    QByteArray feed(const Wire::SseEvent &event);
    /// The upstream's end event has been translated (the client got its own end).
    bool finished() const;
    /// What the stream carried that the client wire cannot (reasoning to a chat client, …).
    QStringList dropped() const;

private:
    std::unique_ptr<StreamDecoder> m_decoder;
    std::unique_ptr<StreamEncoder> m_encoder;
};

} // namespace Aile::Translate
