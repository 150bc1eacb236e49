// The translation layer, direction by direction, from request, answer and stream bodies written
// from the providers' documented formats (data/). Each row checks fields of the translated body by
// path ("messages[2].tool_calls[0].id") against a JSON value; docs/translation.md names the rows.
#include "TestTranslation.h"

using namespace TranslationTest;

void TestTranslation::answer_data()
{
    QTest::addColumn<QString>("client");
    QTest::addColumn<QString>("upstream");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("checks");
    QTest::addColumn<QStringList>("dropped");

    QTest::newRow("chat answer to messages client")
        << "messages"
        << "chat"
        << "chat_answer_tool.json"
        << QStringList{R"(id="chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT")",
                       R"(type="message")",
                       R"(role="assistant")",
                       R"(model="gpt-5.2-2026-01-15")",
                       R"(content[0]={"type":"tool_use","id":"call_12345xyz","name":"Read","input":{"file_path":"main.py"}})",
                       R"(content[1].id="call_67890abc")",
                       R"(content[1].input={"command":"ls"})",
                       "content[2]=<absent>",
                       R"(stop_reason="tool_use")",
                       "stop_sequence=null",
                       "usage.input_tokens=476",
                       "usage.cache_read_input_tokens=1024",
                       "usage.cache_creation_input_tokens=0",
                       "usage.output_tokens=120"}
        << QStringList{};
    QTest::newRow("chat answer to responses client") << "responses"
                                                     << "chat"
                                                     << "chat_answer_tool.json"
                                                     << QStringList{R"(object="response")",
                                                                    R"(status="completed")",
                                                                    "incomplete_details=null",
                                                                    "created_at=1741569952",
                                                                    R"(output[0].type="function_call")",
                                                                    R"(output[0].call_id="call_12345xyz")",
                                                                    R"(output[0].name="Read")",
                                                                    R"(output[0].arguments="{\"file_path\":\"main.py\"}")",
                                                                    R"(output[1].call_id="call_67890abc")",
                                                                    "output[2]=<absent>",
                                                                    "usage.input_tokens=1500",
                                                                    "usage.input_tokens_details.cached_tokens=1024",
                                                                    "usage.output_tokens=120",
                                                                    "usage.output_tokens_details.reasoning_tokens=64",
                                                                    "usage.total_tokens=1620"}
                                                     << QStringList{};
    QTest::newRow("messages answer to chat client")
        << "chat"
        << "messages"
        << "messages_answer_tool.json"
        << QStringList{R"(object="chat.completion")",
                       R"(choices[0].message.content="I'll check both.")",
                       R"(choices[0].message.tool_calls[0].id="toolu_01T1x1fJ34qAmk2tNTrN7Up6")",
                       R"(choices[0].message.tool_calls[0].function={"name":"get_weather","arguments":"{\"city\":\"Paris\"}"})",
                       R"(choices[0].message.tool_calls[1].id="toolu_01T1x1fJ34qAmk2tNTrN7Up7")",
                       R"(choices[0].finish_reason="tool_calls")",
                       "usage.prompt_tokens=1542",
                       "usage.prompt_tokens_details.cached_tokens=1200",
                       "usage.completion_tokens=95",
                       "usage.total_tokens=1637"}
        << QStringList{"reasoning", "redacted_thinking"};
    QTest::newRow("messages answer to responses client") << "responses"
                                                         << "messages"
                                                         << "messages_answer_tool.json"
                                                         << QStringList{R"(output[0].type="reasoning")",
                                                                        R"(output[0].summary[0].text="The user wants both cities.")",
                                                                        "output[0].encrypted_content=<absent>",
                                                                        R"(output[0].id="rs_aile-translated_msg_01XFDUDYJgAACzvnptvVoYEL_0")",
                                                                        R"(output[1].type="message")",
                                                                        R"(output[1].content[0].text="I'll check both.")",
                                                                        R"(output[2].type="function_call")",
                                                                        R"(output[2].call_id="toolu_01T1x1fJ34qAmk2tNTrN7Up6")",
                                                                        R"(output[2].arguments="{\"city\":\"Paris\"}")",
                                                                        R"(output[3].call_id="toolu_01T1x1fJ34qAmk2tNTrN7Up7")",
                                                                        R"(status="completed")",
                                                                        "usage.input_tokens=1542",
                                                                        "usage.input_tokens_details.cached_tokens=1200",
                                                                        "usage.output_tokens=95"}
                                                         << QStringList{"redacted_thinking"};
    QTest::newRow("responses answer to messages client")
        << "messages"
        << "responses"
        << "responses_answer_tool.json"
        << QStringList{R"(content[0].type="thinking")",
                       R"(content[0].thinking="**Planning** I need the file list.")",
                       R"(content[0].signature="aile-translated")",
                       R"(content[1]={"type":"text","text":"Listing the files."})",
                       R"(content[2]={"type":"tool_use","id":"call_Q3b9","name":"shell","input":{"command":["ls","-la"]}})",
                       R"(stop_reason="tool_use")",
                       "usage.input_tokens=464",
                       "usage.cache_read_input_tokens=1536",
                       "usage.output_tokens=150"}
        << QStringList{"reasoning.encrypted_content"};
    QTest::newRow("responses answer to chat client")
        << "chat"
        << "responses"
        << "responses_answer_tool.json"
        << QStringList{R"(choices[0].message.content="Listing the files.")", R"(choices[0].message.tool_calls[0].id="call_Q3b9")",
                       R"(choices[0].finish_reason="tool_calls")",           "usage.prompt_tokens=2000",
                       "usage.prompt_tokens_details.cached_tokens=1536",     "usage.completion_tokens_details.reasoning_tokens=100"}
        << QStringList{"reasoning", "reasoning.encrypted_content"};
    QTest::newRow("chat length to messages client") << "messages"
                                                    << "chat"
                                                    << "chat_answer_length.json"
                                                    << QStringList{R"(stop_reason="max_tokens")", R"(content[0].text="Bonjour, voici une longue")",
                                                                   "content[1]=<absent>", "usage.input_tokens=20", "usage.output_tokens=200"}
                                                    << QStringList{"reasoning_content"};
    QTest::newRow("chat length to responses client")
        << "responses"
        << "chat"
        << "chat_answer_length.json" << QStringList{R"(status="incomplete")", R"(incomplete_details.reason="max_output_tokens")"} << QStringList{};
    QTest::newRow("responses incomplete to messages client")
        << "messages"
        << "responses"
        << "responses_answer_incomplete.json" << QStringList{R"(stop_reason="max_tokens")", R"(content[0].text="The answer is long and")"}
        << QStringList{};
    QTest::newRow("responses incomplete to chat client")
        << "chat"
        << "responses"
        << "responses_answer_incomplete.json"
        << QStringList{R"(choices[0].finish_reason="length")", R"(choices[0].message.content="The answer is long and")"} << QStringList{};
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

    QTest::newRow("messages stream to chat client")
        << "chat"
        << "messages"
        << "messages_stream_tool.sse" << true
        << QStringList{R"([0].id="msg_014p7gG3wDgGV9EUtLvnow3U")",
                       R"([0].model="claude-sonnet-5")",
                       R"([0].choices[0].delta={"role":"assistant","content":""})",
                       R"([1].choices[0].delta.content="Checking ")",
                       R"([2].choices[0].delta.content="both.")",
                       R"([3].choices[0].delta.tool_calls[0]={"index":0,"id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","type":"function","function":{"name":"get_weather","arguments":""}})",
                       R"([5].choices[0].delta.tool_calls[0].function.arguments="{\"city\": \"Pa")",
                       R"([6].choices[0].delta.tool_calls[0].function.arguments="ris\"}")",
                       "[7].choices[0].delta.tool_calls[0].index=1",
                       R"([7].choices[0].delta.tool_calls[0].id="toolu_01T1x1fJ34qAmk2tNTrN7Up7")",
                       R"([9].choices[0].finish_reason="tool_calls")",
                       "[10].choices=[]",
                       R"([10].usage={"prompt_tokens":2520,"completion_tokens":89,"total_tokens":2609,"prompt_tokens_details":{"cached_tokens":2048},"completion_tokens_details":{"reasoning_tokens":0}})",
                       "[11].done=true",
                       "[12]=<absent>"}
        << QStringList{"reasoning"};
    QTest::newRow("messages stream to responses client") << "responses"
                                                         << "messages"
                                                         << "messages_stream_tool.sse" << false
                                                         << QStringList{R"([0]._event="response.created")",
                                                                        "[0].sequence_number=0",
                                                                        R"([0].response.status="in_progress")",
                                                                        R"([1]._event="response.in_progress")",
                                                                        "[1].sequence_number=1",
                                                                        R"([2].item.type="reasoning")",
                                                                        R"([4]._event="response.reasoning_summary_text.delta")",
                                                                        R"([4].delta="Two cities, ")",
                                                                        R"([8]._event="response.output_item.done")",
                                                                        R"([8].item.summary[0].text="Two cities, two calls.")",
                                                                        "[8].item.encrypted_content=<absent>",
                                                                        R"([11]._event="response.output_text.delta")",
                                                                        R"([11].delta="Checking ")",
                                                                        "[11].output_index=1",
                                                                        R"([15].item.content[0].text="Checking both.")",
                                                                        R"([16].item.type="function_call")",
                                                                        R"([16].item.call_id="toolu_01T1x1fJ34qAmk2tNTrN7Up6")",
                                                                        R"([16].item.name="get_weather")",
                                                                        R"([19]._event="response.function_call_arguments.delta")",
                                                                        R"([19].delta="ris\"}")",
                                                                        R"([19].item_id="fc_msg_014p7gG3wDgGV9EUtLvnow3U_2")",
                                                                        R"([20].arguments="{\"city\": \"Paris\"}")",
                                                                        R"([22].item.call_id="toolu_01T1x1fJ34qAmk2tNTrN7Up7")",
                                                                        R"([26]._event="response.completed")",
                                                                        "[26].sequence_number=26",
                                                                        R"([26].response.status="completed")",
                                                                        R"([26].response.output[2].call_id="toolu_01T1x1fJ34qAmk2tNTrN7Up6")",
                                                                        R"([26].response.output[3].arguments="{\"city\": \"Lyon\"}")",
                                                                        "[26].response.usage.input_tokens=2520",
                                                                        "[26].response.usage.input_tokens_details.cached_tokens=2048",
                                                                        "[26].response.usage.output_tokens=89",
                                                                        "[27]=<absent>"}
                                                         << QStringList{};
    QTest::newRow("chat stream to messages client")
        << "messages"
        << "chat"
        << "chat_stream_tool.sse" << false
        << QStringList{R"([0]._event="message_start")",
                       R"([0].message.id="chatcmpl-Bx1")",
                       R"([0].message.model="gpt-5.2")",
                       R"([1]._event="content_block_start")",
                       "[1].index=0",
                       R"([1].content_block={"type":"text","text":""})",
                       "[2].index=0",
                       R"([2].delta={"type":"text_delta","text":"Reading "})",
                       R"([4]._event="content_block_stop")",
                       "[4].index=0",
                       R"([5].content_block={"type":"tool_use","id":"call_DdmO9pD3xa9XTPNJ32zg2hcA","name":"Read","input":{}})",
                       "[5].index=1",
                       R"([6].delta={"type":"input_json_delta","partial_json":"{\"file_"})",
                       "[6].index=1",
                       R"([9].content_block.id="call_ABCd2")",
                       "[9].index=2",
                       R"([10].delta.partial_json="{\"file_path\":\"b.py\"}")",
                       "[10].index=2",
                       R"([12]._event="message_delta")",
                       R"([12].delta.stop_reason="tool_use")",
                       R"([12].usage={"input_tokens":388,"output_tokens":60,"cache_read_input_tokens":512,"cache_creation_input_tokens":0})",
                       R"([13]._event="message_stop")",
                       "[14]=<absent>"}
        << QStringList{};
    QTest::newRow("chat stream to responses client") << "responses"
                                                     << "chat"
                                                     << "chat_stream_tool.sse" << false
                                                     << QStringList{R"([4].delta="Reading ")",
                                                                    R"([9].item.call_id="call_DdmO9pD3xa9XTPNJ32zg2hcA")",
                                                                    R"([11].delta="path\":\"a.py\"}")",
                                                                    R"([12].arguments="{\"file_path\":\"a.py\"}")",
                                                                    R"([14].item.call_id="call_ABCd2")",
                                                                    R"([18]._event="response.completed")",
                                                                    R"([18].response.output[0].content[0].text="Reading both.")",
                                                                    "[18].response.usage.input_tokens=900",
                                                                    "[18].response.usage.input_tokens_details.cached_tokens=512",
                                                                    "[18].response.usage.output_tokens=60",
                                                                    "[18].response.usage.output_tokens_details.reasoning_tokens=20",
                                                                    "[19]=<absent>"}
                                                     << QStringList{};
    QTest::newRow("responses stream to messages client")
        << "messages"
        << "responses"
        << "responses_stream_tool.sse" << false
        << QStringList{R"([0].message.id="resp_68b0")", R"([1].content_block.type="thinking")", "[2].index=0",
                       R"([2].delta={"type":"thinking_delta","thinking":"**Listing** "})",
                       // The thinking block ends with the proxy's mark where Anthropic's signature would be.
                       R"([4].delta={"type":"signature_delta","signature":"aile-translated"})", R"([5]._event="content_block_stop")",
                       R"([6].content_block.type="text")", "[6].index=1", "[7].index=1", R"([7].delta.text="On it")",
                       R"([10].content_block={"type":"tool_use","id":"call_Zq81","name":"shell","input":{}})",
                       R"([12].delta.partial_json="[\"ls\"]}")", R"([14].delta.stop_reason="tool_use")", "[14].usage.input_tokens=952",
                       "[14].usage.cache_read_input_tokens=2048", "[14].usage.output_tokens=180", R"([15]._event="message_stop")", "[16]=<absent>"}
        << QStringList{"reasoning.encrypted_content"};
    QTest::newRow("responses stream to chat client") << "chat"
                                                     << "responses"
                                                     << "responses_stream_tool.sse" << false
                                                     << QStringList{R"([1].choices[0].delta.content="On it")",
                                                                    R"([3].choices[0].delta.tool_calls[0].id="call_Zq81")",
                                                                    R"([5].choices[0].delta.tool_calls[0].function.arguments="[\"ls\"]}")",
                                                                    R"([6].choices[0].finish_reason="tool_calls")",
                                                                    "[7].done=true",
                                                                    "[8]=<absent>"}
                                                     << QStringList{"reasoning"};
    QTest::newRow("messages error mid-stream to chat client")
        << "chat"
        << "messages"
        << "messages_stream_overloaded.sse" << true
        << QStringList{R"([1].choices[0].delta.content="Hel")", R"([2].error={"code":529,"message":"Overloaded","type":"server_error"})",
                       "[3]=<absent>"}
        << QStringList{};
    QTest::newRow("messages error mid-stream to responses client") << "responses"
                                                                   << "messages"
                                                                   << "messages_stream_overloaded.sse" << true
                                                                   << QStringList{R"([4].delta="Hel")",
                                                                                  R"([5]._event="error")",
                                                                                  R"([5].message="Overloaded")",
                                                                                  R"([6]._event="response.failed")",
                                                                                  R"([6].response.status="failed")",
                                                                                  R"([6].response.error.message="Overloaded")",
                                                                                  "[7]=<absent>"}
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

    QTest::newRow("anthropic rate limit to chat client")
        << "chat"
        << "messages" << 429
        << QByteArray(
               R"({"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}})")
        << QStringList{R"(error.message="Number of request tokens has exceeded your per-minute rate limit")", R"(error.type="rate_limit_error")",
                       "error.code=429", "type=<absent>"};
    QTest::newRow("openai bad request to messages client")
        << "messages"
        << "chat" << 400
        << QByteArray(
               R"({"error":{"message":"Invalid 'messages[1].content': string too long.","type":"invalid_request_error","param":"messages[1].content","code":"string_above_max_length"}})")
        << QStringList{R"(type="error")", R"(error.type="invalid_request_error")",
                       R"(error.message="Invalid 'messages[1].content': string too long.")"};
    QTest::newRow("anthropic overloaded to responses client")
        << "responses"
        << "messages" << 529 << QByteArray(R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})")
        << QStringList{R"(error.message="Overloaded")", R"(error.type="server_error")", "error.code=529"};
    QTest::newRow("unreadable body to messages client")
        << "messages"
        << "responses" << 502 << QByteArray("<html>Bad Gateway</html>")
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
    const auto answer = Translate::translateAnswer(Endpoint::Messages, Endpoint::ChatCompletions, data(QStringLiteral("chat_answer_tool.json")));
    const QJsonArray calls = QJsonDocument::fromJson(answer.body).object().value("content").toArray();
    QCOMPARE(calls.size(), 2);
    QJsonArray messages = first.value("messages").toArray();
    messages.append(QJsonObject{{"role", "assistant"}, {"content", calls}});
    messages.append(QJsonObject{
        {"role", "user"},
        {"content", QJsonArray{QJsonObject{{"type", "tool_result"}, {"tool_use_id", calls.at(0).toObject().value("id")}, {"content", "x = 1"}},
                               QJsonObject{{"type", "tool_result"}, {"tool_use_id", calls.at(1).toObject().value("id")}, {"content", "a.py"}}}}});
    QJsonObject next = first;
    next.insert("messages", messages);
    const auto t = Translate::translateRequest(Endpoint::Messages, Endpoint::ChatCompletions, QJsonDocument(next).toJson(QJsonDocument::Compact));
    QVERIFY2(t.ok(), qPrintable(t.refusal));
    verify(QJsonDocument::fromJson(t.body).object(),
           {R"(messages[6].role="assistant")", R"(messages[6].tool_calls[0].id="call_12345xyz")",
            R"(messages[6].tool_calls[0].function.arguments="{\"file_path\":\"main.py\"}")", R"(messages[6].tool_calls[1].id="call_67890abc")",
            R"(messages[7]={"role":"tool","tool_call_id":"call_12345xyz","content":"x = 1"})",
            R"(messages[8]={"role":"tool","tool_call_id":"call_67890abc","content":"a.py"})", "messages[9]=<absent>"});
}

void TestTranslation::toolRoundTripCodexOnMessages()
{
    // Codex asks with tools; a Messages-wire model calls one; Codex sends the output back.
    const QJsonObject first = QJsonDocument::fromJson(data(QStringLiteral("responses_request_tools.json"))).object();
    const auto answer = Translate::translateAnswer(Endpoint::Responses, Endpoint::Messages, data(QStringLiteral("messages_answer_tool.json")));
    QJsonArray input = first.value("input").toArray();
    for (const QJsonValue &item : QJsonDocument::fromJson(answer.body).object().value("output").toArray())
        input.append(item); // Codex echoes the output items back, reasoning included
    input.append(QJsonObject{{"type", "function_call_output"}, {"call_id", "toolu_01T1x1fJ34qAmk2tNTrN7Up6"}, {"output", "18C"}});
    input.append(QJsonObject{{"type", "function_call_output"}, {"call_id", "toolu_01T1x1fJ34qAmk2tNTrN7Up7"}, {"output", "21C"}});
    QJsonObject next = first;
    next.insert("input", input);
    const auto t = Translate::translateRequest(Endpoint::Responses, Endpoint::Messages, QJsonDocument(next).toJson(QJsonDocument::Compact));
    QVERIFY2(t.ok(), qPrintable(t.refusal));
    verify(QJsonDocument::fromJson(t.body).object(),
           {R"(messages[5].role="assistant")", R"(messages[5].content[0]={"type":"text","text":"I'll check both."})",
            R"(messages[5].content[1].id="toolu_01T1x1fJ34qAmk2tNTrN7Up6")", R"(messages[5].content[1].input={"city":"Paris"})",
            R"(messages[5].content[2].id="toolu_01T1x1fJ34qAmk2tNTrN7Up7")", "messages[5].content[3]=<absent>", R"(messages[6].role="user")",
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
                                 << "chat_stream_apply_patch.sse" << patch + QString::fromUcs4(U"\U0001F600") + QStringLiteral("\n*** End Patch");
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

// The header's moc output, here rather than in AUTOMOC's mocs_compilation.cpp (tests/CMakeLists.txt).
#include "moc_TestTranslation.cpp"
