// The translation layer, direction by direction, from request, answer and stream bodies written
// from the providers' documented formats (data/). Each row checks fields of the translated body by
// path ("messages[2].tool_calls[0].id") against a JSON value; docs/translation.md names the rows.
#include "translate/Translation.h"
#include "wire/SseParser.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

using namespace Aile;
using Wire::Endpoint;

namespace {

Endpoint wire(const QString &name)
{
    if (name == QLatin1String("messages"))
        return Endpoint::Messages;
    if (name == QLatin1String("chat"))
        return Endpoint::ChatCompletions;
    return Endpoint::Responses;
}

QByteArray data(const QString &file)
{
    QFile f(QStringLiteral(AILE_TRANSLATE_DATA "/") + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file));
    return f.readAll();
}

// "a.b[2].c" → the value there, undefined when any step is missing.
QJsonValue at(QJsonValue v, const QString &path)
{
    static const QRegularExpression step(QStringLiteral("([^.\\[\\]]+)|\\[(\\d+)\\]"));
    auto it = step.globalMatch(path);
    while (it.hasNext()) {
        const auto m = it.next();
        if (m.capturedLength(1))
            v = v.isObject() ? v.toObject().value(m.captured(1)) : QJsonValue(QJsonValue::Undefined);
        else
            v = v.isArray() && m.captured(2).toInt() < v.toArray().size() ? v.toArray().at(m.captured(2).toInt())
                                                                          : QJsonValue(QJsonValue::Undefined);
    }
    return v;
}

QString shown(const QJsonValue &v)
{
    if (v.isUndefined())
        return QStringLiteral("<absent>");
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

// Each check is "path=json" (or "path=<absent>").
void verify(const QJsonValue &root, const QStringList &checks)
{
    for (const QString &check : checks) {
        const qsizetype eq = check.indexOf(QLatin1Char('='));
        const QString path = check.left(eq);
        const QString want = check.mid(eq + 1);
        const QJsonValue got = at(root, path);
        if (want == QLatin1String("<absent>")) {
            QVERIFY2(got.isUndefined(), qPrintable(path + QStringLiteral(" should be absent, is ") + shown(got)));
            continue;
        }
        const QJsonDocument expected = QJsonDocument::fromJson(("[" + want + "]").toUtf8());
        QVERIFY2(expected.isArray(), qPrintable(QStringLiteral("bad check ") + check));
        QVERIFY2(got == expected.array().at(0),
                 qPrintable(path + QStringLiteral(": got ") + shown(got) + QStringLiteral(", want ") + want));
    }
}

void verifyDropped(const QStringList &dropped, const QStringList &expected)
{
    for (const QString &e : expected) {
        bool found = false;
        for (const QString &d : dropped)
            found = found || d.startsWith(e);
        QVERIFY2(found, qPrintable(QStringLiteral("not reported as dropped: ") + e + QStringLiteral(" (reported: ")
                                   + dropped.join(QStringLiteral("; ")) + QLatin1Char(')')));
    }
}

// The client-wire events a translated stream produced, each event's data with its name as "_event".
QJsonArray events(const QByteArray &stream)
{
    Wire::SseParser parser;
    QJsonArray out;
    for (const Wire::SseEvent &e : parser.feed(stream)) {
        QJsonObject o = e.data == "[DONE]" ? QJsonObject{{QStringLiteral("done"), true}} : QJsonDocument::fromJson(e.data).object();
        if (!e.name.isEmpty())
            o.insert(QStringLiteral("_event"), QString::fromUtf8(e.name));
        out.append(o);
    }
    return out;
}

QByteArray translateStream(Translate::StreamTranslator &t, const QByteArray &transcript)
{
    Wire::SseParser parser;
    QByteArray out;
    for (const Wire::SseEvent &e : parser.feed(transcript))
        out += t.feed(e);
    return out;
}

} // namespace

class TestTranslation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void request_data();
    void request();
    void refusal_data();
    void refusal();
    void answer_data();
    void answer();
    void stream_data();
    void stream();
    void streamIsTranslatedEventByEvent();
    void error_data();
    void error();
    void toolRoundTripClaudeCodeOnChat();
    void toolRoundTripCodexOnMessages();
    void customToolCallToCodex_data();
    void customToolCallToCodex();
    void labelsAndPairs();
};

void TestTranslation::request_data()
{
    QTest::addColumn<QString>("client");
    QTest::addColumn<QString>("upstream");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("checks");
    QTest::addColumn<QStringList>("dropped");

    QTest::newRow("messages->chat tools") << "messages"
                                          << "chat"
                                          << "messages_request_tools.json"
                                          << QStringList{
                                                 R"(model="gpt-5.2")",
                                                 R"(messages[0].role="system")",
                                                 R"(messages[0].content="You are Claude Code, a coding assistant.\n\nProject rules: keep functions short.")",
                                                 R"(messages[1].content[0].text="What does main.py print? Here is the screen.")",
                                                 R"(messages[1].content[1].image_url.url="data:image/png;base64,iVBORw0KGgo=")",
                                                 R"(messages[2].role="assistant")", R"(messages[2].content="Let me look.")",
                                                 R"(messages[2].tool_calls[0].id="toolu_01A09q90qw90lq917835lq9")",
                                                 R"(messages[2].tool_calls[0].function.name="Read")",
                                                 R"(messages[2].tool_calls[0].function.arguments="{\"file_path\":\"main.py\"}")",
                                                 R"(messages[2].tool_calls[1].id="toolu_01B77x")",
                                                 R"(messages[3].role="tool")", R"(messages[3].tool_call_id="toolu_01A09q90qw90lq917835lq9")",
                                                 R"~(messages[3].content="print('hi')")~",
                                                 R"(messages[4].tool_call_id="toolu_01B77x")", R"(messages[4].content="Error: python3: not found")",
                                                 R"(messages[5].role="user")", R"(messages[5].content="Go on.")", "messages[6]=<absent>",
                                                 R"(tools[1].type="function")", R"(tools[1].function.name="Bash")",
                                                 R"(tools[1].function.parameters.required=["command"])", "tools[1].cache_control=<absent>",
                                                 R"(tool_choice="auto")", "parallel_tool_calls=true",
                                                 "max_tokens=32000", "temperature=<absent>", "stream=true", "stream_options.include_usage=true",
                                                 R"(reasoning_effort="medium")", R"(prompt_cache_key="session-7")",
                                                 "thinking=<absent>", "metadata=<absent>", "system=<absent>"}
                                          << QStringList{"messages[].content[].thinking", "cache_control", "metadata.user_id"};

    QTest::newRow("messages->responses tools") << "messages"
                                               << "responses"
                                               << "messages_request_tools.json"
                                               << QStringList{
                                                      R"(instructions="You are Claude Code, a coding assistant.\n\nProject rules: keep functions short.")",
                                                      R"(input[0].type="message")", R"(input[0].role="user")", R"(input[0].content[0].type="input_text")",
                                                      R"(input[0].content[1].type="input_image")", R"(input[0].content[1].image_url="data:image/png;base64,iVBORw0KGgo=")",
                                                      R"(input[1].role="assistant")", R"(input[1].content[0].type="output_text")", R"(input[1].content[0].text="Let me look.")",
                                                      R"(input[2].type="function_call")", R"(input[2].call_id="toolu_01A09q90qw90lq917835lq9")", R"(input[2].name="Read")",
                                                      R"(input[2].arguments="{\"file_path\":\"main.py\"}")",
                                                      R"(input[3].type="function_call")", R"(input[3].call_id="toolu_01B77x")",
                                                      R"(input[4].type="function_call_output")", R"(input[4].call_id="toolu_01A09q90qw90lq917835lq9")", R"~(input[4].output="print('hi')")~",
                                                      R"(input[5].call_id="toolu_01B77x")", R"(input[5].output="Error: python3: not found")",
                                                      R"(input[6].role="user")", R"(input[6].content[0].text="Go on.")", "input[7]=<absent>",
                                                      R"(tools[0].type="function")", R"(tools[0].name="Read")", R"(tools[0].parameters.required=["file_path"])",
                                                      R"(tool_choice="auto")", "parallel_tool_calls=true", "max_output_tokens=32000", "stream=true", "store=false",
                                                      R"(reasoning={"effort":"medium","summary":"auto"})", R"(prompt_cache_key="session-7")", "stream_options=<absent>"}
                                               << QStringList{"messages[].content[].thinking", "cache_control"};

    QTest::newRow("messages->chat tool result image") << "messages"
                                                      << "chat"
                                                      << "messages_request_tool_image.json"
                                                      << QStringList{R"(messages[2]={"role":"tool","tool_call_id":"toolu_01Img","content":"shot.png"})",
                                                                     R"(messages[3].role="user")", R"(messages[3].content[0].image_url.url="data:image/png;base64,iVBORw0KGgo=")",
                                                                     R"(messages[4]={"role":"system","content":"The user is on a small screen."})", "messages[5]=<absent>"}
                                                      << QStringList{};
    QTest::newRow("messages->responses tool result image") << "messages"
                                                           << "responses"
                                                           << "messages_request_tool_image.json"
                                                           << QStringList{R"(input[2].type="function_call_output")", R"(input[2].call_id="toolu_01Img")",
                                                                          R"(input[2].output=[{"type":"input_text","text":"shot.png"},{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo="}])",
                                                                          R"(input[3]={"type":"message","role":"system","content":[{"type":"input_text","text":"The user is on a small screen."}]})",
                                                                          "input[4]=<absent>"}
                                                           << QStringList{};
    QTest::newRow("chat->messages tools") << "chat"
                                          << "messages"
                                          << "chat_request_tools.json"
                                          << QStringList{
                                                 R"(system="You are a helpful assistant.")",
                                                 R"(messages[0].role="user")", R"(messages[0].content[0].text="What is the weather in Paris and in Lyon?")",
                                                 R"(messages[0].content[1].source={"type":"base64","media_type":"image/jpeg","data":"/9j/4AAQ"})",
                                                 R"(messages[1].role="assistant")", R"(messages[1].content[0].type="tool_use")",
                                                 R"(messages[1].content[0].id="call_abc123")", R"(messages[1].content[0].input={"city":"Paris"})",
                                                 R"(messages[1].content[1].id="call_def456")",
                                                 R"(messages[2].role="user")", R"(messages[2].content[0].type="tool_result")",
                                                 R"(messages[2].content[0].tool_use_id="call_abc123")", R"(messages[2].content[0].content="18C, clear")",
                                                 R"(messages[2].content[1].tool_use_id="call_def456")", "messages[3]=<absent>",
                                                 R"(tools[0].name="get_weather")", R"(tools[0].input_schema.required=["city"])",
                                                 R"(tool_choice={"type":"tool","name":"get_weather","disable_parallel_tool_use":true})",
                                                 "max_tokens=1024", "temperature=0.2", "top_p=0.9", R"(stop_sequences=["\n\nUser:"])", "stream=true",
                                                 "stream_options=<absent>", "n=<absent>", "user=<absent>", "metadata=<absent>"}
                                          << QStringList{"user"};

    QTest::newRow("chat->messages cache_control kept") << "chat"
                                                       << "messages"
                                                       << "chat_request_cache.json"
                                                       << QStringList{
                                                              R"(system[0].text="You are a careful reviewer. The style guide follows.")",
                                                              R"(system[0].cache_control={"type":"ephemeral"})",
                                                              R"(messages[0].content[0].cache_control={"type":"ephemeral","ttl":"1h"})",
                                                              "messages[0].content[1].cache_control=<absent>", "max_tokens=512"}
                                                       << QStringList{};

    QTest::newRow("chat->messages reasoning too big for max_tokens") << "chat"
                                                                     << "messages"
                                                                     << "chat_request_plain.json"
                                                                     << QStringList{R"(system="Answer in French.")", R"(messages[0].content[0].text="Say hello.")", "max_tokens=200",
                                                                                    "thinking=<absent>", "stream=<absent>"}
                                                                     << QStringList{"reasoning effort"};

    QTest::newRow("chat->responses plain") << "chat"
                                           << "responses"
                                           << "chat_request_plain.json"
                                           << QStringList{R"(instructions="Answer in French.")", R"(input[0].content[0].text="Say hello.")",
                                                          "max_output_tokens=200", R"(reasoning.effort="low")", "stream=<absent>", "store=false"}
                                           << QStringList{};

    QTest::newRow("responses->messages codex") << "responses"
                                               << "messages"
                                               << "responses_request_tools.json"
                                               << QStringList{
                                                      R"(system="You are Codex, a coding agent.\n\nSandbox: workspace-write.")",
                                                      R"(messages[0].role="user")", R"(messages[0].content[0].text="List the files.")",
                                                      R"(messages[1].role="assistant")", R"(messages[1].content[0].type="tool_use")",
                                                      R"(messages[1].content[0].id="call_Xy12")", R"(messages[1].content[0].name="shell")",
                                                      R"(messages[1].content[0].input={"command":["ls"]})", "messages[1].content[1]=<absent>",
                                                      R"(messages[2].role="user")", R"(messages[2].content[0].type="tool_result")",
                                                      R"(messages[2].content[0].tool_use_id="call_Xy12")", R"(messages[2].content[0].content="README.md\nmain.py")",
                                                      R"(messages[3].role="assistant")", R"(messages[3].content[0].text="Two files.")",
                                                      R"(messages[4].role="user")", R"(messages[4].content[0].text="Show main.py.")", "messages[5]=<absent>",
                                                      R"(tools[0].name="shell")", R"(tools[0].input_schema.required=["command"])",
                                                      R"(tool_choice={"type":"auto"})", "max_tokens=4096", "stream=true",
                                                      R"(thinking={"type":"enabled","budget_tokens":2048})",
                                                      "store=<absent>", "include=<absent>", "prompt_cache_key=<absent>", "reasoning=<absent>"}
                                               << QStringList{"input[].reasoning", "include", "prompt_cache_key", "client_metadata", "store"};

    QTest::newRow("responses->chat codex") << "responses"
                                           << "chat"
                                           << "responses_request_tools.json"
                                           << QStringList{
                                                  R"(messages[0].role="system")", R"(messages[0].content="You are Codex, a coding agent.\n\nSandbox: workspace-write.")",
                                                  R"(messages[1].role="user")", R"(messages[1].content="List the files.")",
                                                  R"(messages[2].role="assistant")", "messages[2].content=null",
                                                  R"(messages[2].tool_calls[0]={"id":"call_Xy12","type":"function","function":{"name":"shell","arguments":"{\"command\":[\"ls\"]}"}})",
                                                  R"(messages[3].role="tool")", R"(messages[3].tool_call_id="call_Xy12")", R"(messages[3].content="README.md\nmain.py")",
                                                  R"(messages[4].content="Two files.")", R"(messages[5].content="Show main.py.")", "messages[6]=<absent>",
                                                  R"(tools[0].function.name="shell")", "parallel_tool_calls=true", R"(tool_choice="auto")",
                                                  R"(reasoning_effort="high")", R"(prompt_cache_key="019a2b3c-thread")", "stream_options.include_usage=true",
                                                  "max_tokens=<absent>", "store=<absent>"}
                                           << QStringList{"input[].reasoning", "include", "store"};

    // Codex's apply_patch (a custom tool, freeform input under a grammar): a function tool with one
    // string parameter; its call and output in the history, a tool_use/tool_calls and its result.
    QTest::newRow("responses->messages apply_patch") << "responses"
                                                     << "messages"
                                                     << "responses_request_apply_patch.json"
                                                     << QStringList{
                                                            R"(tools[0].name="apply_patch")", R"(tools[0].description="Use the `apply_patch` tool to edit files.")",
                                                            R"(tools[0].input_schema.required=["input"])", R"(tools[0].input_schema.properties.input.type="string")",
                                                            R"(messages[1].content[0]={"type":"tool_use","id":"call_Pq77","name":"apply_patch","input":{"input":"*** Begin Patch\n*** Add File: hello.txt\n+Hello\n*** End Patch"}})",
                                                            R"(messages[2].content[0]={"type":"tool_result","tool_use_id":"call_Pq77","content":"Success. Updated the following files:\nA hello.txt"})",
                                                            R"(messages[2].content[1].text="Now say \"world\" in it.")", "messages[3]=<absent>",
                                                            R"(tool_choice={"type":"auto","disable_parallel_tool_use":true})"}
                                                     << QStringList{"store"};
    QTest::newRow("responses->chat apply_patch") << "responses"
                                                 << "chat"
                                                 << "responses_request_apply_patch.json"
                                                 << QStringList{
                                                        R"(tools[0].type="function")", R"(tools[0].function.name="apply_patch")",
                                                        R"(tools[0].function.parameters.required=["input"])",
                                                        R"(messages[2].tool_calls[0]={"id":"call_Pq77","type":"function","function":{"name":"apply_patch","arguments":"{\"input\":\"*** Begin Patch\\n*** Add File: hello.txt\\n+Hello\\n*** End Patch\"}"}})",
                                                        R"(messages[3]={"role":"tool","tool_call_id":"call_Pq77","content":"Success. Updated the following files:\nA hello.txt"})",
                                                        "parallel_tool_calls=false"}
                                                 << QStringList{"store"};
}

void TestTranslation::request()
{
    QFETCH(QString, client);
    QFETCH(QString, upstream);
    QFETCH(QString, file);
    QFETCH(QStringList, checks);
    QFETCH(QStringList, dropped);
    Translate::Options options;
    options.sessionId = QStringLiteral("session-7");
    const Translate::RequestTranslation t = Translate::translateRequest(wire(client), wire(upstream), data(file), options);
    QVERIFY2(t.ok(), qPrintable(t.refusal));
    const QJsonObject body = QJsonDocument::fromJson(t.body).object();
    verify(body, checks);
    verifyDropped(t.dropped, dropped);
}

void TestTranslation::refusal_data()
{
    QTest::addColumn<QString>("client");
    QTest::addColumn<QString>("upstream");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("field");

    const QByteArray hi = R"([{"role":"user","content":"hi"}])";
    QTest::newRow("messages server tool") << "messages"
                                          << "chat"
                                          << QByteArray(R"({"model":"m","max_tokens":10,"messages":)" + hi + R"(,"tools":[{"name":"a","input_schema":{}},{"type":"web_search_20250305","name":"web_search"}]})")
                                          << "tools[1].type=web_search_20250305";
    QTest::newRow("messages computer use") << "messages"
                                           << "responses"
                                           << QByteArray(R"({"model":"m","max_tokens":10,"messages":)" + hi + R"(,"tools":[{"type":"computer_20250124","name":"computer"}]})")
                                           << "tools[0].type=computer_20250124";
    QTest::newRow("messages document block") << "messages"
                                             << "chat"
                                             << QByteArray(R"({"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"x"}}]}]})")
                                             << "messages[0].content[0].type=document";
    QTest::newRow("messages unknown block") << "messages"
                                            << "responses"
                                            << QByteArray(R"({"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"search_result","content":[]}]}]})")
                                            << "messages[0].content[0].type=search_result";
    QTest::newRow("messages top_k") << "messages"
                                    << "chat"
                                    << QByteArray(R"({"model":"m","max_tokens":10,"top_k":5,"messages":)" + hi + "}") << "top_k";
    QTest::newRow("messages mcp_servers beta") << "messages"
                                               << "chat"
                                               << QByteArray(R"({"model":"m","max_tokens":10,"mcp_servers":[{"type":"url","url":"https://x"}],"messages":)" + hi + "}") << "mcp_servers";
    QTest::newRow("messages structured output") << "messages"
                                                << "chat"
                                                << QByteArray(R"({"model":"m","max_tokens":10,"output_config":{"format":{"type":"json_schema","schema":{}}},"messages":)" + hi + "}")
                                                << "output_config.format";
    QTest::newRow("messages stop_sequences to responses") << "messages"
                                                          << "responses"
                                                          << QByteArray(R"({"model":"m","max_tokens":10,"stop_sequences":["END"],"messages":)" + hi + "}") << "stop sequences";
    QTest::newRow("chat n=2") << "chat"
                              << "messages" << QByteArray(R"({"model":"m","n":2,"messages":)" + hi + "}") << "n";
    QTest::newRow("chat logprobs") << "chat"
                                   << "responses" << QByteArray(R"({"model":"m","logprobs":true,"messages":)" + hi + "}") << "logprobs";
    QTest::newRow("chat json_schema") << "chat"
                                      << "messages"
                                      << QByteArray(R"({"model":"m","response_format":{"type":"json_schema","json_schema":{"name":"x","schema":{}}},"messages":)" + hi + "}")
                                      << "response_format";
    QTest::newRow("chat presence_penalty") << "chat"
                                           << "messages"
                                           << QByteArray(R"({"model":"m","presence_penalty":0.5,"messages":)" + hi + "}") << "presence_penalty";
    QTest::newRow("chat audio input") << "chat"
                                      << "messages"
                                      << QByteArray(R"({"model":"m","messages":[{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"x","format":"wav"}}]}]})")
                                      << "messages[0].content[0].type=input_audio";
    QTest::newRow("chat custom tool") << "chat"
                                      << "messages"
                                      << QByteArray(R"({"model":"m","messages":)" + hi + R"(,"tools":[{"type":"custom","custom":{"name":"x"}}]})") << "tools[0].type=custom";
    QTest::newRow("responses web_search") << "responses"
                                          << "messages"
                                          << QByteArray(R"({"model":"m","input":"hi","tools":[{"type":"web_search"}]})") << "tools[0].type=web_search";
    QTest::newRow("responses previous_response_id") << "responses"
                                                    << "messages"
                                                    << QByteArray(R"({"model":"m","input":"hi","previous_response_id":"resp_1"})") << "previous_response_id";
    QTest::newRow("responses input_file") << "responses"
                                          << "chat"
                                          << QByteArray(R"({"model":"m","input":[{"role":"user","content":[{"type":"input_file","file_id":"file-1"}]}]})")
                                          << "input[0].content[0].type=input_file";
    QTest::newRow("responses json schema output") << "responses"
                                                  << "messages"
                                                  << QByteArray(R"({"model":"m","input":"hi","text":{"format":{"type":"json_schema","name":"x","schema":{}}}})")
                                                  << "text.format.type=json_schema";
    QTest::newRow("same wire") << "chat"
                               << "chat" << QByteArray(R"({"model":"m","messages":)" + hi + "}") << "endpoint";
}

void TestTranslation::refusal()
{
    QFETCH(QString, client);
    QFETCH(QString, upstream);
    QFETCH(QByteArray, body);
    QFETCH(QString, field);
    const Translate::RequestTranslation t = Translate::translateRequest(wire(client), wire(upstream), body);
    QVERIFY(!t.ok());
    QVERIFY(t.body.isEmpty());
    QCOMPARE(t.refusedField, field);
    QVERIFY2(t.refusal.contains(field) && t.refusal.contains(QStringLiteral("the %1 wire").arg(upstream)), qPrintable(t.refusal));
    const QJsonObject error = QJsonDocument::fromJson(Translate::refusalBody(wire(client), t)).object();
    QCOMPARE(error.value("error").toObject().value("message").toString(), t.refusal);
    QCOMPARE(error.value("error").toObject().value("param").toString(), field);
    if (client == QLatin1String("messages"))
        verify(error, {R"(type="error")", R"(error.type="invalid_request_error")"});
    else
        verify(error, {"error.code=400", R"(error.type="invalid_request_error")"});
}

void TestTranslation::answer_data()
{
    QTest::addColumn<QString>("client");
    QTest::addColumn<QString>("upstream");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("checks");
    QTest::addColumn<QStringList>("dropped");

    QTest::newRow("chat answer to messages client") << "messages"
                                                    << "chat"
                                                    << "chat_answer_tool.json"
                                                    << QStringList{R"(id="chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT")", R"(type="message")", R"(role="assistant")",
                                                                   R"(model="gpt-5.2-2026-01-15")",
                                                                   R"(content[0]={"type":"tool_use","id":"call_12345xyz","name":"Read","input":{"file_path":"main.py"}})",
                                                                   R"(content[1].id="call_67890abc")", R"(content[1].input={"command":"ls"})", "content[2]=<absent>",
                                                                   R"(stop_reason="tool_use")", "stop_sequence=null",
                                                                   "usage.input_tokens=476", "usage.cache_read_input_tokens=1024", "usage.cache_creation_input_tokens=0",
                                                                   "usage.output_tokens=120"}
                                                    << QStringList{};
    QTest::newRow("chat answer to responses client") << "responses"
                                                     << "chat"
                                                     << "chat_answer_tool.json"
                                                     << QStringList{R"(object="response")", R"(status="completed")", "incomplete_details=null", "created_at=1741569952",
                                                                    R"(output[0].type="function_call")", R"(output[0].call_id="call_12345xyz")", R"(output[0].name="Read")",
                                                                    R"(output[0].arguments="{\"file_path\":\"main.py\"}")", R"(output[1].call_id="call_67890abc")",
                                                                    "output[2]=<absent>",
                                                                    "usage.input_tokens=1500", "usage.input_tokens_details.cached_tokens=1024", "usage.output_tokens=120",
                                                                    "usage.output_tokens_details.reasoning_tokens=64", "usage.total_tokens=1620"}
                                                     << QStringList{};
    QTest::newRow("messages answer to chat client") << "chat"
                                                    << "messages"
                                                    << "messages_answer_tool.json"
                                                    << QStringList{R"(object="chat.completion")", R"(choices[0].message.content="I'll check both.")",
                                                                   R"(choices[0].message.tool_calls[0].id="toolu_01T1x1fJ34qAmk2tNTrN7Up6")",
                                                                   R"(choices[0].message.tool_calls[0].function={"name":"get_weather","arguments":"{\"city\":\"Paris\"}"})",
                                                                   R"(choices[0].message.tool_calls[1].id="toolu_01T1x1fJ34qAmk2tNTrN7Up7")",
                                                                   R"(choices[0].finish_reason="tool_calls")",
                                                                   "usage.prompt_tokens=1542", "usage.prompt_tokens_details.cached_tokens=1200", "usage.completion_tokens=95",
                                                                   "usage.total_tokens=1637"}
                                                    << QStringList{"reasoning", "redacted_thinking"};
    QTest::newRow("messages answer to responses client") << "responses"
                                                         << "messages"
                                                         << "messages_answer_tool.json"
                                                         << QStringList{R"(output[0].type="reasoning")", R"(output[0].summary[0].text="The user wants both cities.")",
                                                                        "output[0].encrypted_content=<absent>", R"(output[0].id="rs_aile-translated_msg_01XFDUDYJgAACzvnptvVoYEL_0")",
                                                                        R"(output[1].type="message")", R"(output[1].content[0].text="I'll check both.")",
                                                                        R"(output[2].type="function_call")", R"(output[2].call_id="toolu_01T1x1fJ34qAmk2tNTrN7Up6")",
                                                                        R"(output[2].arguments="{\"city\":\"Paris\"}")", R"(output[3].call_id="toolu_01T1x1fJ34qAmk2tNTrN7Up7")",
                                                                        R"(status="completed")", "usage.input_tokens=1542", "usage.input_tokens_details.cached_tokens=1200",
                                                                        "usage.output_tokens=95"}
                                                         << QStringList{"redacted_thinking"};
    QTest::newRow("responses answer to messages client") << "messages"
                                                         << "responses"
                                                         << "responses_answer_tool.json"
                                                         << QStringList{R"(content[0].type="thinking")", R"(content[0].thinking="**Planning** I need the file list.")",
                                                                        R"(content[0].signature="aile-translated")",
                                                                        R"(content[1]={"type":"text","text":"Listing the files."})",
                                                                        R"(content[2]={"type":"tool_use","id":"call_Q3b9","name":"shell","input":{"command":["ls","-la"]}})",
                                                                        R"(stop_reason="tool_use")", "usage.input_tokens=464", "usage.cache_read_input_tokens=1536",
                                                                        "usage.output_tokens=150"}
                                                         << QStringList{"reasoning.encrypted_content"};
    QTest::newRow("responses answer to chat client") << "chat"
                                                     << "responses"
                                                     << "responses_answer_tool.json"
                                                     << QStringList{R"(choices[0].message.content="Listing the files.")", R"(choices[0].message.tool_calls[0].id="call_Q3b9")",
                                                                    R"(choices[0].finish_reason="tool_calls")", "usage.prompt_tokens=2000",
                                                                    "usage.prompt_tokens_details.cached_tokens=1536", "usage.completion_tokens_details.reasoning_tokens=100"}
                                                     << QStringList{"reasoning", "reasoning.encrypted_content"};
    QTest::newRow("chat length to messages client") << "messages"
                                                    << "chat"
                                                    << "chat_answer_length.json"
                                                    << QStringList{R"(stop_reason="max_tokens")", R"(content[0].text="Bonjour, voici une longue")", "content[1]=<absent>",
                                                                   "usage.input_tokens=20", "usage.output_tokens=200"}
                                                    << QStringList{"reasoning_content"};
    QTest::newRow("chat length to responses client") << "responses"
                                                     << "chat"
                                                     << "chat_answer_length.json"
                                                     << QStringList{R"(status="incomplete")", R"(incomplete_details.reason="max_output_tokens")"}
                                                     << QStringList{};
    QTest::newRow("responses incomplete to messages client") << "messages"
                                                             << "responses"
                                                             << "responses_answer_incomplete.json"
                                                             << QStringList{R"(stop_reason="max_tokens")", R"(content[0].text="The answer is long and")"}
                                                             << QStringList{};
    QTest::newRow("responses incomplete to chat client") << "chat"
                                                         << "responses"
                                                         << "responses_answer_incomplete.json"
                                                         << QStringList{R"(choices[0].finish_reason="length")", R"(choices[0].message.content="The answer is long and")"}
                                                         << QStringList{};
}

void TestTranslation::answer()
{
    QFETCH(QString, client);
    QFETCH(QString, upstream);
    QFETCH(QString, file);
    QFETCH(QStringList, checks);
    QFETCH(QStringList, dropped);
    const Translate::AnswerTranslation t = Translate::translateAnswer(wire(client), wire(upstream), data(file));
    QVERIFY(t.ok);
    verify(QJsonDocument::fromJson(t.body).object(), checks);
    verifyDropped(t.dropped, dropped);
}

void TestTranslation::stream_data()
{
    QTest::addColumn<QString>("client");
    QTest::addColumn<QString>("upstream");
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("includeUsage");
    QTest::addColumn<QStringList>("checks");
    QTest::addColumn<QStringList>("dropped");

    QTest::newRow("messages stream to chat client") << "chat"
                                                    << "messages"
                                                    << "messages_stream_tool.sse" << true
                                                    << QStringList{
                                                           R"([0].id="msg_014p7gG3wDgGV9EUtLvnow3U")", R"([0].model="claude-sonnet-5")",
                                                           R"([0].choices[0].delta={"role":"assistant","content":""})",
                                                           R"([1].choices[0].delta.content="Checking ")", R"([2].choices[0].delta.content="both.")",
                                                           R"([3].choices[0].delta.tool_calls[0]={"index":0,"id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","type":"function","function":{"name":"get_weather","arguments":""}})",
                                                           R"([5].choices[0].delta.tool_calls[0].function.arguments="{\"city\": \"Pa")",
                                                           R"([6].choices[0].delta.tool_calls[0].function.arguments="ris\"}")",
                                                           "[7].choices[0].delta.tool_calls[0].index=1",
                                                           R"([7].choices[0].delta.tool_calls[0].id="toolu_01T1x1fJ34qAmk2tNTrN7Up7")",
                                                           R"([9].choices[0].finish_reason="tool_calls")", "[10].choices=[]",
                                                           R"([10].usage={"prompt_tokens":2520,"completion_tokens":89,"total_tokens":2609,"prompt_tokens_details":{"cached_tokens":2048},"completion_tokens_details":{"reasoning_tokens":0}})",
                                                           "[11].done=true", "[12]=<absent>"}
                                                    << QStringList{"reasoning"};
    QTest::newRow("messages stream to responses client") << "responses"
                                                         << "messages"
                                                         << "messages_stream_tool.sse" << false
                                                         << QStringList{
                                                                R"([0]._event="response.created")", "[0].sequence_number=0", R"([0].response.status="in_progress")",
                                                                R"([1]._event="response.in_progress")", "[1].sequence_number=1",
                                                                R"([2].item.type="reasoning")", R"([4]._event="response.reasoning_summary_text.delta")", R"([4].delta="Two cities, ")",
                                                                R"([8]._event="response.output_item.done")", R"([8].item.summary[0].text="Two cities, two calls.")",
                                                                "[8].item.encrypted_content=<absent>",
                                                                R"([11]._event="response.output_text.delta")", R"([11].delta="Checking ")", "[11].output_index=1",
                                                                R"([15].item.content[0].text="Checking both.")",
                                                                R"([16].item.type="function_call")", R"([16].item.call_id="toolu_01T1x1fJ34qAmk2tNTrN7Up6")", R"([16].item.name="get_weather")",
                                                                R"([19]._event="response.function_call_arguments.delta")", R"([19].delta="ris\"}")",
                                                                R"([19].item_id="fc_msg_014p7gG3wDgGV9EUtLvnow3U_2")", R"([20].arguments="{\"city\": \"Paris\"}")",
                                                                R"([22].item.call_id="toolu_01T1x1fJ34qAmk2tNTrN7Up7")",
                                                                R"([26]._event="response.completed")", "[26].sequence_number=26", R"([26].response.status="completed")",
                                                                R"([26].response.output[2].call_id="toolu_01T1x1fJ34qAmk2tNTrN7Up6")",
                                                                R"([26].response.output[3].arguments="{\"city\": \"Lyon\"}")",
                                                                "[26].response.usage.input_tokens=2520", "[26].response.usage.input_tokens_details.cached_tokens=2048",
                                                                "[26].response.usage.output_tokens=89", "[27]=<absent>"}
                                                         << QStringList{};
    QTest::newRow("chat stream to messages client") << "messages"
                                                    << "chat"
                                                    << "chat_stream_tool.sse" << false
                                                    << QStringList{
                                                           R"([0]._event="message_start")", R"([0].message.id="chatcmpl-Bx1")", R"([0].message.model="gpt-5.2")",
                                                           R"([1]._event="content_block_start")", "[1].index=0", R"([1].content_block={"type":"text","text":""})",
                                                           "[2].index=0", R"([2].delta={"type":"text_delta","text":"Reading "})",
                                                           R"([4]._event="content_block_stop")", "[4].index=0",
                                                           R"([5].content_block={"type":"tool_use","id":"call_DdmO9pD3xa9XTPNJ32zg2hcA","name":"Read","input":{}})", "[5].index=1",
                                                           R"([6].delta={"type":"input_json_delta","partial_json":"{\"file_"})", "[6].index=1",
                                                           R"([9].content_block.id="call_ABCd2")", "[9].index=2",
                                                           R"([10].delta.partial_json="{\"file_path\":\"b.py\"}")", "[10].index=2",
                                                           R"([12]._event="message_delta")", R"([12].delta.stop_reason="tool_use")",
                                                           R"([12].usage={"input_tokens":388,"output_tokens":60,"cache_read_input_tokens":512,"cache_creation_input_tokens":0})",
                                                           R"([13]._event="message_stop")", "[14]=<absent>"}
                                                    << QStringList{};
    QTest::newRow("chat stream to responses client") << "responses"
                                                     << "chat"
                                                     << "chat_stream_tool.sse" << false
                                                     << QStringList{
                                                            R"([4].delta="Reading ")", R"([9].item.call_id="call_DdmO9pD3xa9XTPNJ32zg2hcA")",
                                                            R"([11].delta="path\":\"a.py\"}")", R"([12].arguments="{\"file_path\":\"a.py\"}")",
                                                            R"([14].item.call_id="call_ABCd2")", R"([18]._event="response.completed")",
                                                            R"([18].response.output[0].content[0].text="Reading both.")",
                                                            "[18].response.usage.input_tokens=900", "[18].response.usage.input_tokens_details.cached_tokens=512",
                                                            "[18].response.usage.output_tokens=60", "[18].response.usage.output_tokens_details.reasoning_tokens=20",
                                                            "[19]=<absent>"}
                                                     << QStringList{};
    QTest::newRow("responses stream to messages client") << "messages"
                                                         << "responses"
                                                         << "responses_stream_tool.sse" << false
                                                         << QStringList{
                                                                R"([0].message.id="resp_68b0")", R"([1].content_block.type="thinking")", "[2].index=0",
                                                                R"([2].delta={"type":"thinking_delta","thinking":"**Listing** "})",
                                                                // The thinking block ends with the proxy's mark where Anthropic's signature would be.
                                                                R"([4].delta={"type":"signature_delta","signature":"aile-translated"})", R"([5]._event="content_block_stop")",
                                                                R"([6].content_block.type="text")", "[6].index=1", "[7].index=1", R"([7].delta.text="On it")",
                                                                R"([10].content_block={"type":"tool_use","id":"call_Zq81","name":"shell","input":{}})",
                                                                R"([12].delta.partial_json="[\"ls\"]}")", R"([14].delta.stop_reason="tool_use")",
                                                                "[14].usage.input_tokens=952", "[14].usage.cache_read_input_tokens=2048", "[14].usage.output_tokens=180",
                                                                R"([15]._event="message_stop")", "[16]=<absent>"}
                                                         << QStringList{"reasoning.encrypted_content"};
    QTest::newRow("responses stream to chat client") << "chat"
                                                     << "responses"
                                                     << "responses_stream_tool.sse" << false
                                                     << QStringList{
                                                            R"([1].choices[0].delta.content="On it")", R"([3].choices[0].delta.tool_calls[0].id="call_Zq81")",
                                                            R"([5].choices[0].delta.tool_calls[0].function.arguments="[\"ls\"]}")",
                                                            R"([6].choices[0].finish_reason="tool_calls")", "[7].done=true", "[8]=<absent>"}
                                                     << QStringList{"reasoning"};
    QTest::newRow("messages error mid-stream to chat client") << "chat"
                                                              << "messages"
                                                              << "messages_stream_overloaded.sse" << true
                                                              << QStringList{R"([1].choices[0].delta.content="Hel")",
                                                                             R"([2].error={"code":529,"message":"Overloaded","type":"server_error"})", "[3]=<absent>"}
                                                              << QStringList{};
    QTest::newRow("messages error mid-stream to responses client") << "responses"
                                                                   << "messages"
                                                                   << "messages_stream_overloaded.sse" << true
                                                                   << QStringList{R"([4].delta="Hel")", R"([5]._event="error")", R"([5].message="Overloaded")",
                                                                                  R"([6]._event="response.failed")", R"([6].response.status="failed")",
                                                                                  R"([6].response.error.message="Overloaded")", "[7]=<absent>"}
                                                                   << QStringList{};
}

void TestTranslation::stream()
{
    QFETCH(QString, client);
    QFETCH(QString, upstream);
    QFETCH(QString, file);
    QFETCH(bool, includeUsage);
    QFETCH(QStringList, checks);
    QFETCH(QStringList, dropped);
    Translate::StreamTranslator t(wire(client), wire(upstream), includeUsage);
    const QByteArray out = translateStream(t, data(file));
    const QJsonArray got = events(out);
    if (qEnvironmentVariableIsSet("AILE_TRANSLATE_DUMP"))
        for (qsizetype i = 0; i < got.size(); ++i)
            qInfo().noquote() << i << QJsonDocument(got.at(i).toObject()).toJson(QJsonDocument::Compact);
    QVERIFY(t.finished());
    verify(got, checks);
    verifyDropped(t.dropped(), dropped);
}

void TestTranslation::streamIsTranslatedEventByEvent()
{
    // Each upstream event yields its client events at once: the text and the tool-call argument
    // deltas reach the client before the upstream's next event is read.
    Translate::StreamTranslator t(Endpoint::ChatCompletions, Endpoint::Messages, true);
    Wire::SseParser parser;
    QStringList seen;
    for (const Wire::SseEvent &e : parser.feed(data(QStringLiteral("messages_stream_tool.sse")))) {
        const QByteArray out = t.feed(e);
        if (e.data.contains("\"text\":\"Checking \""))
            QVERIFY2(out.contains("\"content\":\"Checking \""), out.constData());
        if (e.data.contains("ris\\\"}"))
            QVERIFY2(out.contains("\"arguments\":\"ris\\\"}\""), out.constData());
        if (e.name == "message_stop")
            QVERIFY(out.endsWith("data: [DONE]\n\n"));
        else
            QVERIFY(!t.finished());
    }
    QVERIFY(t.finished());
}

void TestTranslation::error_data()
{
    QTest::addColumn<QString>("client");
    QTest::addColumn<QString>("upstream");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QStringList>("checks");

    QTest::newRow("anthropic rate limit to chat client") << "chat"
                                                         << "messages" << 429
                                                         << QByteArray(R"({"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}})")
                                                         << QStringList{R"(error.message="Number of request tokens has exceeded your per-minute rate limit")",
                                                                        R"(error.type="rate_limit_error")", "error.code=429", "type=<absent>"};
    QTest::newRow("openai bad request to messages client") << "messages"
                                                           << "chat" << 400
                                                           << QByteArray(R"({"error":{"message":"Invalid 'messages[1].content': string too long.","type":"invalid_request_error","param":"messages[1].content","code":"string_above_max_length"}})")
                                                           << QStringList{R"(type="error")", R"(error.type="invalid_request_error")",
                                                                          R"(error.message="Invalid 'messages[1].content': string too long.")"};
    QTest::newRow("anthropic overloaded to responses client") << "responses"
                                                              << "messages" << 529
                                                              << QByteArray(R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})")
                                                              << QStringList{R"(error.message="Overloaded")", R"(error.type="server_error")", "error.code=529"};
    QTest::newRow("unreadable body to messages client") << "messages"
                                                        << "responses" << 502
                                                        << QByteArray("<html>Bad Gateway</html>")
                                                        << QStringList{R"(type="error")", R"(error.type="api_error")",
                                                                       R"(error.message="The responses provider answered 502 without an error message it is possible to read.")"};
}

void TestTranslation::error()
{
    QFETCH(QString, client);
    QFETCH(QString, upstream);
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QStringList, checks);
    verify(QJsonDocument::fromJson(Translate::translateError(wire(client), wire(upstream), status, body)).object(), checks);
}

void TestTranslation::toolRoundTripClaudeCodeOnChat()
{
    // Claude Code asks with tools; an OpenAI-wire model calls one; Claude Code sends the result back.
    const QJsonObject first = QJsonDocument::fromJson(data(QStringLiteral("messages_request_tools.json"))).object();
    const auto answer = Translate::translateAnswer(Endpoint::Messages, Endpoint::ChatCompletions,
                                                   data(QStringLiteral("chat_answer_tool.json")));
    const QJsonArray calls = QJsonDocument::fromJson(answer.body).object().value("content").toArray();
    QCOMPARE(calls.size(), 2);
    QJsonArray messages = first.value("messages").toArray();
    messages.append(QJsonObject{{"role", "assistant"}, {"content", calls}});
    messages.append(QJsonObject{{"role", "user"}, {"content", QJsonArray{QJsonObject{{"type", "tool_result"}, {"tool_use_id", calls.at(0).toObject().value("id")}, {"content", "x = 1"}}, QJsonObject{{"type", "tool_result"}, {"tool_use_id", calls.at(1).toObject().value("id")}, {"content", "a.py"}}}}});
    QJsonObject next = first;
    next.insert("messages", messages);
    const auto t = Translate::translateRequest(Endpoint::Messages, Endpoint::ChatCompletions,
                                               QJsonDocument(next).toJson(QJsonDocument::Compact));
    QVERIFY2(t.ok(), qPrintable(t.refusal));
    verify(QJsonDocument::fromJson(t.body).object(),
           {R"(messages[6].role="assistant")", R"(messages[6].tool_calls[0].id="call_12345xyz")",
            R"(messages[6].tool_calls[0].function.arguments="{\"file_path\":\"main.py\"}")",
            R"(messages[6].tool_calls[1].id="call_67890abc")",
            R"(messages[7]={"role":"tool","tool_call_id":"call_12345xyz","content":"x = 1"})",
            R"(messages[8]={"role":"tool","tool_call_id":"call_67890abc","content":"a.py"})", "messages[9]=<absent>"});
}

void TestTranslation::toolRoundTripCodexOnMessages()
{
    // Codex asks with tools; a Messages-wire model calls one; Codex sends the output back.
    const QJsonObject first = QJsonDocument::fromJson(data(QStringLiteral("responses_request_tools.json"))).object();
    const auto answer = Translate::translateAnswer(Endpoint::Responses, Endpoint::Messages,
                                                   data(QStringLiteral("messages_answer_tool.json")));
    QJsonArray input = first.value("input").toArray();
    for (const QJsonValue &item : QJsonDocument::fromJson(answer.body).object().value("output").toArray())
        input.append(item); // Codex echoes the output items back, reasoning included
    input.append(QJsonObject{{"type", "function_call_output"}, {"call_id", "toolu_01T1x1fJ34qAmk2tNTrN7Up6"}, {"output", "18C"}});
    input.append(QJsonObject{{"type", "function_call_output"}, {"call_id", "toolu_01T1x1fJ34qAmk2tNTrN7Up7"}, {"output", "21C"}});
    QJsonObject next = first;
    next.insert("input", input);
    const auto t = Translate::translateRequest(Endpoint::Responses, Endpoint::Messages,
                                               QJsonDocument(next).toJson(QJsonDocument::Compact));
    QVERIFY2(t.ok(), qPrintable(t.refusal));
    verify(QJsonDocument::fromJson(t.body).object(),
           {R"(messages[5].role="assistant")", R"(messages[5].content[0]={"type":"text","text":"I'll check both."})",
            R"(messages[5].content[1].id="toolu_01T1x1fJ34qAmk2tNTrN7Up6")", R"(messages[5].content[1].input={"city":"Paris"})",
            R"(messages[5].content[2].id="toolu_01T1x1fJ34qAmk2tNTrN7Up7")", "messages[5].content[3]=<absent>",
            R"(messages[6].role="user")",
            R"(messages[6].content[0]={"type":"tool_result","tool_use_id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","content":"18C"})",
            R"(messages[6].content[1].tool_use_id="toolu_01T1x1fJ34qAmk2tNTrN7Up7")", "messages[7]=<absent>"});
    verifyDropped(t.dropped, {"input[].reasoning"});
}

void TestTranslation::customToolCallToCodex_data()
{
    QTest::addColumn<QString>("upstream");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("patch");
    const QString patch = QStringLiteral("*** Begin Patch\n*** Update File: hello.txt\n-Hello\n+Hello \"world\" ");
    QTest::newRow("messages answer") << "messages"
                                     << "messages_answer_apply_patch.json" << patch + QString(QChar(0x263A)) + QStringLiteral("\n*** End Patch");
    // The arguments stream in pieces cut inside the key, an escape and a surrogate pair.
    QTest::newRow("chat stream") << "chat"
                                 << "chat_stream_apply_patch.sse"
                                 << patch + QString::fromUcs4(U"\U0001F600") + QStringLiteral("\n*** End Patch");
}

// The model's call of apply_patch (a function call on its wire) reaches Codex as the
// custom_tool_call it offered, its input the plain patch text; streamed, as
// response.custom_tool_call_input.delta events as the arguments come, then .done.
void TestTranslation::customToolCallToCodex()
{
    QFETCH(QString, upstream);
    QFETCH(QString, file);
    QFETCH(QString, patch);
    const QStringList custom{QStringLiteral("apply_patch")};
    if (!file.endsWith(QLatin1String(".sse"))) {
        const auto t = Translate::translateAnswer(Endpoint::Responses, wire(upstream), data(file), custom);
        const QJsonObject body = QJsonDocument::fromJson(t.body).object();
        verify(body, {R"(output[1].type="custom_tool_call")", R"(output[1].call_id="toolu_01Pq88")", R"(output[1].name="apply_patch")",
                      "output[1].arguments=<absent>", R"(output[0].content[0].text="Editing hello.txt.")"});
        QCOMPARE(at(body, QStringLiteral("output[1].input")).toString(), patch);
        return;
    }
    Translate::StreamTranslator t(Endpoint::Responses, wire(upstream), false, custom);
    Wire::SseParser parser;
    QString deltas;
    int deltaEvents = 0;
    QJsonObject done;
    QJsonObject item;
    for (const Wire::SseEvent &in : parser.feed(data(file))) {
        Wire::SseParser out;
        for (const Wire::SseEvent &e : out.feed(t.feed(in))) {
            const QJsonObject o = QJsonDocument::fromJson(e.data).object();
            const QString type = o.value("type").toString();
            QVERIFY2(!type.startsWith(QLatin1String("response.function_call")), e.data.constData());
            if (type == QLatin1String("response.custom_tool_call_input.delta")) {
                deltas += o.value("delta").toString();
                ++deltaEvents;
            } else if (type == QLatin1String("response.custom_tool_call_input.done")) {
                done = o;
            } else if (type == QLatin1String("response.output_item.done")) {
                item = o.value("item").toObject();
            }
        }
    }
    QCOMPARE(deltaEvents, 3); // one per upstream piece that held input text (the first holds only the key)
    QCOMPARE(deltas, patch);
    QCOMPARE(done.value("input").toString(), patch);
    verify(item, {R"(type="custom_tool_call")", R"(call_id="call_Pq99")", R"(name="apply_patch")"});
    QCOMPARE(item.value("input").toString(), patch);
    QVERIFY(t.finished());
}

void TestTranslation::labelsAndPairs()
{
    QCOMPARE(Translate::label(Endpoint::Messages, Endpoint::ChatCompletions), QStringLiteral("messages->chat"));
    QCOMPARE(Translate::label(Endpoint::Responses, Endpoint::Messages), QStringLiteral("responses->messages"));
    QVERIFY(Translate::canTranslate(Endpoint::ChatCompletions, Endpoint::Responses));
    QVERIFY(!Translate::canTranslate(Endpoint::Messages, Endpoint::Messages));
    QVERIFY(!Translate::canTranslate(Endpoint::Embeddings, Endpoint::ChatCompletions));
    QVERIFY(!Translate::canTranslate(Endpoint::CountTokens, Endpoint::ChatCompletions));
}

QTEST_GUILESS_MAIN(TestTranslation)
#include "TestTranslation.moc"
