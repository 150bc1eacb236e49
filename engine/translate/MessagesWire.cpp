#include "MessagesWire.h"

#include "Common.h"
#include "ForeignReasoning.h"

#include <QtCore/QJsonArray>

namespace Aile::Translate::Messages {

namespace {

Part readBlock(const QJsonObject &block, const QString &where, Notes &notes)
{
    const QString type = str(block, "type");
    Part p;
    if (type == QLatin1String("text")) {
        p.text = str(block, "text");
    } else if (type == QLatin1String("image")) {
        p.kind = Part::Kind::Image;
        p.imageUrl = imageUrlFromAnthropic(block.value(QLatin1String("source")).toObject());
    } else if (type == QLatin1String("tool_use")) {
        p = toolCallPart(str(block, "id"), str(block, "name"), argumentsText(block.value(QLatin1String("input")).toObject()));
    } else if (type == QLatin1String("tool_result")) {
        p.kind = Part::Kind::ToolResult;
        p.id = str(block, "tool_use_id");
        p.isError = block.value(QLatin1String("is_error")).toBool();
        const QJsonValue content = block.value(QLatin1String("content"));
        if (content.isString()) {
            p.text = content.toString();
        } else {
            const QJsonArray inner = content.toArray();
            for (qsizetype i = 0; i < inner.size(); ++i) {
                const Part q = readBlock(inner.at(i).toObject(), where + QStringLiteral(".content[%1]").arg(i), notes);
                if (q.kind != Part::Kind::Text && q.kind != Part::Kind::Image)
                    notes.refuse(where + QStringLiteral(".content[%1].type=").arg(i) + str(inner.at(i).toObject(), "type"));
                p.content.append(q);
            }
            p.text = joinedText(p.content);
        }
    } else if (type == QLatin1String("thinking") || type == QLatin1String("redacted_thinking")) {
        // Signed reasoning is the provider's own; another provider can neither check nor use it.
        p.kind = Part::Kind::Reasoning;
        notes.drop(QStringLiteral("messages[].content[].") + type + QStringLiteral(" (signed reasoning is never sent to another provider)"));
    } else {
        notes.refuse(where + QStringLiteral(".type=") + type);
    }
    p.cacheControl = block.value(QLatin1String("cache_control"));
    return p;
}

QList<Part> readContent(const QJsonValue &content, const QString &where, Notes &notes)
{
    QList<Part> parts;
    if (content.isString()) {
        parts.append(textPart(content.toString()));
        return parts;
    }
    const QJsonArray blocks = content.toArray();
    for (qsizetype i = 0; i < blocks.size(); ++i) {
        const Part p = readBlock(blocks.at(i).toObject(), where + QStringLiteral(".content[%1]").arg(i), notes);
        if (p.kind != Part::Kind::Reasoning)
            parts.append(p);
    }
    return parts;
}

QJsonObject writeBlock(const Part &p, bool keepCache)
{
    QJsonObject b;
    switch (p.kind) {
    case Part::Kind::Text: b = {{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), p.text}}; break;
    case Part::Kind::Image:
        b = {{QStringLiteral("type"), QStringLiteral("image")}, {QStringLiteral("source"), anthropicImageSource(p.imageUrl)}};
        break;
    case Part::Kind::ToolCall:
        b = {{QStringLiteral("type"), QStringLiteral("tool_use")},
             {QStringLiteral("id"), p.id},
             {QStringLiteral("name"), p.name},
             {QStringLiteral("input"), argumentsObject(p.arguments)}};
        break;
    case Part::Kind::ToolResult: {
        b = {{QStringLiteral("type"), QStringLiteral("tool_result")}, {QStringLiteral("tool_use_id"), p.id}};
        bool images = false;
        for (const Part &q : p.content)
            images = images || q.kind == Part::Kind::Image;
        if (images) {
            QJsonArray inner;
            for (const Part &q : p.content)
                inner.append(writeBlock(q, keepCache));
            b.insert(QStringLiteral("content"), inner);
        } else {
            b.insert(QStringLiteral("content"), p.text);
        }
        if (p.isError)
            b.insert(QStringLiteral("is_error"), true);
        break;
    }
    case Part::Kind::Reasoning:
        b = {{QStringLiteral("type"), QStringLiteral("thinking")},
             {QStringLiteral("thinking"), p.text},
             {QStringLiteral("signature"), translatedSignature()}}; // the proxy's mark, never a made-up signature
        break;
    }
    if (keepCache && p.cacheControl.isObject())
        b.insert(QStringLiteral("cache_control"), p.cacheControl);
    return b;
}

} // namespace

Request readRequest(const QJsonObject &body, Notes &notes)
{
    static const QStringList known{"model",       "messages",       "system", "tools",    "tool_choice", "max_tokens",         "temperature",
                                   "top_p",       "stop_sequences", "stream", "metadata", "thinking",    "context_management", "output_config",
                                   "service_tier"};
    for (auto it = body.begin(); it != body.end(); ++it)
        if (!known.contains(it.key()))
            notes.refuse(it.key());
    Request r;
    r.model = str(body, "model");
    r.system = readContent(body.value(QLatin1String("system")), QStringLiteral("system"), notes);
    const QJsonArray messages = body.value(QLatin1String("messages")).toArray();
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const QJsonObject m = messages.at(i).toObject();
        Turn t{str(m, "role"), readContent(m.value(QLatin1String("content")), QStringLiteral("messages[%1]").arg(i), notes)};
        r.turns.append(t);
    }
    const QJsonArray tools = body.value(QLatin1String("tools")).toArray();
    for (qsizetype i = 0; i < tools.size(); ++i) {
        const QJsonObject t = tools.at(i).toObject();
        const QString type = str(t, "type");
        if (!type.isEmpty() && type != QLatin1String("custom")) {
            notes.refuse(QStringLiteral("tools[%1].type=").arg(i) + type); // a server tool runs at Anthropic only
            continue;
        }
        r.tools.append(
            {str(t, "name"), str(t, "description"), t.value(QLatin1String("input_schema")).toObject(), t.value(QLatin1String("cache_control"))});
    }
    const QJsonObject choice = body.value(QLatin1String("tool_choice")).toObject();
    const QString choiceType = str(choice, "type");
    if (choiceType == QLatin1String("any"))
        r.toolChoice = QStringLiteral("required");
    else if (choiceType == QLatin1String("tool"))
        r.toolChoice = QStringLiteral("tool:") + str(choice, "name");
    else
        r.toolChoice = choiceType;
    if (choice.contains(QLatin1String("disable_parallel_tool_use")))
        r.parallelToolCalls = choice.value(QLatin1String("disable_parallel_tool_use")).toBool() ? 0 : 1;
    r.maxTokens = tokenCount(body.value(QLatin1String("max_tokens")));
    r.temperature = body.value(QLatin1String("temperature"));
    r.topP = body.value(QLatin1String("top_p"));
    for (const QJsonValue &s : body.value(QLatin1String("stop_sequences")).toArray())
        r.stop.append(s.toString());
    r.stream = body.value(QLatin1String("stream")).toBool();
    r.userId = body.value(QLatin1String("metadata")).toObject().value(QLatin1String("user_id")).toString();
    const QJsonObject thinking = body.value(QLatin1String("thinking")).toObject();
    if (str(thinking, "type") == QLatin1String("enabled"))
        r.reasoningEffort = effortForBudget(tokenCount(thinking.value(QLatin1String("budget_tokens"))));
    else if (str(thinking, "type") == QLatin1String("adaptive"))
        r.reasoningEffort = QStringLiteral("medium");
    const QJsonObject output = body.value(QLatin1String("output_config")).toObject();
    if (output.contains(QLatin1String("format")))
        notes.refuse(QStringLiteral("output_config.format"));
    if (output.contains(QLatin1String("effort")))
        r.reasoningEffort = str(output, "effort") == QLatin1String("max") ? QStringLiteral("high") : str(output, "effort");
    if (body.contains(QLatin1String("context_management")))
        notes.drop(QStringLiteral("context_management (Anthropic's server-side context editing)"));
    if (body.contains(QLatin1String("service_tier")))
        notes.drop(QStringLiteral("service_tier"));
    return r;
}

QJsonObject writeRequest(const Request &r, Notes &notes, const Options &options)
{
    QJsonObject body{{QStringLiteral("model"), r.model}};
    QList<Part> system = r.system;
    QJsonArray messages;
    QString lastRole;
    QJsonArray content;
    auto flush = [&] {
        if (!content.isEmpty())
            messages.append(QJsonObject{{QStringLiteral("role"), lastRole}, {QStringLiteral("content"), content}});
        content = {};
    };
    for (const Turn &t : r.turns) {
        if (t.role == QLatin1String("system")) { // Messages keeps instructions out of the turns
            system += t.parts;
            continue;
        }
        const QString role = t.role == QLatin1String("assistant") ? t.role : QStringLiteral("user");
        if (role != lastRole)
            flush();
        lastRole = role;
        for (const Part &p : t.parts) {
            if (p.kind == Part::Kind::Reasoning) {
                notes.drop(QStringLiteral("reasoning in earlier turns (unsigned, Anthropic would refuse it)"));
                continue;
            }
            if (p.kind == Part::Kind::Text && p.text.isEmpty())
                continue;
            content.append(writeBlock(p, true));
        }
    }
    flush();
    bool systemCache = false;
    for (const Part &p : system)
        systemCache = systemCache || p.cacheControl.isObject();
    if (systemCache) {
        QJsonArray blocks;
        for (const Part &p : system)
            blocks.append(writeBlock(p, true));
        body.insert(QStringLiteral("system"), blocks);
    } else if (!joinedText(system).isEmpty()) {
        body.insert(QStringLiteral("system"), joinedText(system));
    }
    body.insert(QStringLiteral("messages"), messages);
    if (!r.tools.isEmpty()) {
        QJsonArray tools;
        for (const Tool &t : r.tools) {
            QJsonObject o{{QStringLiteral("name"), t.name}, {QStringLiteral("input_schema"), t.schema}};
            if (!t.description.isEmpty())
                o.insert(QStringLiteral("description"), t.description);
            if (t.cacheControl.isObject())
                o.insert(QStringLiteral("cache_control"), t.cacheControl);
            tools.append(o);
        }
        body.insert(QStringLiteral("tools"), tools);
    }
    QJsonObject choice;
    if (r.toolChoice == QLatin1String("required"))
        choice = {{QStringLiteral("type"), QStringLiteral("any")}};
    else if (r.toolChoice.startsWith(QLatin1String("tool:")))
        choice = {{QStringLiteral("type"), QStringLiteral("tool")}, {QStringLiteral("name"), r.toolChoice.mid(5)}};
    else if (!r.toolChoice.isEmpty())
        choice = {{QStringLiteral("type"), r.toolChoice}};
    if (r.parallelToolCalls == 0 && !r.tools.isEmpty()) {
        if (choice.isEmpty())
            choice = {{QStringLiteral("type"), QStringLiteral("auto")}};
        choice.insert(QStringLiteral("disable_parallel_tool_use"), true);
    }
    if (!choice.isEmpty())
        body.insert(QStringLiteral("tool_choice"), choice);
    const qint64 maxTokens = r.maxTokens > 0 ? r.maxTokens : options.defaultMaxTokens;
    body.insert(QStringLiteral("max_tokens"), maxTokens);
    if (!r.temperature.isUndefined() && !r.temperature.isNull())
        body.insert(QStringLiteral("temperature"), r.temperature);
    if (!r.topP.isUndefined() && !r.topP.isNull())
        body.insert(QStringLiteral("top_p"), r.topP);
    if (!r.stop.isEmpty())
        body.insert(QStringLiteral("stop_sequences"), QJsonArray::fromStringList(r.stop));
    if (r.stream)
        body.insert(QStringLiteral("stream"), true);
    if (!r.userId.isEmpty())
        body.insert(QStringLiteral("metadata"), QJsonObject{{QStringLiteral("user_id"), r.userId}});
    if (!r.reasoningEffort.isEmpty() && r.reasoningEffort != QLatin1String("none")) {
        const qint64 budget = qMin(budgetForEffort(r.reasoningEffort), maxTokens / 2);
        const bool sampling = body.contains(QLatin1String("temperature")) || body.contains(QLatin1String("top_p"));
        // Extended thinking needs 1,024 tokens of budget under max_tokens and default sampling.
        if (budget >= 1024 && !sampling)
            body.insert(QStringLiteral("thinking"),
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("enabled")}, {QStringLiteral("budget_tokens"), budget}});
        else
            notes.drop(QStringLiteral("reasoning effort (max_tokens too small or temperature/top_p set for Anthropic thinking)"));
    }
    if (!r.promptCacheKey.isEmpty())
        notes.drop(QStringLiteral("prompt_cache_key (Anthropic caches by cache_control breakpoints)"));
    return body;
}

QString stopReason(const QString &stop)
{
    if (stop == QLatin1String("length"))
        return QStringLiteral("max_tokens");
    if (stop == QLatin1String("tool"))
        return QStringLiteral("tool_use");
    if (stop == QLatin1String("stop_sequence") || stop == QLatin1String("refusal"))
        return stop;
    return QStringLiteral("end_turn");
}

QString stopFrom(const QString &stopReason)
{
    if (stopReason == QLatin1String("max_tokens") || stopReason == QLatin1String("model_context_window_exceeded"))
        return QStringLiteral("length");
    if (stopReason == QLatin1String("tool_use"))
        return QStringLiteral("tool");
    if (stopReason == QLatin1String("stop_sequence") || stopReason == QLatin1String("refusal"))
        return stopReason;
    return QStringLiteral("end");
}

Usage readUsage(const QJsonObject &usage)
{
    Usage u;
    u.input = tokenCount(usage.value(QLatin1String("input_tokens")));
    u.output = tokenCount(usage.value(QLatin1String("output_tokens")));
    u.cacheRead = qMax<qint64>(0, tokenCount(usage.value(QLatin1String("cache_read_input_tokens"))));
    u.cacheWrite = qMax<qint64>(0, tokenCount(usage.value(QLatin1String("cache_creation_input_tokens"))));
    return u;
}

QJsonObject writeUsage(const Usage &u)
{
    return {{QStringLiteral("input_tokens"), qMax<qint64>(u.input, 0)},
            {QStringLiteral("output_tokens"), qMax<qint64>(u.output, 0)},
            {QStringLiteral("cache_read_input_tokens"), u.cacheRead},
            {QStringLiteral("cache_creation_input_tokens"), u.cacheWrite}};
}

Answer readAnswer(const QJsonObject &body, Notes &notes)
{
    Answer a;
    a.id = str(body, "id");
    a.model = str(body, "model");
    for (const QJsonValue &v : body.value(QLatin1String("content")).toArray()) {
        const QJsonObject block = v.toObject();
        const QString type = str(block, "type");
        if (type == QLatin1String("thinking")) {
            Part p;
            p.kind = Part::Kind::Reasoning;
            p.text = str(block, "thinking"); // readable; its signature stays here
            a.parts.append(p);
        } else if (type == QLatin1String("redacted_thinking")) {
            notes.drop(QStringLiteral("redacted_thinking (encrypted reasoning stays with its provider)"));
        } else {
            Notes ignored;
            a.parts.append(readBlock(block, QStringLiteral("content"), ignored));
        }
    }
    a.stop = stopFrom(str(body, "stop_reason"));
    a.stopSequence = str(body, "stop_sequence");
    a.usage = readUsage(body.value(QLatin1String("usage")).toObject());
    return a;
}

QJsonObject writeAnswer(const Answer &a, Notes &notes)
{
    Q_UNUSED(notes)
    QJsonArray content;
    for (const Part &p : a.parts)
        content.append(writeBlock(p, false));
    return {{QStringLiteral("id"), a.id},
            {QStringLiteral("type"), QStringLiteral("message")},
            {QStringLiteral("role"), QStringLiteral("assistant")},
            {QStringLiteral("model"), a.model},
            {QStringLiteral("content"), content},
            {QStringLiteral("stop_reason"), stopReason(a.stop)},
            {QStringLiteral("stop_sequence"), a.stopSequence.isEmpty() ? QJsonValue() : QJsonValue(a.stopSequence)},
            {QStringLiteral("usage"), writeUsage(a.usage)}};
}

} // namespace Aile::Translate::Messages
