#include "FakeToolCalls.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QRegularExpression>

namespace Aile::Test {

namespace {

QByteArray toolJson(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray toolEvent(const char *name, const QJsonObject &o)
{
    return (name ? QByteArray("event: ") + name + "\n" : QByteArray()) + "data: " + toolJson(o) + "\n\n";
}

Script whole(const QJsonObject &body)
{
    Script s;
    s.headers.add("content-type", "application/json");
    s.body = toolJson(body);
    return s;
}

Script streamOf(const QList<QByteArray> &events)
{
    Script s;
    s.headers.add("content-type", "text/event-stream");
    for (const QByteArray &e : events)
        s.events.append({e, 0});
    return s;
}

QJsonObject chatChunk(const QString &model, const QJsonObject &delta, const QJsonValue &finish)
{
    return {{QStringLiteral("id"), QStringLiteral("chatcmpl-tool")},
            {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
            {QStringLiteral("created"), 1767225600},
            {QStringLiteral("model"), model},
            {QStringLiteral("choices"),
             QJsonArray{QJsonObject{{QStringLiteral("index"), 0}, {QStringLiteral("delta"), delta}, {QStringLiteral("finish_reason"), finish}}}}};
}

Script chatToolCall(bool stream, const QString &model, const FakeToolCall &c)
{
    const QJsonObject usage{{QStringLiteral("prompt_tokens"), 20}, {QStringLiteral("completion_tokens"), 9}, {QStringLiteral("total_tokens"), 29}};
    if (!stream) {
        const QJsonObject call{
            {QStringLiteral("id"), c.id},
            {QStringLiteral("type"), QStringLiteral("function")},
            {QStringLiteral("function"), QJsonObject{{QStringLiteral("name"), c.name}, {QStringLiteral("arguments"), c.arguments}}}};
        return whole({{QStringLiteral("id"), QStringLiteral("chatcmpl-tool")},
                      {QStringLiteral("object"), QStringLiteral("chat.completion")},
                      {QStringLiteral("created"), 1767225600},
                      {QStringLiteral("model"), model},
                      {QStringLiteral("choices"),
                       QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                              {QStringLiteral("message"), QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                                                                      {QStringLiteral("content"), QJsonValue()},
                                                                                      {QStringLiteral("tool_calls"), QJsonArray{call}}}},
                                              {QStringLiteral("finish_reason"), QStringLiteral("tool_calls")}}}},
                      {QStringLiteral("usage"), usage}});
    }
    const qsizetype half = c.arguments.size() / 2;
    auto argsDelta = [&](const QJsonObject &call) { return QJsonObject{{QStringLiteral("tool_calls"), QJsonArray{call}}}; };
    QList<QByteArray> events{
        toolEvent(nullptr,
                  chatChunk(model, {{QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), QJsonValue()}}, QJsonValue())),
        toolEvent(nullptr, chatChunk(model,
                                     argsDelta({{QStringLiteral("index"), 0},
                                                {QStringLiteral("id"), c.id},
                                                {QStringLiteral("type"), QStringLiteral("function")},
                                                {QStringLiteral("function"),
                                                 QJsonObject{{QStringLiteral("name"), c.name}, {QStringLiteral("arguments"), QString()}}}}),
                                     QJsonValue())),
        toolEvent(nullptr, chatChunk(model,
                                     argsDelta({{QStringLiteral("index"), 0},
                                                {QStringLiteral("function"), QJsonObject{{QStringLiteral("arguments"), c.arguments.left(half)}}}}),
                                     QJsonValue())),
        toolEvent(nullptr, chatChunk(model,
                                     argsDelta({{QStringLiteral("index"), 0},
                                                {QStringLiteral("function"), QJsonObject{{QStringLiteral("arguments"), c.arguments.mid(half)}}}}),
                                     QJsonValue())),
        toolEvent(nullptr, chatChunk(model, {}, QStringLiteral("tool_calls")))};
    QJsonObject last = chatChunk(model, {}, QJsonValue());
    last.insert(QStringLiteral("choices"), QJsonArray{});
    last.insert(QStringLiteral("usage"), usage);
    events << toolEvent(nullptr, last) << QByteArray("data: [DONE]\n\n");
    return streamOf(events);
}

Script messagesToolUse(bool stream, const QString &model, const FakeToolCall &c)
{
    const QJsonObject input = QJsonDocument::fromJson(c.arguments.toUtf8()).object();
    if (!stream)
        return whole({{QStringLiteral("id"), QStringLiteral("msg_tool")},
                      {QStringLiteral("type"), QStringLiteral("message")},
                      {QStringLiteral("role"), QStringLiteral("assistant")},
                      {QStringLiteral("model"), model},
                      {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("tool_use")},
                                                                         {QStringLiteral("id"), c.id},
                                                                         {QStringLiteral("name"), c.name},
                                                                         {QStringLiteral("input"), input}}}},
                      {QStringLiteral("stop_reason"), QStringLiteral("tool_use")},
                      {QStringLiteral("stop_sequence"), QJsonValue()},
                      {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 20}, {QStringLiteral("output_tokens"), 9}}}});
    const qsizetype half = c.arguments.size() / 2;
    auto delta = [&](const QString &piece) {
        return toolEvent("content_block_delta", {{QStringLiteral("type"), QStringLiteral("content_block_delta")},
                                                 {QStringLiteral("index"), 0},
                                                 {QStringLiteral("delta"), QJsonObject{{QStringLiteral("type"), QStringLiteral("input_json_delta")},
                                                                                       {QStringLiteral("partial_json"), piece}}}});
    };
    return streamOf(
        {toolEvent("message_start",
                   {{QStringLiteral("type"), QStringLiteral("message_start")},
                    {QStringLiteral("message"), QJsonObject{{QStringLiteral("id"), QStringLiteral("msg_tool")},
                                                            {QStringLiteral("type"), QStringLiteral("message")},
                                                            {QStringLiteral("role"), QStringLiteral("assistant")},
                                                            {QStringLiteral("model"), model},
                                                            {QStringLiteral("content"), QJsonArray{}},
                                                            {QStringLiteral("stop_reason"), QJsonValue()},
                                                            {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 20},
                                                                                                  {QStringLiteral("output_tokens"), 1}}}}}}),
         toolEvent("content_block_start", {{QStringLiteral("type"), QStringLiteral("content_block_start")},
                                           {QStringLiteral("index"), 0},
                                           {QStringLiteral("content_block"), QJsonObject{{QStringLiteral("type"), QStringLiteral("tool_use")},
                                                                                         {QStringLiteral("id"), c.id},
                                                                                         {QStringLiteral("name"), c.name},
                                                                                         {QStringLiteral("input"), QJsonObject{}}}}}),
         delta(c.arguments.left(half)), delta(c.arguments.mid(half)),
         toolEvent("content_block_stop", {{QStringLiteral("type"), QStringLiteral("content_block_stop")}, {QStringLiteral("index"), 0}}),
         toolEvent("message_delta", {{QStringLiteral("type"), QStringLiteral("message_delta")},
                                     {QStringLiteral("delta"), QJsonObject{{QStringLiteral("stop_reason"), QStringLiteral("tool_use")},
                                                                           {QStringLiteral("stop_sequence"), QJsonValue()}}},
                                     {QStringLiteral("usage"), QJsonObject{{QStringLiteral("output_tokens"), 9}}}}),
         toolEvent("message_stop", {{QStringLiteral("type"), QStringLiteral("message_stop")}})});
}

Script responsesFunctionCall(bool stream, const QString &model, const FakeToolCall &c)
{
    const QJsonObject item{{QStringLiteral("type"), QStringLiteral("function_call")},
                           {QStringLiteral("id"), QStringLiteral("fc_fake_1")},
                           {QStringLiteral("call_id"), c.id},
                           {QStringLiteral("name"), c.name},
                           {QStringLiteral("arguments"), c.arguments},
                           {QStringLiteral("status"), QStringLiteral("completed")}};
    const QJsonObject usage{{QStringLiteral("input_tokens"), 20}, {QStringLiteral("output_tokens"), 9}, {QStringLiteral("total_tokens"), 29}};
    QJsonObject response{{QStringLiteral("id"), QStringLiteral("resp_tool")},
                         {QStringLiteral("object"), QStringLiteral("response")},
                         {QStringLiteral("created_at"), 1767225600},
                         {QStringLiteral("status"), QStringLiteral("completed")},
                         {QStringLiteral("model"), model},
                         {QStringLiteral("output"), QJsonArray{item}},
                         {QStringLiteral("usage"), usage}};
    if (!stream)
        return whole(response);
    QJsonObject started = response;
    started.insert(QStringLiteral("status"), QStringLiteral("in_progress"));
    started.insert(QStringLiteral("output"), QJsonArray{});
    started.remove(QStringLiteral("usage"));
    QJsonObject open = item;
    open.insert(QStringLiteral("arguments"), QString());
    open.insert(QStringLiteral("status"), QStringLiteral("in_progress"));
    const qsizetype half = c.arguments.size() / 2;
    int seq = 0;
    auto ev = [&](const char *type, QJsonObject o) {
        o.insert(QStringLiteral("type"), QLatin1String(type));
        o.insert(QStringLiteral("sequence_number"), seq++);
        return toolEvent(type, o);
    };
    auto args = [&](const QString &piece) {
        return ev("response.function_call_arguments.delta",
                  {{QStringLiteral("item_id"), QStringLiteral("fc_fake_1")}, {QStringLiteral("output_index"), 0}, {QStringLiteral("delta"), piece}});
    };
    return streamOf({ev("response.created", {{QStringLiteral("response"), started}}),
                     ev("response.output_item.added", {{QStringLiteral("output_index"), 0}, {QStringLiteral("item"), open}}),
                     args(c.arguments.left(half)), args(c.arguments.mid(half)),
                     ev("response.function_call_arguments.done", {{QStringLiteral("item_id"), QStringLiteral("fc_fake_1")},
                                                                  {QStringLiteral("output_index"), 0},
                                                                  {QStringLiteral("arguments"), c.arguments}}),
                     ev("response.output_item.done", {{QStringLiteral("output_index"), 0}, {QStringLiteral("item"), item}}),
                     ev("response.completed", {{QStringLiteral("response"), response}})});
}

} // namespace

Script toolCallAnswer(const QByteArray &path, bool stream, const QString &model, const FakeToolCall &call)
{
    if (path.endsWith("/messages"))
        return messagesToolUse(stream, model, call);
    if (path.endsWith("/responses"))
        return responsesFunctionCall(stream, model, call);
    return chatToolCall(stream, model, call);
}

namespace {

// The names of the tools a request offers, whatever its wire.
QStringList offeredTools(const QJsonObject &body)
{
    QStringList names;
    for (const QJsonValue &v : body.value(QLatin1String("tools")).toArray()) {
        const QJsonObject t = v.toObject();
        names << (t.contains(QLatin1String("function")) ? t.value(QLatin1String("function")).toObject().value(QLatin1String("name")).toString()
                                                        : t.value(QLatin1String("name")).toString());
    }
    return names;
}

// The result of an earlier call is in the request: a tool_result block, a tool message, a function_call_output.
bool carriesToolResult(const QByteArray &body)
{
    return body.contains("\"tool_result\"") || body.contains("\"role\":\"tool\"") || body.contains("\"function_call_output\"");
}

} // namespace

std::optional<Script> fileReadingTurn(const ReceivedRequest &r)
{
    if (!r.body.contains("[fake-tool-call]"))
        return std::nullopt;
    const QJsonObject body = r.json();
    const bool stream = body.value(QLatin1String("stream")).toBool();
    const QString model = body.value(QLatin1String("model")).toString();
    const QString text = QString::fromUtf8(r.body);
    if (carriesToolResult(r.body)) {
        static const QRegularExpression secret(QStringLiteral("SECRET-[A-Z0-9]+"));
        const QString found = secret.match(text).captured(0);
        const QString answer = QStringLiteral("The file says: ") + (found.isEmpty() ? QStringLiteral("nothing I can read") : found);
        if (r.path.endsWith("/messages"))
            return stream ? FakeUpstream::messagesStream({answer}, 30, 8, model) : FakeUpstream::messagesAnswer(answer, 30, 8, model);
        if (r.path.endsWith("/responses"))
            return stream ? FakeUpstream::responsesStream({answer}, 30, 8, model) : FakeUpstream::responsesAnswer(answer, 30, 8, model);
        return stream ? FakeUpstream::chatStream({answer}, 30, 8, model, true) : FakeUpstream::chatCompletion(answer, 30, 8, model);
    }
    static const QRegularExpression pathRe(QStringLiteral("\\[fake-tool-call\\] read (/[^\\s\"'\\\\]+)"));
    const QString path = pathRe.match(text).captured(1);
    const QStringList tools = offeredTools(body);
    if (tools.isEmpty())
        return std::nullopt; // a side request (a title, a summary) that offers no tool
    FakeToolCall call;
    call.id = r.path.endsWith("/messages") ? QStringLiteral("toolu_fake_read_1") : QStringLiteral("call_fake_read_1");
    auto args = [](const QJsonObject &o) { return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)); };
    if (tools.contains(QLatin1String("Read"))) { // Claude Code
        call.name = QStringLiteral("Read");
        call.arguments = args(QJsonObject{{QStringLiteral("file_path"), path}});
    } else if (tools.contains(QLatin1String("exec_command"))) { // Codex, unified exec
        call.name = QStringLiteral("exec_command");
        call.arguments = args(QJsonObject{{QStringLiteral("cmd"), QString(QStringLiteral("cat ") + path)}});
    } else if (tools.contains(QLatin1String("shell_command"))) {
        call.name = QStringLiteral("shell_command");
        call.arguments = args(QJsonObject{{QStringLiteral("command"), QString(QStringLiteral("cat ") + path)}});
    } else if (tools.contains(QLatin1String("shell"))) {
        call.name = QStringLiteral("shell");
        call.arguments = args(QJsonObject{{QStringLiteral("command"), QJsonArray{QStringLiteral("cat"), path}}});
    } else {
        call.name = tools.value(0, QStringLiteral("read_file"));
        call.arguments = args(QJsonObject{{QStringLiteral("path"), path}});
    }
    return toolCallAnswer(r.path, stream, model, call);
}

} // namespace Aile::Test
