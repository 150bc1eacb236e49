#include "ResponsesWire.h"

#include "Common.h"
#include "CustomTools.h"
#include "ForeignReasoning.h"

#include <QtCore/QJsonArray>

namespace Aile::Translate::Responses {

namespace {

bool readPart(const QString &type, const QJsonObject &item, Part &p)
{
    if (type == QLatin1String("input_text") || type == QLatin1String("output_text") || type == QLatin1String("refusal")) {
        p = textPart(str(item, type == QLatin1String("refusal") ? "refusal" : "text"));
        return true;
    }
    if (type != QLatin1String("input_image") || str(item, "image_url").isEmpty())
        return false; // input_file, an image by file_id: nothing another provider can fetch
    p.kind = Part::Kind::Image;
    p.imageUrl = str(item, "image_url");
    return true;
}

QList<Part> readContent(const QJsonValue &content, const QString &where, Notes &notes)
{
    return readParts(content, where, notes, readPart);
}

QJsonArray writeContent(const QList<Part> &parts, bool assistant)
{
    QJsonArray items;
    for (const Part &p : parts) {
        if (p.kind == Part::Kind::Text && !p.text.isEmpty())
            items.append(QJsonObject{{QStringLiteral("type"), assistant ? QStringLiteral("output_text") : QStringLiteral("input_text")},
                                     {QStringLiteral("text"), p.text}});
        else if (p.kind == Part::Kind::Image)
            items.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("input_image")}, {QStringLiteral("image_url"), p.imageUrl}});
    }
    return items;
}

Turn &assistantTurn(Request &r)
{
    if (r.turns.isEmpty() || r.turns.last().role != QLatin1String("assistant"))
        r.turns.append({QStringLiteral("assistant"), {}});
    return r.turns.last();
}

} // namespace

Request readRequest(const QJsonObject &body, Notes &notes)
{
    static const QStringList known{"model",
                                   "input",
                                   "instructions",
                                   "tools",
                                   "tool_choice",
                                   "parallel_tool_calls",
                                   "max_output_tokens",
                                   "temperature",
                                   "top_p",
                                   "stream",
                                   "store",
                                   "include",
                                   "reasoning",
                                   "prompt_cache_key",
                                   "client_metadata",
                                   "metadata",
                                   "user",
                                   "safety_identifier",
                                   "service_tier",
                                   "text",
                                   "truncation",
                                   "stream_options"};
    for (auto it = body.begin(); it != body.end(); ++it)
        if (!known.contains(it.key()))
            notes.refuse(it.key()); // previous_response_id, conversation, background: state kept at OpenAI
    for (const char *k : {"client_metadata", "metadata", "user", "safety_identifier", "service_tier", "truncation", "store"})
        if (body.contains(QLatin1String(k)))
            notes.drop(QLatin1String(k));
    Request r;
    r.model = str(body, "model");
    if (!str(body, "instructions").isEmpty())
        r.system.append(textPart(str(body, "instructions")));
    const QJsonValue input = body.value(QLatin1String("input"));
    if (input.isString())
        r.turns.append({QStringLiteral("user"), {textPart(input.toString())}});
    const QJsonArray items = input.toArray();
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QJsonObject item = items.at(i).toObject();
        const QString where = QStringLiteral("input[%1]").arg(i);
        const QString type = item.contains(QLatin1String("type")) ? str(item, "type") : QStringLiteral("message");
        if (type == QLatin1String("message")) {
            QString role = str(item, "role");
            if (role == QLatin1String("developer"))
                role = QStringLiteral("system");
            const QList<Part> parts = readContent(item.value(QLatin1String("content")), where, notes);
            if (role == QLatin1String("assistant"))
                assistantTurn(r).parts += parts;
            else if (role == QLatin1String("system") && r.turns.isEmpty())
                r.system += parts;
            else if (role == QLatin1String("system") || role == QLatin1String("user"))
                r.turns.append({role, parts});
            else
                notes.refuse(where + QStringLiteral(".role=") + role);
        } else if (type == QLatin1String("function_call")) {
            assistantTurn(r).parts.append(toolCallPart(str(item, "call_id"), str(item, "name"), str(item, "arguments")));
        } else if (type == QLatin1String("custom_tool_call")) {
            assistantTurn(r).parts.append(callForCustomInput(str(item, "call_id"), str(item, "name"), str(item, "input")));
        } else if (type == QLatin1String("function_call_output") || type == QLatin1String("custom_tool_call_output")) {
            Part p;
            p.kind = Part::Kind::ToolResult;
            p.id = str(item, "call_id");
            p.content = readContent(item.value(QLatin1String("output")), where + QStringLiteral(".output"), notes);
            p.text = joinedText(p.content);
            r.turns.append({QStringLiteral("tool"), {p}});
        } else if (type == QLatin1String("reasoning")) {
            notes.drop(QStringLiteral("input[].reasoning (encrypted reasoning is never sent to another provider)"));
        } else {
            notes.refuse(where + QStringLiteral(".type=") + type);
        }
    }
    const QJsonArray tools = body.value(QLatin1String("tools")).toArray();
    for (qsizetype i = 0; i < tools.size(); ++i) {
        const QJsonObject t = tools.at(i).toObject();
        if (str(t, "type") == QLatin1String("custom")) { // Codex's apply_patch: a string parameter on the other wire
            r.tools.append(functionToolForCustom(t));
            r.customTools.append(str(t, "name"));
            continue;
        }
        if (str(t, "type") != QLatin1String("function")) {
            notes.refuse(QStringLiteral("tools[%1].type=").arg(i) + str(t, "type"));
            continue;
        }
        r.tools.append({str(t, "name"), str(t, "description"), t.value(QLatin1String("parameters")).toObject(), {}});
    }
    const QJsonValue choice = body.value(QLatin1String("tool_choice"));
    if (choice.isString())
        r.toolChoice = choice.toString();
    else if (choice.isObject()
             && (str(choice.toObject(), "type") == QLatin1String("function") || str(choice.toObject(), "type") == QLatin1String("custom")))
        r.toolChoice = QStringLiteral("tool:") + str(choice.toObject(), "name");
    else if (choice.isObject())
        notes.refuse(QStringLiteral("tool_choice.type=") + str(choice.toObject(), "type"));
    if (body.contains(QLatin1String("parallel_tool_calls")))
        r.parallelToolCalls = body.value(QLatin1String("parallel_tool_calls")).toBool() ? 1 : 0;
    r.maxTokens = tokenCount(body.value(QLatin1String("max_output_tokens")));
    r.temperature = body.value(QLatin1String("temperature"));
    r.topP = body.value(QLatin1String("top_p"));
    r.stream = body.value(QLatin1String("stream")).toBool();
    r.reasoningEffort = str(body.value(QLatin1String("reasoning")).toObject(), "effort");
    r.promptCacheKey = str(body, "prompt_cache_key");
    const QJsonObject text = body.value(QLatin1String("text")).toObject();
    const QString format = str(text.value(QLatin1String("format")).toObject(), "type");
    if (!format.isEmpty() && format != QLatin1String("text"))
        notes.refuse(QStringLiteral("text.format.type=") + format);
    if (text.contains(QLatin1String("verbosity")))
        notes.drop(QStringLiteral("text.verbosity"));
    if (body.contains(QLatin1String("include")))
        notes.drop(QStringLiteral("include (reasoning.encrypted_content is never asked of another provider)"));
    return r;
}

QJsonObject writeRequest(const Request &r, Notes &notes, const Options &options)
{
    QJsonArray input;
    bool cacheMarks = false;
    for (const Part &p : r.system)
        cacheMarks = cacheMarks || p.cacheControl.isObject();
    for (const Turn &t : r.turns) {
        const bool assistant = t.role == QLatin1String("assistant");
        QList<Part> plain;
        auto flushPlain = [&] {
            const QJsonArray content = writeContent(plain, assistant);
            if (!content.isEmpty())
                input.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("message")},
                                         {QStringLiteral("role"), assistant || t.role == QLatin1String("system") ? t.role : QStringLiteral("user")},
                                         {QStringLiteral("content"), content}});
            plain.clear();
        };
        for (const Part &p : t.parts) {
            cacheMarks = cacheMarks || p.cacheControl.isObject();
            if (p.kind == Part::Kind::ToolCall) {
                flushPlain();
                input.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("function_call")},
                                         {QStringLiteral("call_id"), p.id},
                                         {QStringLiteral("name"), p.name},
                                         {QStringLiteral("arguments"), p.arguments}});
            } else if (p.kind == Part::Kind::ToolResult) {
                flushPlain();
                bool images = false;
                for (const Part &q : p.content)
                    images = images || q.kind == Part::Kind::Image;
                const QString text = p.isError ? QStringLiteral("Error: ") + p.text : p.text;
                input.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("function_call_output")},
                                         {QStringLiteral("call_id"), p.id},
                                         {QStringLiteral("output"), images ? QJsonValue(writeContent(p.content, false)) : QJsonValue(text)}});
            } else if (p.kind == Part::Kind::Reasoning) {
                notes.drop(QStringLiteral("reasoning in earlier turns"));
            } else {
                plain.append(p);
            }
        }
        flushPlain();
    }
    QJsonObject body{{QStringLiteral("model"), r.model},
                     {QStringLiteral("input"), input},
                     // A translated exchange leaves nothing stored at the provider to refer back to.
                     {QStringLiteral("store"), false}};
    if (!r.system.isEmpty())
        body.insert(QStringLiteral("instructions"), joinedText(r.system));
    if (!r.tools.isEmpty()) {
        QJsonArray tools;
        for (const Tool &t : r.tools) {
            cacheMarks = cacheMarks || t.cacheControl.isObject();
            QJsonObject o{{QStringLiteral("type"), QStringLiteral("function")},
                          {QStringLiteral("name"), t.name},
                          {QStringLiteral("parameters"), t.schema},
                          {QStringLiteral("strict"), false}};
            if (!t.description.isEmpty())
                o.insert(QStringLiteral("description"), t.description);
            tools.append(o);
        }
        body.insert(QStringLiteral("tools"), tools);
        if (r.parallelToolCalls >= 0)
            body.insert(QStringLiteral("parallel_tool_calls"), r.parallelToolCalls == 1);
    }
    if (r.toolChoice.startsWith(QLatin1String("tool:")))
        body.insert(QStringLiteral("tool_choice"),
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("function")}, {QStringLiteral("name"), r.toolChoice.mid(5)}});
    else if (!r.toolChoice.isEmpty())
        body.insert(QStringLiteral("tool_choice"), r.toolChoice);
    if (r.maxTokens > 0)
        body.insert(QStringLiteral("max_output_tokens"), r.maxTokens);
    if (!r.temperature.isUndefined() && !r.temperature.isNull())
        body.insert(QStringLiteral("temperature"), r.temperature);
    if (!r.topP.isUndefined() && !r.topP.isNull())
        body.insert(QStringLiteral("top_p"), r.topP);
    if (!r.stop.isEmpty())
        notes.refuse(QStringLiteral("stop sequences")); // the Responses wire has none: the answer would run on
    if (r.stream)
        body.insert(QStringLiteral("stream"), true);
    if (!r.reasoningEffort.isEmpty())
        body.insert(QStringLiteral("reasoning"),
                    QJsonObject{{QStringLiteral("effort"), r.reasoningEffort}, {QStringLiteral("summary"), QStringLiteral("auto")}});
    endOpenAIRequest(body, r, cacheMarks, notes, options);
    return body;
}

Usage readUsage(const QJsonObject &usage)
{
    return readOpenAIUsage(usage, QStringLiteral("input"), QStringLiteral("output"));
}

QJsonObject writeUsage(const Usage &u)
{
    return writeOpenAIUsage(u, QStringLiteral("input"), QStringLiteral("output"));
}

Answer readAnswer(const QJsonObject &body, Notes &notes)
{
    Answer a;
    a.id = str(body, "id");
    a.model = str(body, "model");
    a.created = tokenCount(body.value(QLatin1String("created_at")));
    bool calls = false;
    for (const QJsonValue &v : body.value(QLatin1String("output")).toArray()) {
        const QJsonObject item = v.toObject();
        const QString type = str(item, "type");
        if (type == QLatin1String("message")) {
            Notes ignored;
            a.parts += readContent(item.value(QLatin1String("content")), QString(), ignored);
        } else if (type == QLatin1String("function_call")) {
            a.parts.append(toolCallPart(str(item, "call_id"), str(item, "name"), str(item, "arguments")));
            calls = true;
        } else if (type == QLatin1String("reasoning")) {
            QStringList summary;
            for (const QJsonValue &s : item.value(QLatin1String("summary")).toArray())
                summary.append(str(s.toObject(), "text"));
            if (item.contains(QLatin1String("encrypted_content")))
                notes.drop(QStringLiteral("reasoning.encrypted_content (encrypted reasoning stays with its provider)"));
            if (!summary.isEmpty()) {
                Part p;
                p.kind = Part::Kind::Reasoning;
                p.text = summary.join(QStringLiteral("\n\n"));
                a.parts.append(p);
            }
        }
    }
    const QString reason = str(body.value(QLatin1String("incomplete_details")).toObject(), "reason");
    if (reason == QLatin1String("max_output_tokens"))
        a.stop = QStringLiteral("length");
    else if (reason == QLatin1String("content_filter"))
        a.stop = QStringLiteral("refusal");
    else if (calls)
        a.stop = QStringLiteral("tool");
    a.usage = readUsage(body.value(QLatin1String("usage")).toObject());
    return a;
}

QJsonObject outputItem(const Part &p, const QString &id, bool custom)
{
    switch (p.kind) {
    case Part::Kind::ToolCall:
        if (custom)
            return {{QStringLiteral("type"), QStringLiteral("custom_tool_call")},
                    {QStringLiteral("id"), QString(QStringLiteral("ctc_") + id)},
                    {QStringLiteral("status"), QStringLiteral("completed")},
                    {QStringLiteral("call_id"), p.id},
                    {QStringLiteral("name"), p.name},
                    {QStringLiteral("input"), customInput(p.arguments)}};
        return {{QStringLiteral("type"), QStringLiteral("function_call")},
                {QStringLiteral("id"), QString(QStringLiteral("fc_") + id)},
                {QStringLiteral("status"), QStringLiteral("completed")},
                {QStringLiteral("call_id"), p.id},
                {QStringLiteral("name"), p.name},
                {QStringLiteral("arguments"), p.arguments}};
    case Part::Kind::Reasoning:
        return {{QStringLiteral("type"), QStringLiteral("reasoning")},
                {QStringLiteral("id"), translatedReasoningId(id)},
                {QStringLiteral("summary"),
                 QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("summary_text")}, {QStringLiteral("text"), p.text}}}}};
    default: {
        const QJsonObject text{
            {QStringLiteral("type"), QStringLiteral("output_text")}, {QStringLiteral("text"), p.text}, {QStringLiteral("annotations"), QJsonArray()}};
        return {{QStringLiteral("type"), QStringLiteral("message")},
                {QStringLiteral("id"), QString(QStringLiteral("msg_") + id)},
                {QStringLiteral("status"), QStringLiteral("completed")},
                {QStringLiteral("role"), QStringLiteral("assistant")},
                {QStringLiteral("content"), QJsonArray{text}}};
    }
    }
}

void writeStatus(QJsonObject &response, const QString &stop)
{
    const bool cut = stop == QLatin1String("length") || stop == QLatin1String("refusal");
    response.insert(QStringLiteral("status"), cut ? QStringLiteral("incomplete") : QStringLiteral("completed"));
    response.insert(QStringLiteral("incomplete_details"),
                    cut ? QJsonValue(QJsonObject{{QStringLiteral("reason"), stop == QLatin1String("length") ? QStringLiteral("max_output_tokens")
                                                                                                            : QStringLiteral("content_filter")}})
                        : QJsonValue());
}

QJsonObject writeAnswer(const Answer &a, Notes &notes)
{
    Q_UNUSED(notes)
    QJsonArray output;
    for (qsizetype i = 0; i < a.parts.size(); ++i) {
        const Part &p = a.parts.at(i);
        if (p.kind == Part::Kind::Text && p.text.isEmpty())
            continue;
        output.append(outputItem(p, QStringLiteral("%1_%2").arg(a.id).arg(i), p.kind == Part::Kind::ToolCall && a.customTools.contains(p.name)));
    }
    QJsonObject response{{QStringLiteral("id"), a.id},
                         {QStringLiteral("object"), QStringLiteral("response")},
                         {QStringLiteral("created_at"), a.created},
                         {QStringLiteral("model"), a.model},
                         {QStringLiteral("output"), output},
                         {QStringLiteral("usage"), writeUsage(a.usage)}};
    writeStatus(response, a.stop);
    return response;
}

} // namespace Aile::Translate::Responses
