#include "ChatStream.h"
#include "ChatWire.h"

#include "Common.h"
#include "wire/Wire.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

// The chat stream: chat.completion.chunk objects on data lines, finish_reason on the last choice
// delta, usage in a chunk of its own (stream_options.include_usage), then data: [DONE].
namespace Aile::Translate::Chat {

namespace {

class Decoder final : public StreamDecoder
{
public:
    QList<StreamEvent> decode(const Wire::SseEvent &sse) override
    {
        QList<StreamEvent> out;
        if (sse.data.trimmed() == "[DONE]") {
            StreamEvent e;
            e.kind = StreamEvent::Kind::Finish;
            e.stop = m_stop;
            e.usage = m_usage;
            out.append(e);
            return out;
        }
        const QJsonObject o = QJsonDocument::fromJson(sse.data).object();
        if (o.contains(QLatin1String("error"))) {
            StreamEvent e;
            e.kind = StreamEvent::Kind::Error;
            const QJsonObject err = o.value(QLatin1String("error")).toObject();
            e.status = err.value(QLatin1String("code")).isDouble() ? err.value(QLatin1String("code")).toInt() : 500;
            e.text = err.value(QLatin1String("message")).toString();
            out.append(e);
            return out;
        }
        if (o.isEmpty())
            return out;
        if (!m_started) {
            m_started = true;
            StreamEvent e;
            e.kind = StreamEvent::Kind::Start;
            e.id = o.value(QLatin1String("id")).toString();
            e.name = o.value(QLatin1String("model")).toString();
            out.append(e);
        }
        if (o.value(QLatin1String("usage")).isObject())
            m_usage = readUsage(o.value(QLatin1String("usage")).toObject());
        const QJsonObject choice = o.value(QLatin1String("choices")).toArray().at(0).toObject();
        const QJsonObject delta = choice.value(QLatin1String("delta")).toObject();
        if (!delta.value(QLatin1String("reasoning_content")).toString().isEmpty())
            notes.drop(QStringLiteral("reasoning_content (reasoning without a summary the client wire can carry)"));
        const QString text = delta.value(QLatin1String("content")).toString();
        if (!text.isEmpty()) {
            StreamEvent e;
            e.text = text;
            out.append(e);
        }
        for (const QJsonValue &v : delta.value(QLatin1String("tool_calls")).toArray()) {
            const QJsonObject c = v.toObject();
            const QJsonObject f = c.value(QLatin1String("function")).toObject();
            const int index = c.value(QLatin1String("index")).toInt();
            if (!m_calls.contains(index)) {
                StreamEvent e;
                e.kind = StreamEvent::Kind::ToolCall;
                e.call = int(m_calls.size());
                m_calls.insert(index, e.call);
                e.id = c.value(QLatin1String("id")).toString();
                e.name = f.value(QLatin1String("name")).toString();
                out.append(e);
            }
            const QString args = f.value(QLatin1String("arguments")).toString();
            if (!args.isEmpty()) {
                StreamEvent e;
                e.kind = StreamEvent::Kind::ToolArguments;
                e.call = m_calls.value(index);
                e.text = args;
                out.append(e);
            }
        }
        const QString finish = choice.value(QLatin1String("finish_reason")).toString();
        if (!finish.isEmpty())
            m_stop = stopFrom(finish);
        return out;
    }

private:
    bool m_started = false;
    QHash<int, int> m_calls; // the chunk's tool_calls index → tool call index
    QString m_stop = QStringLiteral("end");
    Usage m_usage;
};

class Encoder final : public StreamEncoder
{
public:
    explicit Encoder(bool includeUsage) : m_includeUsage(includeUsage) { }

    QByteArray encode(const StreamEvent &e) override
    {
        switch (e.kind) {
        case StreamEvent::Kind::Start:
            m_id = e.id;
            m_model = e.name;
            return chunk({{QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), QString()}});
        case StreamEvent::Kind::Text: return chunk({{QStringLiteral("content"), e.text}});
        case StreamEvent::Kind::Reasoning: notes.drop(QStringLiteral("reasoning (the chat wire carries none)")); return {};
        case StreamEvent::Kind::ToolCall: {
            const QJsonObject call{
                {QStringLiteral("index"), e.call},
                {QStringLiteral("id"), e.id},
                {QStringLiteral("type"), QStringLiteral("function")},
                {QStringLiteral("function"), QJsonObject{{QStringLiteral("name"), e.name}, {QStringLiteral("arguments"), QString()}}}};
            return chunk({{QStringLiteral("tool_calls"), QJsonArray{call}}});
        }
        case StreamEvent::Kind::ToolArguments: {
            const QJsonObject call{{QStringLiteral("index"), e.call},
                                   {QStringLiteral("function"), QJsonObject{{QStringLiteral("arguments"), e.text}}}};
            return chunk({{QStringLiteral("tool_calls"), QJsonArray{call}}});
        }
        case StreamEvent::Kind::Finish: {
            QByteArray out = chunk({}, finishReason(e.stop));
            if (m_includeUsage) {
                QJsonObject usage = base();
                usage.insert(QStringLiteral("choices"), QJsonArray());
                usage.insert(QStringLiteral("usage"), writeUsage(e.usage));
                out += frame({}, usage);
            }
            m_finished = true;
            return out + "data: [DONE]\n\n";
        }
        case StreamEvent::Kind::Error: m_finished = true; return Wire::errorEvent(Wire::Endpoint::ChatCompletions, e.status, e.text);
        }
        return {};
    }

private:
    QJsonObject base() const
    {
        return {{QStringLiteral("id"), m_id},
                {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
                {QStringLiteral("created"), 0},
                {QStringLiteral("model"), m_model}};
    }
    QByteArray chunk(const QJsonObject &delta, const QString &finish = {})
    {
        QJsonObject o = base();
        o.insert(QStringLiteral("choices"),
                 QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                        {QStringLiteral("delta"), delta},
                                        {QStringLiteral("finish_reason"), finish.isEmpty() ? QJsonValue() : QJsonValue(finish)}}});
        return frame({}, o);
    }

    bool m_includeUsage;
    QString m_id;
    QString m_model;
};

} // namespace

std::unique_ptr<StreamDecoder> decoder()
{
    return std::make_unique<Decoder>();
}

std::unique_ptr<StreamEncoder> encoder(bool includeUsage)
{
    return std::make_unique<Encoder>(includeUsage);
}

} // namespace Aile::Translate::Chat
