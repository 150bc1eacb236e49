#include "MessagesStream.h"
#include "MessagesWire.h"

#include "Common.h"
#include "ForeignReasoning.h"
#include "wire/Wire.h"

#include <QtCore/QJsonDocument>

// The Messages stream: message_start, content_block_start/delta/stop per block, message_delta
// (stop reason, usage), message_stop; ping and error between them.
namespace Aile::Translate::Messages {

namespace {

int statusForErrorType(const QString &type)
{
    if (type == QLatin1String("overloaded_error"))
        return 529;
    if (type == QLatin1String("rate_limit_error"))
        return 429;
    if (type == QLatin1String("invalid_request_error"))
        return 400;
    return 500;
}

class Decoder final : public StreamDecoder
{
public:
    QList<StreamEvent> decode(const Wire::SseEvent &sse) override
    {
        const QJsonObject o = QJsonDocument::fromJson(sse.data).object();
        const QString type = o.value(QLatin1String("type")).toString();
        QList<StreamEvent> out;
        StreamEvent e;
        if (type == QLatin1String("message_start")) {
            const QJsonObject m = o.value(QLatin1String("message")).toObject();
            m_usage = readUsage(m.value(QLatin1String("usage")).toObject());
            e.kind = StreamEvent::Kind::Start;
            e.id = m.value(QLatin1String("id")).toString();
            e.name = m.value(QLatin1String("model")).toString();
            e.usage = m_usage;
            out.append(e);
        } else if (type == QLatin1String("content_block_start")) {
            const QJsonObject b = o.value(QLatin1String("content_block")).toObject();
            const QString kind = b.value(QLatin1String("type")).toString();
            if (kind == QLatin1String("tool_use")) {
                e.kind = StreamEvent::Kind::ToolCall;
                e.call = m_calls.size();
                m_calls.insert(o.value(QLatin1String("index")).toInt(), e.call);
                e.id = b.value(QLatin1String("id")).toString();
                e.name = b.value(QLatin1String("name")).toString();
                out.append(e);
            } else if (kind == QLatin1String("text") && !b.value(QLatin1String("text")).toString().isEmpty()) {
                e.text = b.value(QLatin1String("text")).toString();
                out.append(e);
            } else if (kind == QLatin1String("redacted_thinking")) {
                notes.drop(QStringLiteral("redacted_thinking (encrypted reasoning stays with its provider)"));
            }
        } else if (type == QLatin1String("content_block_delta")) {
            const QJsonObject d = o.value(QLatin1String("delta")).toObject();
            const QString kind = d.value(QLatin1String("type")).toString();
            if (kind == QLatin1String("text_delta")) {
                e.text = d.value(QLatin1String("text")).toString();
            } else if (kind == QLatin1String("input_json_delta")) {
                e.kind = StreamEvent::Kind::ToolArguments;
                e.call = m_calls.value(o.value(QLatin1String("index")).toInt());
                e.text = d.value(QLatin1String("partial_json")).toString();
            } else if (kind == QLatin1String("thinking_delta")) {
                e.kind = StreamEvent::Kind::Reasoning;
                e.text = d.value(QLatin1String("thinking")).toString();
            } else {
                return out; // signature_delta, citations: nothing another wire can carry
            }
            out.append(e);
        } else if (type == QLatin1String("message_delta")) {
            const QJsonObject d = o.value(QLatin1String("delta")).toObject();
            m_stop = stopFrom(d.value(QLatin1String("stop_reason")).toString());
            m_stopSequence = d.value(QLatin1String("stop_sequence")).toString();
            const Usage u = readUsage(o.value(QLatin1String("usage")).toObject());
            if (u.output >= 0)
                m_usage.output = u.output;
            if (u.input >= 0)
                m_usage.input = u.input;
            m_usage.cacheRead = qMax(m_usage.cacheRead, u.cacheRead);
            m_usage.cacheWrite = qMax(m_usage.cacheWrite, u.cacheWrite);
        } else if (type == QLatin1String("message_stop")) {
            e.kind = StreamEvent::Kind::Finish;
            e.stop = m_stop;
            e.stopSequence = m_stopSequence;
            e.usage = m_usage;
            out.append(e);
        } else if (type == QLatin1String("error")) {
            const QJsonObject err = o.value(QLatin1String("error")).toObject();
            e.kind = StreamEvent::Kind::Error;
            e.status = statusForErrorType(err.value(QLatin1String("type")).toString());
            e.text = err.value(QLatin1String("message")).toString();
            out.append(e);
        }
        return out;
    }

private:
    QHash<int, int> m_calls; // content block index → tool call index
    Usage m_usage;
    QString m_stop = QStringLiteral("end");
    QString m_stopSequence;
};

class Encoder final : public StreamEncoder
{
public:
    QByteArray encode(const StreamEvent &e) override
    {
        switch (e.kind) {
        case StreamEvent::Kind::Start: {
            QJsonObject usage = writeUsage(e.usage);
            const QJsonObject message{{QStringLiteral("id"), e.id},
                                      {QStringLiteral("type"), QStringLiteral("message")},
                                      {QStringLiteral("role"), QStringLiteral("assistant")},
                                      {QStringLiteral("model"), e.name},
                                      {QStringLiteral("content"), QJsonArray()},
                                      {QStringLiteral("stop_reason"), QJsonValue()},
                                      {QStringLiteral("stop_sequence"), QJsonValue()},
                                      {QStringLiteral("usage"), usage}};
            return event("message_start", {{QStringLiteral("message"), message}});
        }
        case StreamEvent::Kind::Text: {
            // open() first: it may start the block whose index the delta names.
            QByteArray out = open(QStringLiteral("text"), {{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), QString()}});
            return out + delta(m_index, {{QStringLiteral("type"), QStringLiteral("text_delta")}, {QStringLiteral("text"), e.text}});
        }
        case StreamEvent::Kind::Reasoning: {
            QByteArray out = open(QStringLiteral("thinking"), {{QStringLiteral("type"), QStringLiteral("thinking")},
                                                               {QStringLiteral("thinking"), QString()},
                                                               {QStringLiteral("signature"), QString()}});
            return out + delta(m_index, {{QStringLiteral("type"), QStringLiteral("thinking_delta")}, {QStringLiteral("thinking"), e.text}});
        }
        case StreamEvent::Kind::ToolCall: {
            QByteArray out = close();
            m_open = QStringLiteral("tool_use");
            m_index = m_next++;
            m_callBlock.insert(e.call, m_index);
            const QJsonObject block{{QStringLiteral("type"), QStringLiteral("tool_use")},
                                    {QStringLiteral("id"), e.id},
                                    {QStringLiteral("name"), e.name},
                                    {QStringLiteral("input"), QJsonObject()}};
            return out + event("content_block_start", {{QStringLiteral("index"), m_index}, {QStringLiteral("content_block"), block}});
        }
        case StreamEvent::Kind::ToolArguments:
            // A call's deltas go to its own block, even when another call's came in between.
            return delta(m_callBlock.value(e.call, m_index),
                         {{QStringLiteral("type"), QStringLiteral("input_json_delta")}, {QStringLiteral("partial_json"), e.text}});
        case StreamEvent::Kind::Finish: {
            QByteArray out = close();
            const QJsonObject d{{QStringLiteral("stop_reason"), stopReason(e.stop)},
                                {QStringLiteral("stop_sequence"), e.stopSequence.isEmpty() ? QJsonValue() : QJsonValue(e.stopSequence)}};
            out += event("message_delta", {{QStringLiteral("delta"), d}, {QStringLiteral("usage"), writeUsage(e.usage)}});
            m_finished = true;
            return out + event("message_stop", {});
        }
        case StreamEvent::Kind::Error: m_finished = true; return Wire::errorEvent(Wire::Endpoint::Messages, e.status, e.text);
        }
        return {};
    }

private:
    QByteArray event(const char *name, QJsonObject data)
    {
        data.insert(QStringLiteral("type"), QLatin1String(name));
        return frame(name, data);
    }
    QByteArray delta(int index, const QJsonObject &d)
    {
        return event("content_block_delta", {{QStringLiteral("index"), index}, {QStringLiteral("delta"), d}});
    }
    QByteArray open(const QString &kind, const QJsonObject &block)
    {
        if (m_open == kind)
            return {};
        QByteArray out = close();
        m_open = kind;
        m_index = m_next++;
        return out + event("content_block_start", {{QStringLiteral("index"), m_index}, {QStringLiteral("content_block"), block}});
    }
    QByteArray close()
    {
        if (m_open.isEmpty())
            return {};
        QByteArray out;
        // As Anthropic ends a thinking block with its signature, this one ends with the proxy's mark.
        if (m_open == QLatin1String("thinking"))
            out = delta(m_index, {{QStringLiteral("type"), QStringLiteral("signature_delta")}, {QStringLiteral("signature"), translatedSignature()}});
        m_open.clear();
        return out + event("content_block_stop", {{QStringLiteral("index"), m_index}});
    }

    QString m_open; // the kind of the open content block, empty when none is
    int m_index = -1;
    int m_next = 0;
    QHash<int, int> m_callBlock;
};

} // namespace

std::unique_ptr<StreamDecoder> decoder()
{
    return std::make_unique<Decoder>();
}

std::unique_ptr<StreamEncoder> encoder()
{
    return std::make_unique<Encoder>();
}

} // namespace Aile::Translate::Messages
