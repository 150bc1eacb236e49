// The translation suite's requests and refusals (TestTranslation.h): each request row checks fields of
// the translated body by path; each refusal names the field that cannot be translated.
#include "TestTranslation.h"

using namespace TranslationTest;

void TestTranslation::request_data()
{
    QTest::addColumn<QString>("client");
    QTest::addColumn<QString>("upstream");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("checks");
    QTest::addColumn<QStringList>("dropped");

    QTest::newRow("messages->chat tools")
        << "messages"
        << "chat"
        << "messages_request_tools.json"
        << QStringList{R"(model="gpt-5.2")",
                       R"(messages[0].role="system")",
                       R"(messages[0].content="You are Claude Code, a coding assistant.\n\nProject rules: keep functions short.")",
                       R"(messages[1].content[0].text="What does main.py print? Here is the screen.")",
                       R"(messages[1].content[1].image_url.url="data:image/png;base64,iVBORw0KGgo=")",
                       R"(messages[2].role="assistant")",
                       R"(messages[2].content="Let me look.")",
                       R"(messages[2].tool_calls[0].id="toolu_01A09q90qw90lq917835lq9")",
                       R"(messages[2].tool_calls[0].function.name="Read")",
                       R"(messages[2].tool_calls[0].function.arguments="{\"file_path\":\"main.py\"}")",
                       R"(messages[2].tool_calls[1].id="toolu_01B77x")",
                       R"(messages[3].role="tool")",
                       R"(messages[3].tool_call_id="toolu_01A09q90qw90lq917835lq9")",
                       R"~(messages[3].content="print('hi')")~",
                       R"(messages[4].tool_call_id="toolu_01B77x")",
                       R"(messages[4].content="Error: python3: not found")",
                       R"(messages[5].role="user")",
                       R"(messages[5].content="Go on.")",
                       "messages[6]=<absent>",
                       R"(tools[1].type="function")",
                       R"(tools[1].function.name="Bash")",
                       R"(tools[1].function.parameters.required=["command"])",
                       "tools[1].cache_control=<absent>",
                       R"(tool_choice="auto")",
                       "parallel_tool_calls=true",
                       "max_tokens=32000",
                       "temperature=<absent>",
                       "stream=true",
                       "stream_options.include_usage=true",
                       R"(reasoning_effort="medium")",
                       R"(prompt_cache_key="session-7")",
                       "thinking=<absent>",
                       "metadata=<absent>",
                       "system=<absent>"}
        << QStringList{"messages[].content[].thinking", "cache_control", "metadata.user_id"};

    QTest::newRow("messages->responses tools")
        << "messages"
        << "responses"
        << "messages_request_tools.json"
        << QStringList{R"(instructions="You are Claude Code, a coding assistant.\n\nProject rules: keep functions short.")",
                       R"(input[0].type="message")",
                       R"(input[0].role="user")",
                       R"(input[0].content[0].type="input_text")",
                       R"(input[0].content[1].type="input_image")",
                       R"(input[0].content[1].image_url="data:image/png;base64,iVBORw0KGgo=")",
                       R"(input[1].role="assistant")",
                       R"(input[1].content[0].type="output_text")",
                       R"(input[1].content[0].text="Let me look.")",
                       R"(input[2].type="function_call")",
                       R"(input[2].call_id="toolu_01A09q90qw90lq917835lq9")",
                       R"(input[2].name="Read")",
                       R"(input[2].arguments="{\"file_path\":\"main.py\"}")",
                       R"(input[3].type="function_call")",
                       R"(input[3].call_id="toolu_01B77x")",
                       R"(input[4].type="function_call_output")",
                       R"(input[4].call_id="toolu_01A09q90qw90lq917835lq9")",
                       R"~(input[4].output="print('hi')")~",
                       R"(input[5].call_id="toolu_01B77x")",
                       R"(input[5].output="Error: python3: not found")",
                       R"(input[6].role="user")",
                       R"(input[6].content[0].text="Go on.")",
                       "input[7]=<absent>",
                       R"(tools[0].type="function")",
                       R"(tools[0].name="Read")",
                       R"(tools[0].parameters.required=["file_path"])",
                       R"(tool_choice="auto")",
                       "parallel_tool_calls=true",
                       "max_output_tokens=32000",
                       "stream=true",
                       "store=false",
                       R"(reasoning={"effort":"medium","summary":"auto"})",
                       R"(prompt_cache_key="session-7")",
                       "stream_options=<absent>"}
        << QStringList{"messages[].content[].thinking", "cache_control"};

    QTest::newRow("messages->chat tool result image")
        << "messages"
        << "chat"
        << "messages_request_tool_image.json"
        << QStringList{R"(messages[2]={"role":"tool","tool_call_id":"toolu_01Img","content":"shot.png"})", R"(messages[3].role="user")",
                       R"(messages[3].content[0].image_url.url="data:image/png;base64,iVBORw0KGgo=")",
                       R"(messages[4]={"role":"system","content":"The user is on a small screen."})", "messages[5]=<absent>"}
        << QStringList{};
    QTest::newRow("messages->responses tool result image")
        << "messages"
        << "responses"
        << "messages_request_tool_image.json"
        << QStringList{R"(input[2].type="function_call_output")", R"(input[2].call_id="toolu_01Img")",
                       R"(input[2].output=[{"type":"input_text","text":"shot.png"},{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo="}])",
                       R"(input[3]={"type":"message","role":"system","content":[{"type":"input_text","text":"The user is on a small screen."}]})",
                       "input[4]=<absent>"}
        << QStringList{};
    QTest::newRow("chat->messages tools")
        << "chat"
        << "messages"
        << "chat_request_tools.json"
        << QStringList{R"(system="You are a helpful assistant.")",
                       R"(messages[0].role="user")",
                       R"(messages[0].content[0].text="What is the weather in Paris and in Lyon?")",
                       R"(messages[0].content[1].source={"type":"base64","media_type":"image/jpeg","data":"/9j/4AAQ"})",
                       R"(messages[1].role="assistant")",
                       R"(messages[1].content[0].type="tool_use")",
                       R"(messages[1].content[0].id="call_abc123")",
                       R"(messages[1].content[0].input={"city":"Paris"})",
                       R"(messages[1].content[1].id="call_def456")",
                       R"(messages[2].role="user")",
                       R"(messages[2].content[0].type="tool_result")",
                       R"(messages[2].content[0].tool_use_id="call_abc123")",
                       R"(messages[2].content[0].content="18C, clear")",
                       R"(messages[2].content[1].tool_use_id="call_def456")",
                       "messages[3]=<absent>",
                       R"(tools[0].name="get_weather")",
                       R"(tools[0].input_schema.required=["city"])",
                       R"(tool_choice={"type":"tool","name":"get_weather","disable_parallel_tool_use":true})",
                       "max_tokens=1024",
                       "temperature=0.2",
                       "top_p=0.9",
                       R"(stop_sequences=["\n\nUser:"])",
                       "stream=true",
                       "stream_options=<absent>",
                       "n=<absent>",
                       "user=<absent>",
                       "metadata=<absent>"}
        << QStringList{"user"};

    QTest::newRow("chat->messages cache_control kept")
        << "chat"
        << "messages"
        << "chat_request_cache.json"
        << QStringList{R"(system[0].text="You are a careful reviewer. The style guide follows.")", R"(system[0].cache_control={"type":"ephemeral"})",
                       R"(messages[0].content[0].cache_control={"type":"ephemeral","ttl":"1h"})", "messages[0].content[1].cache_control=<absent>",
                       "max_tokens=512"}
        << QStringList{};

    QTest::newRow("chat->messages reasoning too big for max_tokens")
        << "chat"
        << "messages"
        << "chat_request_plain.json"
        << QStringList{R"(system="Answer in French.")", R"(messages[0].content[0].text="Say hello.")", "max_tokens=200", "thinking=<absent>",
                       "stream=<absent>"}
        << QStringList{"reasoning effort"};

    QTest::newRow("chat->responses plain") << "chat"
                                           << "responses"
                                           << "chat_request_plain.json"
                                           << QStringList{R"(instructions="Answer in French.")",
                                                          R"(input[0].content[0].text="Say hello.")",
                                                          "max_output_tokens=200",
                                                          R"(reasoning.effort="low")",
                                                          "stream=<absent>",
                                                          "store=false"}
                                           << QStringList{};

    QTest::newRow("responses->messages codex") << "responses"
                                               << "messages"
                                               << "responses_request_tools.json"
                                               << QStringList{R"(system="You are Codex, a coding agent.\n\nSandbox: workspace-write.")",
                                                              R"(messages[0].role="user")",
                                                              R"(messages[0].content[0].text="List the files.")",
                                                              R"(messages[1].role="assistant")",
                                                              R"(messages[1].content[0].type="tool_use")",
                                                              R"(messages[1].content[0].id="call_Xy12")",
                                                              R"(messages[1].content[0].name="shell")",
                                                              R"(messages[1].content[0].input={"command":["ls"]})",
                                                              "messages[1].content[1]=<absent>",
                                                              R"(messages[2].role="user")",
                                                              R"(messages[2].content[0].type="tool_result")",
                                                              R"(messages[2].content[0].tool_use_id="call_Xy12")",
                                                              R"(messages[2].content[0].content="README.md\nmain.py")",
                                                              R"(messages[3].role="assistant")",
                                                              R"(messages[3].content[0].text="Two files.")",
                                                              R"(messages[4].role="user")",
                                                              R"(messages[4].content[0].text="Show main.py.")",
                                                              "messages[5]=<absent>",
                                                              R"(tools[0].name="shell")",
                                                              R"(tools[0].input_schema.required=["command"])",
                                                              R"(tool_choice={"type":"auto"})",
                                                              "max_tokens=4096",
                                                              "stream=true",
                                                              R"(thinking={"type":"enabled","budget_tokens":2048})",
                                                              "store=<absent>",
                                                              "include=<absent>",
                                                              "prompt_cache_key=<absent>",
                                                              "reasoning=<absent>"}
                                               << QStringList{"input[].reasoning", "include", "prompt_cache_key", "client_metadata", "store"};

    QTest::newRow("responses->chat codex")
        << "responses"
        << "chat"
        << "responses_request_tools.json"
        << QStringList{R"(messages[0].role="system")",
                       R"(messages[0].content="You are Codex, a coding agent.\n\nSandbox: workspace-write.")",
                       R"(messages[1].role="user")",
                       R"(messages[1].content="List the files.")",
                       R"(messages[2].role="assistant")",
                       "messages[2].content=null",
                       R"(messages[2].tool_calls[0]={"id":"call_Xy12","type":"function","function":{"name":"shell","arguments":"{\"command\":[\"ls\"]}"}})",
                       R"(messages[3].role="tool")",
                       R"(messages[3].tool_call_id="call_Xy12")",
                       R"(messages[3].content="README.md\nmain.py")",
                       R"(messages[4].content="Two files.")",
                       R"(messages[5].content="Show main.py.")",
                       "messages[6]=<absent>",
                       R"(tools[0].function.name="shell")",
                       "parallel_tool_calls=true",
                       R"(tool_choice="auto")",
                       R"(reasoning_effort="high")",
                       R"(prompt_cache_key="019a2b3c-thread")",
                       "stream_options.include_usage=true",
                       "max_tokens=<absent>",
                       "store=<absent>"}
        << QStringList{"input[].reasoning", "include", "store"};

    // Codex's apply_patch (a custom tool, freeform input under a grammar): a function tool with one
    // string parameter; its call and output in the history, a tool_use/tool_calls and its result.
    QTest::newRow("responses->messages apply_patch")
        << "responses"
        << "messages"
        << "responses_request_apply_patch.json"
        << QStringList{R"(tools[0].name="apply_patch")",
                       R"(tools[0].description="Use the `apply_patch` tool to edit files.")",
                       R"(tools[0].input_schema.required=["input"])",
                       R"(tools[0].input_schema.properties.input.type="string")",
                       R"(messages[1].content[0]={"type":"tool_use","id":"call_Pq77","name":"apply_patch","input":{"input":"*** Begin Patch\n*** Add File: hello.txt\n+Hello\n*** End Patch"}})",
                       R"(messages[2].content[0]={"type":"tool_result","tool_use_id":"call_Pq77","content":"Success. Updated the following files:\nA hello.txt"})",
                       R"(messages[2].content[1].text="Now say \"world\" in it.")",
                       "messages[3]=<absent>",
                       R"(tool_choice={"type":"auto","disable_parallel_tool_use":true})"}
        << QStringList{"store"};
    QTest::newRow("responses->chat apply_patch")
        << "responses"
        << "chat"
        << "responses_request_apply_patch.json"
        << QStringList{R"(tools[0].type="function")",
                       R"(tools[0].function.name="apply_patch")",
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
                                          << QByteArray(
                                                 R"({"model":"m","max_tokens":10,"messages":)" + hi
                                                 + R"(,"tools":[{"name":"a","input_schema":{}},{"type":"web_search_20250305","name":"web_search"}]})")
                                          << "tools[1].type=web_search_20250305";
    QTest::newRow("messages computer use") << "messages"
                                           << "responses"
                                           << QByteArray(R"({"model":"m","max_tokens":10,"messages":)" + hi
                                                         + R"(,"tools":[{"type":"computer_20250124","name":"computer"}]})")
                                           << "tools[0].type=computer_20250124";
    QTest::newRow("messages document block")
        << "messages"
        << "chat"
        << QByteArray(
               R"({"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"x"}}]}]})")
        << "messages[0].content[0].type=document";
    QTest::newRow("messages unknown block")
        << "messages"
        << "responses"
        << QByteArray(R"({"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"search_result","content":[]}]}]})")
        << "messages[0].content[0].type=search_result";
    QTest::newRow("messages top_k") << "messages"
                                    << "chat" << QByteArray(R"({"model":"m","max_tokens":10,"top_k":5,"messages":)" + hi + "}") << "top_k";
    QTest::newRow("messages mcp_servers beta")
        << "messages"
        << "chat" << QByteArray(R"({"model":"m","max_tokens":10,"mcp_servers":[{"type":"url","url":"https://x"}],"messages":)" + hi + "}")
        << "mcp_servers";
    QTest::newRow("messages structured output")
        << "messages"
        << "chat"
        << QByteArray(R"({"model":"m","max_tokens":10,"output_config":{"format":{"type":"json_schema","schema":{}}},"messages":)" + hi + "}")
        << "output_config.format";
    QTest::newRow("messages stop_sequences to responses")
        << "messages"
        << "responses" << QByteArray(R"({"model":"m","max_tokens":10,"stop_sequences":["END"],"messages":)" + hi + "}") << "stop sequences";
    QTest::newRow("chat n=2") << "chat"
                              << "messages" << QByteArray(R"({"model":"m","n":2,"messages":)" + hi + "}") << "n";
    QTest::newRow("chat logprobs") << "chat"
                                   << "responses" << QByteArray(R"({"model":"m","logprobs":true,"messages":)" + hi + "}") << "logprobs";
    QTest::newRow("chat json_schema")
        << "chat"
        << "messages"
        << QByteArray(R"({"model":"m","response_format":{"type":"json_schema","json_schema":{"name":"x","schema":{}}},"messages":)" + hi + "}")
        << "response_format";
    QTest::newRow("chat presence_penalty") << "chat"
                                           << "messages" << QByteArray(R"({"model":"m","presence_penalty":0.5,"messages":)" + hi + "}")
                                           << "presence_penalty";
    QTest::newRow("chat audio input")
        << "chat"
        << "messages"
        << QByteArray(R"({"model":"m","messages":[{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"x","format":"wav"}}]}]})")
        << "messages[0].content[0].type=input_audio";
    QTest::newRow("chat custom tool") << "chat"
                                      << "messages"
                                      << QByteArray(R"({"model":"m","messages":)" + hi + R"(,"tools":[{"type":"custom","custom":{"name":"x"}}]})")
                                      << "tools[0].type=custom";
    QTest::newRow("responses web_search") << "responses"
                                          << "messages" << QByteArray(R"({"model":"m","input":"hi","tools":[{"type":"web_search"}]})")
                                          << "tools[0].type=web_search";
    QTest::newRow("responses previous_response_id")
        << "responses"
        << "messages" << QByteArray(R"({"model":"m","input":"hi","previous_response_id":"resp_1"})") << "previous_response_id";
    QTest::newRow("responses input_file") << "responses"
                                          << "chat"
                                          << QByteArray(
                                                 R"({"model":"m","input":[{"role":"user","content":[{"type":"input_file","file_id":"file-1"}]}]})")
                                          << "input[0].content[0].type=input_file";
    QTest::newRow("responses json schema output")
        << "responses"
        << "messages" << QByteArray(R"({"model":"m","input":"hi","text":{"format":{"type":"json_schema","name":"x","schema":{}}}})")
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
