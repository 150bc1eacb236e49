#include "ChatWire.h"

#include "Common.h"

#include <QtCore/QJsonArray>

namespace Aile::Translate::Chat {

namespace {

bool readPart(const QString &type, const QJsonObject &item, Part &p)
{
    if (type == QLatin1String("text") || type == QLatin1String("refusal")) {
        p = textPart(str(item, type == QLatin1String("text") ? "text" : "refusal"));
        // OpenRouter-style breakpoints on chat parts, for an Anthropic-speaking target.
        p.cacheControl = item.value(QLatin1String("cache_control"));
        return true;
    }
    if (type != QLatin1String("image_url"))
        return false; // input_audio, file
    p.kind = Part::Kind::Image;
    const QJsonValue url = item.value(QLatin1String("image_url"));
    p.imageUrl = url.isString() ? url.toString() : url.toObject().value(QLatin1String("url")).toString();
    return true;
}

QList<Part> readContent(const QJsonValue &content, const QString &where, Notes &notes)
{
    return readParts(content, where, notes, readPart);
}

// Fields a chat request may carry at their neutral value without changing the answer.
bool neutral(const QString &key, const QJsonValue &v)
{
    if (key == QLatin1String("n"))
        return v.toInt(1) == 1;
    if (key == QLatin1String("frequency_penalty") || key == QLatin1String("presence_penalty"))
        return v.toDouble() == 0;
    if (key == QLatin1String("logprobs"))
        return !v.toBool();
    if (key == QLatin1String("response_format"))
        return v.toObject().value(QLatin1String("type")).toString() == QLatin1String("text");
    if (key == QLatin1String("modalities"))
        return v.toArray() == QJsonArray{QStringLiteral("text")};
    return false;
}

} // namespace

Request readRequest(const QJsonObject &body, Notes &notes)
{
    static const QStringList known{"model",
                                   "messages",
                                   "tools",
                                   "tool_choice",
                                   "parallel_tool_calls",
                                   "max_tokens",
                                   "max_completion_tokens",
                                   "temperature",
                                   "top_p",
                                   "stop",
                                   "stream",
                                   "stream_options",
                                   "user",
                                   "metadata",
                                   "store",
                                   "reasoning_effort",
                                   "prompt_cache_key",
                                   "seed",
                                   "service_tier",
                                   "safety_identifier"};
    static const QStringList neutralOnly{"n", "frequency_penalty", "presence_penalty", "logprobs", "response_format", "modalities"};
    for (auto it = body.begin(); it != body.end(); ++it) {
        if (neutralOnly.contains(it.key()) ? !neutral(it.key(), it.value()) : !known.contains(it.key()))
            notes.refuse(it.key());
    }
    for (const char *k : {"metadata", "store", "seed", "service_tier", "safety_identifier", "user"})
        if (body.contains(QLatin1String(k)))
            notes.drop(QLatin1String(k));
    Request r;
    r.model = str(body, "model");
    const QJsonArray messages = body.value(QLatin1String("messages")).toArray();
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonObject m = messages.at(i).toObject();
        const QString where = QStringLiteral("messages[%1]").arg(i);
        QString role = str(m, "role");
        if (role == QLatin1String("developer"))
            role = QStringLiteral("system");
        Turn t{role, {}};
        if (role == QLatin1String("tool")) {
            Part p;
            p.kind = Part::Kind::ToolResult;
            p.id = str(m, "tool_call_id");
            p.content = readContent(m.value(QLatin1String("content")), where, notes);
            p.text = joinedText(p.content);
            t.parts.append(p);
        } else if (role == QLatin1String("system") || role == QLatin1String("user") || role == QLatin1String("assistant")) {
            t.parts = readContent(m.value(QLatin1String("content")), where, notes);
            if (m.contains(QLatin1String("reasoning_content")))
                notes.drop(QStringLiteral("messages[].reasoning_content (reasoning without a signature or summary)"));
            const QJsonArray calls = m.value(QLatin1String("tool_calls")).toArray();
            for (qsizetype j = 0; j < calls.size(); ++j) {
                const QJsonObject c = calls.at(j).toObject();
                if (str(c, "type") != QLatin1String("function")) {
                    notes.refuse(where + QStringLiteral(".tool_calls[%1].type=").arg(j) + str(c, "type"));
                    continue;
                }
                const QJsonObject f = c.value(QLatin1String("function")).toObject();
                t.parts.append(toolCallPart(str(c, "id"), str(f, "name"), str(f, "arguments")));
            }
        } else {
            notes.refuse(where + QStringLiteral(".role=") + role);
        }
        if (role == QLatin1String("system") && r.turns.isEmpty())
            r.system += t.parts; // the opening instructions, as the other wires hold them
        else
            r.turns.append(t);
    }
    const QJsonArray tools = body.value(QLatin1String("tools")).toArray();
    for (qsizetype i = 0; i < tools.size(); ++i) {
        const QJsonObject t = tools.at(i).toObject();
        if (str(t, "type") != QLatin1String("function")) {
            notes.refuse(QStringLiteral("tools[%1].type=").arg(i) + str(t, "type"));
            continue;
        }
        const QJsonObject f = t.value(QLatin1String("function")).toObject();
        r.tools.append({str(f, "name"), str(f, "description"), f.value(QLatin1String("parameters")).toObject(), {}});
    }
    const QJsonValue choice = body.value(QLatin1String("tool_choice"));
    if (choice.isString())
        r.toolChoice = choice.toString();
    else if (choice.isObject())
        r.toolChoice = QStringLiteral("tool:") + str(choice.toObject().value(QLatin1String("function")).toObject(), "name");
    if (body.contains(QLatin1String("parallel_tool_calls")))
        r.parallelToolCalls = body.value(QLatin1String("parallel_tool_calls")).toBool() ? 1 : 0;
    r.maxTokens = tokenCount(body.value(QLatin1String("max_completion_tokens")));
    if (r.maxTokens < 0)
        r.maxTokens = tokenCount(body.value(QLatin1String("max_tokens")));
    r.temperature = body.value(QLatin1String("temperature"));
    r.topP = body.value(QLatin1String("top_p"));
    const QJsonValue stop = body.value(QLatin1String("stop"));
    if (stop.isString())
        r.stop.append(stop.toString());
    for (const QJsonValue &s : stop.toArray())
        r.stop.append(s.toString());
    r.stream = body.value(QLatin1String("stream")).toBool();
    r.reasoningEffort = str(body, "reasoning_effort");
    r.promptCacheKey = str(body, "prompt_cache_key");
    return r;
}

QJsonObject writeRequest(const Request &r, Notes &notes, const Options &options)
{
    QJsonArray messages;
    bool cacheMarks = false;
    auto textOrParts = [&](const QList<Part> &parts) -> QJsonValue {
        bool images = false;
        for (const Part &p : parts) {
            images = images || p.kind == Part::Kind::Image;
            cacheMarks = cacheMarks || p.cacheControl.isObject();
        }
        if (!images)
            return joinedText(parts);
        QJsonArray items;
        for (const Part &p : parts) {
            if (p.kind == Part::Kind::Text)
                items.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), p.text}});
            else if (p.kind == Part::Kind::Image)
                items.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("image_url")},
                                         {QStringLiteral("image_url"), QJsonObject{{QStringLiteral("url"), p.imageUrl}}}});
        }
        return items;
    };
    if (!r.system.isEmpty())
        messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("system")}, {QStringLiteral("content"), textOrParts(r.system)}});
    for (const Turn &t : r.turns) {
        QList<Part> plain;
        QJsonArray calls;
        QList<Part> resultImages;
        for (const Part &p : t.parts) {
            cacheMarks = cacheMarks || p.cacheControl.isObject();
            if (p.kind == Part::Kind::ToolResult) {
                // A tool message holds text only; its images follow in a user message, in order.
                messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("tool")},
                                            {QStringLiteral("tool_call_id"), p.id},
                                            {QStringLiteral("content"), p.isError ? QStringLiteral("Error: ") + p.text : p.text}});
                for (const Part &q : p.content)
                    if (q.kind == Part::Kind::Image)
                        resultImages.append(q);
            } else if (p.kind == Part::Kind::ToolCall) {
                calls.append(QJsonObject{
                    {QStringLiteral("id"), p.id},
                    {QStringLiteral("type"), QStringLiteral("function")},
                    {QStringLiteral("function"), QJsonObject{{QStringLiteral("name"), p.name}, {QStringLiteral("arguments"), p.arguments}}}});
            } else if (p.kind == Part::Kind::Reasoning) {
                notes.drop(QStringLiteral("reasoning in earlier turns (the chat wire carries none)"));
            } else {
                plain.append(p);
            }
        }
        if (!resultImages.isEmpty())
            messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), textOrParts(resultImages)}});
        if (t.role == QLatin1String("assistant")) {
            QJsonObject m{{QStringLiteral("role"), t.role}};
            const QString text = joinedText(plain);
            m.insert(QStringLiteral("content"), text.isEmpty() ? QJsonValue() : QJsonValue(text));
            if (!calls.isEmpty())
                m.insert(QStringLiteral("tool_calls"), calls);
            messages.append(m);
        } else if (!plain.isEmpty()) {
            messages.append(QJsonObject{{QStringLiteral("role"), t.role == QLatin1String("system") ? t.role : QStringLiteral("user")},
                                        {QStringLiteral("content"), textOrParts(plain)}});
        }
    }
    QJsonObject body{{QStringLiteral("model"), r.model}, {QStringLiteral("messages"), messages}};
    if (!r.tools.isEmpty()) {
        QJsonArray tools;
        for (const Tool &t : r.tools) {
            cacheMarks = cacheMarks || t.cacheControl.isObject();
            QJsonObject f{{QStringLiteral("name"), t.name}, {QStringLiteral("parameters"), t.schema}};
            if (!t.description.isEmpty())
                f.insert(QStringLiteral("description"), t.description);
            tools.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("function")}, {QStringLiteral("function"), f}});
        }
        body.insert(QStringLiteral("tools"), tools);
        if (r.parallelToolCalls >= 0)
            body.insert(QStringLiteral("parallel_tool_calls"), r.parallelToolCalls == 1);
    }
    if (r.toolChoice.startsWith(QLatin1String("tool:")))
        body.insert(QStringLiteral("tool_choice"),
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("function")},
                                {QStringLiteral("function"), QJsonObject{{QStringLiteral("name"), r.toolChoice.mid(5)}}}});
    else if (!r.toolChoice.isEmpty())
        body.insert(QStringLiteral("tool_choice"), r.toolChoice);
    if (r.maxTokens > 0) // OpenAI's own models refuse max_tokens; most compatible providers know only it
        body.insert(options.maxCompletionTokens ? QStringLiteral("max_completion_tokens") : QStringLiteral("max_tokens"), r.maxTokens);
    if (!r.temperature.isUndefined() && !r.temperature.isNull())
        body.insert(QStringLiteral("temperature"), r.temperature);
    if (!r.topP.isUndefined() && !r.topP.isNull())
        body.insert(QStringLiteral("top_p"), r.topP);
    if (!r.stop.isEmpty())
        body.insert(QStringLiteral("stop"), QJsonArray::fromStringList(r.stop));
    if (r.stream) {
        body.insert(QStringLiteral("stream"), true);
        // Without it a chat stream reports no usage, and the ledger would have nothing to bill.
        body.insert(QStringLiteral("stream_options"), QJsonObject{{QStringLiteral("include_usage"), true}});
    }
    if (!r.reasoningEffort.isEmpty())
        body.insert(QStringLiteral("reasoning_effort"), r.reasoningEffort);
    endOpenAIRequest(body, r, cacheMarks, notes, options);
    return body;
}

QString finishReason(const QString &stop)
{
    if (stop == QLatin1String("length"))
        return stop;
    if (stop == QLatin1String("tool"))
        return QStringLiteral("tool_calls");
    if (stop == QLatin1String("refusal"))
        return QStringLiteral("content_filter");
    return QStringLiteral("stop");
}

QString stopFrom(const QString &finishReason)
{
    if (finishReason == QLatin1String("length"))
        return finishReason;
    if (finishReason == QLatin1String("tool_calls") || finishReason == QLatin1String("function_call"))
        return QStringLiteral("tool");
    if (finishReason == QLatin1String("content_filter"))
        return QStringLiteral("refusal");
    return QStringLiteral("end");
}

Usage readUsage(const QJsonObject &usage)
{
    return readOpenAIUsage(usage, QStringLiteral("prompt"), QStringLiteral("completion"));
}

QJsonObject writeUsage(const Usage &u)
{
    return writeOpenAIUsage(u, QStringLiteral("prompt"), QStringLiteral("completion"));
}

Answer readAnswer(const QJsonObject &body, Notes &notes)
{
    Answer a;
    a.id = str(body, "id");
    a.model = str(body, "model");
    a.created = tokenCount(body.value(QLatin1String("created")));
    const QJsonObject choice = body.value(QLatin1String("choices")).toArray().at(0).toObject();
    const QJsonObject m = choice.value(QLatin1String("message")).toObject();
    if (m.contains(QLatin1String("reasoning_content")))
        notes.drop(QStringLiteral("reasoning_content (reasoning without a summary the client wire can carry)"));
    if (!str(m, "content").isEmpty())
        a.parts.append(textPart(str(m, "content")));
    if (!str(m, "refusal").isEmpty())
        a.parts.append(textPart(str(m, "refusal")));
    for (const QJsonValue &v : m.value(QLatin1String("tool_calls")).toArray()) {
        const QJsonObject f = v.toObject().value(QLatin1String("function")).toObject();
        a.parts.append(toolCallPart(str(v.toObject(), "id"), str(f, "name"), str(f, "arguments")));
    }
    a.stop = stopFrom(str(choice, "finish_reason"));
    a.usage = readUsage(body.value(QLatin1String("usage")).toObject());
    return a;
}

QJsonObject writeAnswer(const Answer &a, Notes &notes)
{
    QJsonArray calls;
    QList<Part> texts;
    for (const Part &p : a.parts) {
        if (p.kind == Part::Kind::ToolCall)
            calls.append(
                QJsonObject{{QStringLiteral("id"), p.id},
                            {QStringLiteral("type"), QStringLiteral("function")},
                            {QStringLiteral("function"), QJsonObject{{QStringLiteral("name"), p.name}, {QStringLiteral("arguments"), p.arguments}}}});
        else if (p.kind == Part::Kind::Reasoning)
            notes.drop(QStringLiteral("reasoning (the chat wire carries none)"));
        else
            texts.append(p);
    }
    const QString text = joinedText(texts);
    QJsonObject message{{QStringLiteral("role"), QStringLiteral("assistant")},
                        {QStringLiteral("content"), text.isEmpty() && !calls.isEmpty() ? QJsonValue() : QJsonValue(text)},
                        {QStringLiteral("refusal"), QJsonValue()}};
    if (!calls.isEmpty())
        message.insert(QStringLiteral("tool_calls"), calls);
    const QJsonObject choice{{QStringLiteral("index"), 0},
                             {QStringLiteral("message"), message},
                             {QStringLiteral("logprobs"), QJsonValue()},
                             {QStringLiteral("finish_reason"), finishReason(a.stop)}};
    return {{QStringLiteral("id"), a.id},
            {QStringLiteral("object"), QStringLiteral("chat.completion")},
            {QStringLiteral("created"), a.created},
            {QStringLiteral("model"), a.model},
            {QStringLiteral("choices"), QJsonArray{choice}},
            {QStringLiteral("usage"), writeUsage(a.usage)}};
}

} // namespace Aile::Translate::Chat
