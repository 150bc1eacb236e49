#include "ResponsesStream.h"
#include "ResponsesWire.h"

#include "Common.h"
#include "CustomTools.h"
#include "wire/Wire.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

// The Responses stream: response.created, then per output item output_item.added, its deltas
// (output_text, function_call_arguments, reasoning_summary_text) and output_item.done, and
// response.completed (or .incomplete / .failed) holding the usage.
namespace Aile::Translate::Responses {

namespace {

int statusForCode(const QString &code)
{
    if (code.contains(QLatin1String("rate_limit")))
        return 429;
    if (code.contains(QLatin1String("invalid")))
        return 400;
    return 500;
}

class Decoder final : public StreamDecoder
{
public:
    QList<StreamEvent> decode(const Wire::SseEvent &sse) override
    {
        const QJsonObject o = QJsonDocument::fromJson(sse.data).object();
        const QString type = str(o, "type");
        QList<StreamEvent> out;
        StreamEvent e;
        if (type == QLatin1String("response.created")) {
            const QJsonObject r = o.value(QLatin1String("response")).toObject();
            e.kind = StreamEvent::Kind::Start;
            e.id = str(r, "id");
            e.name = str(r, "model");
            out.append(e);
        } else if (type == QLatin1String("response.output_item.added")) {
            const QJsonObject item = o.value(QLatin1String("item")).toObject();
            if (str(item, "type") == QLatin1String("function_call")) {
                e.kind = StreamEvent::Kind::ToolCall;
                e.call = int(m_calls.size());
                m_calls.insert(str(item, "id"), e.call);
                e.id = str(item, "call_id");
                e.name = str(item, "name");
                out.append(e);
            }
        } else if (type == QLatin1String("response.output_text.delta") || type == QLatin1String("response.refusal.delta")) {
            e.text = str(o, "delta");
            out.append(e);
        } else if (type == QLatin1String("response.reasoning_summary_text.delta")) {
            e.kind = StreamEvent::Kind::Reasoning;
            e.text = str(o, "delta");
            out.append(e);
        } else if (type == QLatin1String("response.function_call_arguments.delta")) {
            e.kind = StreamEvent::Kind::ToolArguments;
            e.call = m_calls.value(str(o, "item_id"));
            e.text = str(o, "delta");
            m_argued.insert(e.call);
            out.append(e);
        } else if (type == QLatin1String("response.output_item.done")) {
            const QJsonObject item = o.value(QLatin1String("item")).toObject();
            if (item.contains(QLatin1String("encrypted_content")))
                notes.drop(QStringLiteral("reasoning.encrypted_content (encrypted reasoning stays with its provider)"));
            const int call = m_calls.value(str(item, "id"), -1);
            // Some providers send a call's arguments whole, in the item's done event only.
            if (call >= 0 && !m_argued.contains(call) && !str(item, "arguments").isEmpty()) {
                e.kind = StreamEvent::Kind::ToolArguments;
                e.call = call;
                e.text = str(item, "arguments");
                out.append(e);
            }
        } else if (type == QLatin1String("response.completed") || type == QLatin1String("response.incomplete")) {
            Notes ignored;
            const Answer a = readAnswer(o.value(QLatin1String("response")).toObject(), ignored);
            e.kind = StreamEvent::Kind::Finish;
            e.stop = a.stop == QLatin1String("end") && !m_calls.isEmpty() ? QStringLiteral("tool") : a.stop;
            e.usage = a.usage;
            out.append(e);
        } else if (type == QLatin1String("response.failed") || type == QLatin1String("error")) {
            const QJsonObject err =
                type == QLatin1String("error") ? o : o.value(QLatin1String("response")).toObject().value(QLatin1String("error")).toObject();
            e.kind = StreamEvent::Kind::Error;
            e.status = statusForCode(str(err, "code"));
            e.text = str(err, "message");
            out.append(e);
        }
        return out;
    }

private:
    QHash<QString, int> m_calls; // function_call item id → tool call index
    QSet<int> m_argued;
};

class Encoder final : public StreamEncoder
{
public:
    QByteArray encode(const StreamEvent &e) override
    {
        switch (e.kind) {
        case StreamEvent::Kind::Start: {
            m_id = e.id;
            m_model = e.name;
            QJsonObject r = response();
            r.insert(QStringLiteral("status"), QStringLiteral("in_progress"));
            QByteArray out = event("response.created", {{QStringLiteral("response"), r}});
            return out + event("response.in_progress", {{QStringLiteral("response"), r}});
        }
        case StreamEvent::Kind::Text: {
            QByteArray out = open(Part::Kind::Text, {});
            m_text += e.text;
            return out
                   + event("response.output_text.delta", {{QStringLiteral("item_id"), m_itemId},
                                                          {QStringLiteral("output_index"), m_index},
                                                          {QStringLiteral("content_index"), 0},
                                                          {QStringLiteral("delta"), e.text},
                                                          {QStringLiteral("logprobs"), QJsonArray()}});
        }
        case StreamEvent::Kind::Reasoning: {
            QByteArray out = open(Part::Kind::Reasoning, {});
            m_text += e.text;
            return out
                   + event("response.reasoning_summary_text.delta", {{QStringLiteral("item_id"), m_itemId},
                                                                     {QStringLiteral("output_index"), m_index},
                                                                     {QStringLiteral("summary_index"), 0},
                                                                     {QStringLiteral("delta"), e.text}});
        }
        case StreamEvent::Kind::ToolCall: {
            Part call;
            call.kind = Part::Kind::ToolCall;
            call.id = e.id;
            call.name = e.name;
            if (customTools.contains(e.name))
                m_customInput.insert(e.call, CustomInputStream());
            QByteArray out = open(Part::Kind::ToolCall, call, m_customInput.contains(e.call));
            m_callItem.insert(e.call, {m_index, m_itemId});
            return out;
        }
        case StreamEvent::Kind::ToolArguments: {
            const auto [index, itemId] = m_callItem.value(e.call, {m_index, m_itemId});
            if (index == m_index)
                m_part.arguments += e.text;
            if (m_customInput.contains(e.call)) {
                // The function's JSON arguments, read as they come: the client gets the input text.
                const QString input = m_customInput[e.call].feed(e.text);
                if (input.isEmpty())
                    return {};
                return event("response.custom_tool_call_input.delta",
                             {{QStringLiteral("item_id"), itemId}, {QStringLiteral("output_index"), index}, {QStringLiteral("delta"), input}});
            }
            return event("response.function_call_arguments.delta",
                         {{QStringLiteral("item_id"), itemId}, {QStringLiteral("output_index"), index}, {QStringLiteral("delta"), e.text}});
        }
        case StreamEvent::Kind::Finish: {
            QByteArray out = close();
            QJsonObject r = response();
            r.insert(QStringLiteral("output"), m_output);
            r.insert(QStringLiteral("usage"), writeUsage(e.usage));
            writeStatus(r, e.stop);
            m_finished = true;
            const bool cut = r.value(QLatin1String("status")).toString() == QLatin1String("incomplete");
            return out + event(cut ? "response.incomplete" : "response.completed", {{QStringLiteral("response"), r}});
        }
        case StreamEvent::Kind::Error: {
            // The error event, then the terminal response.failed a Responses client waits for.
            m_finished = true;
            QByteArray out = Wire::errorEvent(Wire::Endpoint::Responses, e.status, e.text);
            QJsonObject r = response();
            r.insert(QStringLiteral("status"), QStringLiteral("failed"));
            r.insert(QStringLiteral("output"), m_output);
            r.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), Wire::errorTypeFor(Wire::ErrorShape::OpenAI, e.status)},
                                                          {QStringLiteral("message"), e.text}});
            return out + event("response.failed", {{QStringLiteral("response"), r}});
        }
        }
        return {};
    }

private:
    QJsonObject response() const
    {
        return {{QStringLiteral("id"), m_id},
                {QStringLiteral("object"), QStringLiteral("response")},
                {QStringLiteral("created_at"), 0},
                {QStringLiteral("model"), m_model},
                {QStringLiteral("output"), QJsonArray()}};
    }
    QByteArray event(const char *name, QJsonObject data)
    {
        data.insert(QStringLiteral("type"), QLatin1String(name));
        data.insert(QStringLiteral("sequence_number"), m_sequence++);
        return frame(name, data);
    }
    // Opens an output item of this kind unless one is open; a tool call always opens its own.
    QByteArray open(Part::Kind kind, const Part &part, bool custom = false)
    {
        if (m_open && m_part.kind == kind && kind != Part::Kind::ToolCall)
            return {};
        QByteArray out = close();
        m_open = true;
        m_part = part;
        m_part.kind = kind;
        m_partCustom = custom;
        m_text.clear();
        m_index = int(m_output.size());
        QJsonObject item = outputItem(m_part, QStringLiteral("%1_%2").arg(m_id).arg(m_index), m_partCustom);
        m_itemId = str(item, "id");
        item.insert(QStringLiteral("status"), QStringLiteral("in_progress"));
        if (kind == Part::Kind::Text)
            item.insert(QStringLiteral("content"), QJsonArray());
        if (kind == Part::Kind::Reasoning)
            item.insert(QStringLiteral("summary"), QJsonArray());
        out += event("response.output_item.added", {{QStringLiteral("output_index"), m_index}, {QStringLiteral("item"), item}});
        const QJsonObject empty{{QStringLiteral("type"), kind == Part::Kind::Text ? QStringLiteral("output_text") : QStringLiteral("summary_text")},
                                {QStringLiteral("text"), QString()}};
        if (kind == Part::Kind::Text)
            out += event("response.content_part.added", {{QStringLiteral("item_id"), m_itemId},
                                                         {QStringLiteral("output_index"), m_index},
                                                         {QStringLiteral("content_index"), 0},
                                                         {QStringLiteral("part"), empty}});
        if (kind == Part::Kind::Reasoning)
            out += event("response.reasoning_summary_part.added", {{QStringLiteral("item_id"), m_itemId},
                                                                   {QStringLiteral("output_index"), m_index},
                                                                   {QStringLiteral("summary_index"), 0},
                                                                   {QStringLiteral("part"), empty}});
        return out;
    }
    // The item's done events repeat its whole text: the wire asks for it, so the open item's
    // text (and only it) is kept, as is each finished item for response.completed.
    QByteArray close()
    {
        if (!m_open)
            return {};
        m_open = false;
        m_part.text = m_text;
        const QJsonObject item = outputItem(m_part, QStringLiteral("%1_%2").arg(m_id).arg(m_index), m_partCustom);
        const QJsonObject where{{QStringLiteral("item_id"), m_itemId}, {QStringLiteral("output_index"), m_index}};
        QByteArray out;
        auto with = [&](QJsonObject o) {
            for (auto it = where.begin(); it != where.end(); ++it)
                o.insert(it.key(), it.value());
            return o;
        };
        const QJsonObject part{
            {QStringLiteral("type"), m_part.kind == Part::Kind::Text ? QStringLiteral("output_text") : QStringLiteral("summary_text")},
            {QStringLiteral("text"), m_text}};
        if (m_part.kind == Part::Kind::Text) {
            out += event("response.output_text.done", with({{QStringLiteral("content_index"), 0}, {QStringLiteral("text"), m_text}}));
            out += event("response.content_part.done", with({{QStringLiteral("content_index"), 0}, {QStringLiteral("part"), part}}));
        } else if (m_part.kind == Part::Kind::Reasoning) {
            out += event("response.reasoning_summary_text.done", with({{QStringLiteral("summary_index"), 0}, {QStringLiteral("text"), m_text}}));
            out += event("response.reasoning_summary_part.done", with({{QStringLiteral("summary_index"), 0}, {QStringLiteral("part"), part}}));
        } else if (m_partCustom) {
            out += event("response.custom_tool_call_input.done", with({{QStringLiteral("input"), customInput(m_part.arguments)}}));
        } else {
            out += event("response.function_call_arguments.done", with({{QStringLiteral("arguments"), m_part.arguments}}));
        }
        m_output.append(item);
        return out + event("response.output_item.done", {{QStringLiteral("output_index"), m_index}, {QStringLiteral("item"), item}});
    }

    QString m_id;
    QString m_model;
    int m_sequence = 0;
    bool m_open = false;
    Part m_part;               // the open item
    bool m_partCustom = false; // the open item is a custom tool's call
    QString m_text;
    int m_index = -1;
    QString m_itemId;
    QJsonArray m_output;                            // finished items, for response.completed
    QHash<int, std::pair<int, QString>> m_callItem; // tool call → output index and item id
    QHash<int, CustomInputStream> m_customInput;    // a custom tool's call → its input read so far
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

} // namespace Aile::Translate::Responses
