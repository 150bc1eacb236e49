// The response meter reads usage from the answer's bytes (wire/JsonSieve.h) and must read every
// answer exactly as parsing it whole did (docs/performance.md "Change 12 (meter)"): each row runs
// the meter both ways, compares everything the engine reads next, and checks the figures it states.
#include "wire/JsonSieve.h"
#include "wire/ResponseMeter.h"

#include <QtTest/QtTest>

using namespace Aile::Wire;

namespace {

// Everything dispatch reads from a meter once the answer is in.
struct Read
{
    qint64 input = -1, output = -1, cacheRead = 0, cacheWrite = 0;
    bool cacheInInput = false;
    QString rejected;
    bool end = false, error = false, sawOutput = false;
    QString errorMessage, model;
    QStringList reasoning, toolCalls;
    QList<bool> usageOnly;
};

Read meter(Endpoint endpoint, bool streamed, const QByteArray &body, ResponseMeter::Reading reading)
{
    ResponseMeter m(endpoint, streamed, reading);
    Read r;
    // Two reads, cut in the middle: events and bodies arrive in pieces.
    for (const QByteArray &piece : {body.left(body.size() / 2), body.mid(body.size() / 2)}) {
        if (streamed) {
            for (const SseEvent &ev : m.feedStream(piece))
                r.usageOnly.append(ev.usageOnly);
        } else {
            m.feedBody(piece);
        }
    }
    m.finish();
    r.input = m.usage().inputTokens;
    r.output = m.usage().outputTokens;
    r.cacheRead = m.usage().cacheReadTokens;
    r.cacheWrite = m.usage().cacheWriteTokens;
    r.cacheInInput = m.usage().cacheInInput;
    r.rejected = m.usage().rejected;
    r.end = m.sawEndEvent();
    r.error = m.sawErrorEvent();
    r.sawOutput = m.sawOutput();
    r.errorMessage = m.errorMessage();
    r.model = m.reportedModel();
    r.reasoning = m.reasoningTokens();
    r.toolCalls = m.toolCallIds();
    return r;
}

QByteArray events(const QList<QByteArray> &data)
{
    QByteArray out;
    for (const QByteArray &d : data)
        out += "data: " + d + "\n\n";
    return out;
}

QByteArray deep(int levels, const QByteArray &inner)
{
    return QByteArray(levels, '[') + inner + QByteArray(levels, ']');
}

const QByteArray Usage68 = R"({"prompt_tokens":60,"completion_tokens":8,"total_tokens":68,"prompt_tokens_details":{"cached_tokens":32}})";

} // namespace

// Declared apart from the bodies: moc misreads the rows' adjacent raw strings inside a class.
class TestMeterSieve : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theSieveReadsWhatTheWholeDocumentReads_data();
    void theSieveReadsWhatTheWholeDocumentReads();
    void evidenceIsListedChoiceByChoice();
    void theSieveGivesUpWhereQtReadsOtherwise_data();
    void theSieveGivesUpWhereQtReadsOtherwise();
    void theAnswersTextIsSkipped();
    void quietEventsArePassedOverAndReadAlike_data();
    void quietEventsArePassedOverAndReadAlike();
};

void TestMeterSieve::theSieveReadsWhatTheWholeDocumentReads_data()
{
    QTest::addColumn<int>("endpoint");
    QTest::addColumn<bool>("streamed");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<qint64>("input");  // -1: unknown
    QTest::addColumn<qint64>("output"); // -1: unknown
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("rejected"); // part of why the usage was not believed, or empty

    const int chat = int(Endpoint::ChatCompletions), responses = int(Endpoint::Responses), messages = int(Endpoint::Messages);
    const QByteArray head = R"({"id":"chatcmpl-1","object":"chat.completion","created":1800000000,"model":"gpt-5.2",)";
    const QByteArray choice = R"("choices":[{"index":0,"message":{"role":"assistant","content":"Hello!"},"finish_reason":"stop"}])";
    QTest::newRow("the benchmark's answer")
        << chat << false << head + choice + R"(,"usage":{"prompt_tokens":8,"completion_tokens":6,"total_tokens":14}})" << 8ll << 6ll
        << "gpt-5.2" << "";
    QTest::newRow("nested usage: cached prompt tokens") << chat << false << head + choice + ",\"usage\":" + Usage68 + "}" << 60ll << 8ll
                                                         << "gpt-5.2" << "";
    const QByteArray longText = QByteArray("Lorem ipsum \\\"quoted\\\" \\u00e9t\\u00e9 ").repeated(20'000);
    QTest::newRow("usage at the end after a long content")
        << chat << false
        << head + R"("choices":[{"index":0,"message":{"role":"assistant","content":")" + longText
               + R"("},"logprobs":{"content":[{"token":"a","logprob":-0.25,"top_logprobs":[]}]},"finish_reason":"length"}],"usage":)" + Usage68
               + "}"
        << 60ll << 8ll << "gpt-5.2" << "";
    QTest::newRow("unicode escapes in the model and a key")
        << chat << false << QByteArray(R"({"mod\u0065l":"caf\u00e9-\ud83d\ude00","usage":{"prompt_tokens":1,"completion_tokens":2}})") << 1ll
        << 2ll << QStringLiteral("café-😀") << "";
    QTest::newRow("counts written as floats") << chat << false
                                              << QByteArray(R"({"usage":{"prompt_tokens":12.0,"completion_tokens":1E3,"total_tokens":-0}})")
                                              << 12ll << 1000ll << "" << "";
    QTest::newRow("a huge integer count") << chat << false
                                          << QByteArray(R"({"usage":{"prompt_tokens":123456789012345678901234567890,"completion_tokens":1}})")
                                          << -1ll << -1ll << "" << "prompt_tokens = 1.23457e+29 is not a token count";
    QTest::newRow("past 2^63") << responses << false << QByteArray(R"({"usage":{"input_tokens":5,"output_tokens":18446744073709551615}})")
                               << -1ll << -1ll << "" << "output_tokens = 1.84467e+19 is not a token count";
    QTest::newRow("a fraction") << chat << false << QByteArray(R"({"usage":{"prompt_tokens":12.5,"completion_tokens":1}})") << -1ll << -1ll
                                << "" << "prompt_tokens = 12.5 is not a token count";
    QTest::newRow("a count as a string") << chat << false << QByteArray(R"({"usage":{"prompt_tokens" : "1\u00e92","completion_tokens":1}})")
                                         << -1ll << -1ll << "" << "prompt_tokens = \"1é2\" is not a token count";
    QTest::newRow("a count as an object") << messages << false << QByteArray(R"({"usage":{"input_tokens":{"b":1,"a":[true,null]},"output_tokens":1}})")
                                          << -1ll << -1ll << "" << R"(input_tokens = {"a":[true,null],"b":1} is not a token count)";
    // The value's bytes in a rejection are found from where it starts (JsonSieve::Node::start): a
    // literal last in its object, an array holding brackets and a quote in a string, spaces after.
    QTest::newRow("a count as false, last in its object")
        << chat << false << QByteArray(R"({"usage":{"completion_tokens":1,"prompt_tokens":false}})") << -1ll << -1ll << ""
        << "prompt_tokens = false is not a token count";
    QTest::newRow("a count as an array holding brackets in a string")
        << messages << false << QByteArray(R"({"usage":{"input_tokens":[ "a]\"}" , 2 ] ,"output_tokens":1}})") << -1ll << -1ll << ""
        << R"(input_tokens = ["a]\"}",2] is not a token count)";
    QTest::newRow("a count as true before spaces") << responses << false << QByteArray("{\"usage\":{\"input_tokens\":true \n},\"x\":1}")
                                                   << -1ll << -1ll << "" << "input_tokens = true is not a token count";
    QTest::newRow("duplicated keys: the last wins")
        << chat << false
        << QByteArray(R"({"model":"first","usage":{"prompt_tokens":5,"completion_tokens":3},"model":"second","usage":{"prompt_tokens":7,"prompt_tokens":9}})")
        << 9ll << -1ll << "second" << "";
    QTest::newRow("usage replaced by a number") << chat << false << QByteArray(R"({"usage":{"prompt_tokens":5},"usage":5,"model":"m"})") << -1ll
                                                << -1ll << "m" << "";
    QTest::newRow("a truncated body") << chat << false << QByteArray(head + choice + ",\"usage\":" + Usage68).chopped(10) << -1ll << -1ll << "" << "";
    QTest::newRow("not JSON") << chat << false << QByteArray("<html><body>502 Bad Gateway</body></html>") << -1ll << -1ll << "" << "";
    QTest::newRow("an empty object") << chat << false << QByteArray("{}") << -1ll << -1ll << "" << "";
    QTest::newRow("an array") << chat << false << QByteArray(R"([{"usage":{"prompt_tokens":1}}])") << -1ll << -1ll << "" << "";
    QTest::newRow("garbage after the object") << chat << false << QByteArray(R"({"usage":{"prompt_tokens":1}} x)") << -1ll << -1ll << "" << "";
    QTest::newRow("a NUL after the object") << chat << false << QByteArray("{\"usage\":{\"prompt_tokens\":1}}\0", 30) << -1ll << -1ll << ""
                                            << "";
    QTest::newRow("a number Qt refuses, anywhere") << chat << false
                                                   << QByteArray(R"({"usage":{"prompt_tokens":1,"completion_tokens":2},"x":1e-400})") << -1ll
                                                   << -1ll << "" << "";
    // What QJsonDocument reads and RapidJSON refuses: the meter falls back and still reads it.
    QTest::newRow("a raw tab in the content (QJsonDocument reads it)")
        << chat << false << QByteArray("{\"choices\":[{\"message\":{\"content\":\"a\tb\"}}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4}}")
        << 3ll << 4ll << "" << "";
    QTest::newRow("a lone high surrogate in the model")
        << chat << false << QByteArray(R"({"model":"x\ud800","usage":{"prompt_tokens":3,"completion_tokens":4}})") << 3ll << 4ll
        << QStringLiteral("x") + QChar(0xd800) << "";
    QTest::newRow("a lone low surrogate in the model")
        << chat << false << QByteArray(R"({"model":"x\udc00","usage":{"prompt_tokens":3,"completion_tokens":4}})") << 3ll << 4ll
        << QStringLiteral("x") + QChar(0xdc00) << "";
    QTest::newRow("a byte order mark") << chat << false << QByteArray("\xef\xbb\xbf{\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4}}")
                                       << 3ll << 4ll << "" << "";
    QTest::newRow("invalid UTF-8") << chat << false << QByteArray("{\"model\":\"\xff\",\"usage\":{\"prompt_tokens\":3}}") << -1ll << -1ll << ""
                                   << "";
    QTest::newRow("nesting past the sieve's depth") << chat << false
                                                    << "{\"x\":" + deep(300, "1") + R"(,"usage":{"prompt_tokens":3,"completion_tokens":4}})"
                                                    << 3ll << 4ll << "" << "";
    QTest::newRow("nesting past QJsonDocument's") << chat << false
                                                  << "{\"x\":" + deep(1100, "1") + R"(,"usage":{"prompt_tokens":3,"completion_tokens":4}})"
                                                  << -1ll << -1ll << "" << "";
    QTest::newRow("embeddings: prompt and total only")
        << int(Endpoint::Embeddings) << false << QByteArray(R"({"data":[{"embedding":[0.1,-2e-3,3]}],"usage":{"prompt_tokens":7,"total_tokens":7}})")
        << 7ll << 0ll << "" << "";
    QTest::newRow("chat: tool calls and reasoning evidence")
        << chat << false
        << QByteArray(R"({"model":"m","choices":[{"message":{"content":null,"tool_calls":[{"id":"call_1","function":{"arguments":"{\"id\":\"no\"}"}},)"
                      R"("x",{"id":"call_2"}],"reasoning_details":[{"type":"reasoning.encrypted","data":"enc1"},{"type":"reasoning.text","signature":"sig1"}],)"
                      R"("thinking_blocks":[{"type":"redacted_thinking","data":"red1"}],"reasoning_encrypted_content":"rec","reasoning_signature":"rs"}},)"
                      R"(7,{"delta":{"tool_calls":[{"id":"call_3"}]},"message":{"tool_calls":[{"id":"not_read"}]}}],"usage":{"prompt_tokens":1,"completion_tokens":1}})")
        << 1ll << 1ll << "m" << "";
    QTest::newRow("responses: output evidence")
        << responses << false
        << QByteArray(R"({"object":"response","model":"gpt-5.2","output":[{"type":"reasoning","encrypted_content":"enc","summary":[]},)"
                      R"({"type":"function_call","call_id":"fc_1","arguments":"{}"},{"type":"message","content":[{"type":"output_text","text":"hi"}]}],)"
                      R"("usage":{"input_tokens":10,"output_tokens":5,"input_tokens_details":{"cached_tokens":4}}})")
        << 10ll << 5ll << "gpt-5.2" << "";
    QTest::newRow("messages: content blocks")
        << messages << false
        << QByteArray(R"({"type":"message","model":"claude-sonnet-5","content":[{"type":"thinking","thinking":"...","signature":"sig"},)"
                      R"({"type":"redacted_thinking","data":"red"},{"type":"tool_use","id":"toolu_1","input":{"id":"no","type":"tool_use"}},)"
                      R"({"type":"text","text":"hi"}],"usage":{"input_tokens":20,"output_tokens":3,"cache_read_input_tokens":5,"cache_creation_input_tokens":6}})")
        << 20ll << 3ll << "claude-sonnet-5" << "";
    QTest::newRow("messages: no model") << messages << false << QByteArray(R"({"usage":{"input_tokens":2,"output_tokens":3}})") << 2ll << 3ll << ""
                                        << "";
    QTest::newRow("count tokens: read as JSON, nothing else")
        << int(Endpoint::CountTokens) << false << QByteArray(R"({"input_tokens":12})") << -1ll << -1ll << "" << "";

    // Streams: each event read on its own.
    QTest::newRow("chat stream with its usage chunk")
        << chat << true
        << events({R"({"model":"gpt-5.2","choices":[{"delta":{"role":"assistant","content":""}}]})",
                   R"({"model":"gpt-5.2","choices":[{"delta":{"content":"Hel\u006co"},"finish_reason":null}]})",
                   R"({"choices":[{"delta":{},"finish_reason":"stop"}]})", R"({"choices":[],"usage":)" + Usage68 + "}", "[DONE]"})
        << 60ll << 8ll << "gpt-5.2" << "";
    QTest::newRow("chat stream: a tool call, a refusal, reasoning")
        << chat << true
        << events({R"({"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_9"}]}}]})", R"({"choices":[{"delta":{"refusal":"no"}}]})",
                   R"({"choices":[{"delta":{"reasoning":"","reasoning_content":"x","reasoning_encrypted_content":"enc"}}]})"})
        << -1ll << -1ll << "" << "";
    QTest::newRow("chat stream: an error chunk") << chat << true << events({R"({"error":{"message":"overloaded","code":529}})"}) << -1ll << -1ll
                                                 << "" << "";
    QTest::newRow("chat stream: an error that is a string") << chat << true << events({R"({"error":"boom","message":"outer"})"}) << -1ll << -1ll
                                                            << "" << "";
    QTest::newRow("chat stream: events that are not JSON") << chat << true << events({"not json", "{\"choices\":[{\"delta\":{\"content\":\"a\tb\"}}]}"})
                                                           << -1ll << -1ll << "" << "";
    QTest::newRow("responses stream")
        << responses << true
        << "event: response.created\n" + events({R"({"type":"response.created","response":{"model":"gpt-5.2","output":[]}})"})
               + events({R"({"type":"response.output_text.delta","delta":"Hello"})",
                         R"({"type":"response.output_item.done","item":{"type":"function_call","call_id":"fc_2"}})",
                         R"({"type":"response.completed","response":{"model":"gpt-5.2-2026","output":[{"type":"function_call","call_id":"not_read"}],)"
                         R"("usage":{"input_tokens":10,"output_tokens":5,"input_tokens_details":{"cached_tokens":2}}}})"})
        << 10ll << 5ll << "gpt-5.2-2026" << "";
    QTest::newRow("responses stream: an error event")
        << responses << true << "event: error\n" + events({R"({"type":"error","code":"server_error","message":"went away","param":null})"}) << -1ll
        << -1ll << "" << "";
    QTest::newRow("messages stream")
        << messages << true
        << events({R"({"type":"message_start","message":{"model":"claude-sonnet-5","usage":{"input_tokens":30,"cache_read_input_tokens":4,"output_tokens":1}}})",
                   R"({"type":"content_block_start","content_block":{"type":"thinking","thinking":"","signature":""}})",
                   R"({"type":"content_block_delta","delta":{"type":"signature_delta","signature":"sig"}})",
                   R"({"type":"content_block_start","content_block":{"type":"tool_use","id":"toolu_2","input":{}}})",
                   R"({"type":"message_delta","usage":{"output_tokens":9}})", R"({"type":"message_stop"})"})
        << 30ll << 9ll << "claude-sonnet-5" << "";
    QTest::newRow("messages stream: an error event")
        << messages << true << "event: error\n" + events({R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"}) << -1ll
        << -1ll << "" << "";
    QTest::newRow("messages stream: a duplicated usage in message_delta")
        << messages << true << events({R"({"type":"message_delta","usage":{"output_tokens":"9"},"usage":{"output_tokens":11}})"}) << -1ll << 11ll << ""
        << "";
}

void TestMeterSieve::theSieveReadsWhatTheWholeDocumentReads()
{
    QFETCH(int, endpoint);
    QFETCH(bool, streamed);
    QFETCH(QByteArray, body);
    QFETCH(qint64, input);
    QFETCH(qint64, output);
    QFETCH(QString, model);
    QFETCH(QString, rejected);
    const Read sieved = meter(Endpoint(endpoint), streamed, body, ResponseMeter::Reading::Sieved);
    const Read whole = meter(Endpoint(endpoint), streamed, body, ResponseMeter::Reading::WholeDocument);
    // The figures the row states...
    QCOMPARE(sieved.input, input);
    QCOMPARE(sieved.output, output);
    QCOMPARE(sieved.model, model);
    QVERIFY2(rejected.isEmpty() ? sieved.rejected.isEmpty() : sieved.rejected.contains(rejected), qPrintable(sieved.rejected));
    // ...and everything else, as the whole document reads it.
    QCOMPARE(sieved.input, whole.input);
    QCOMPARE(sieved.output, whole.output);
    QCOMPARE(sieved.cacheRead, whole.cacheRead);
    QCOMPARE(sieved.cacheWrite, whole.cacheWrite);
    QCOMPARE(sieved.cacheInInput, whole.cacheInInput);
    QCOMPARE(sieved.rejected, whole.rejected);
    QCOMPARE(sieved.end, whole.end);
    QCOMPARE(sieved.error, whole.error);
    QCOMPARE(sieved.sawOutput, whole.sawOutput);
    QCOMPARE(sieved.errorMessage, whole.errorMessage);
    QCOMPARE(sieved.model, whole.model);
    QCOMPARE(sieved.reasoning, whole.reasoning);
    QCOMPARE(sieved.toolCalls, whole.toolCalls);
    QCOMPARE(sieved.usageOnly, whole.usageOnly);
}

void TestMeterSieve::evidenceIsListedChoiceByChoice()
{
    // The rows above compare the two readings; this states what both say: per choice, its
    // delta's (else its message's) tool call ids, then the reasoning fields, then the lists.
    const QByteArray body =
        R"({"choices":[{"message":{"tool_calls":[{"id":"call_1"},{"id":"call_2"}],"reasoning_details":[{"type":"reasoning.encrypted","data":"enc1"}],)"
        R"("reasoning_signature":"rs"}},{"delta":{"tool_calls":[{"id":"call_3"}]},"message":{"tool_calls":[{"id":"not_read"}]}}]})";
    const Read r = meter(Endpoint::ChatCompletions, false, body, ResponseMeter::Reading::Sieved);
    QCOMPARE(r.toolCalls, QStringList({"call_1", "call_2", "call_3"}));
    QCOMPARE(r.reasoning, QStringList({"rs", "enc1"}));
    QVERIFY(r.end);
}

void TestMeterSieve::theSieveGivesUpWhereQtReadsOtherwise_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("read");
    QTest::newRow("an answer") << QByteArray(R"({"model":"m","usage":{"prompt_tokens":1}})") << true;
    QTest::newRow("trailing spaces") << QByteArray("{\"a\":1} \r\n\t") << true;
    QTest::newRow("a raw control character") << QByteArray("{\"a\":\"x\x01y\"}") << false;
    QTest::newRow("an unknown escape") << QByteArray(R"({"a":"\x"})") << false;
    QTest::newRow("1.") << QByteArray(R"({"a":1.})") << false;
    QTest::newRow(".5") << QByteArray(R"({"a":.5})") << false;
    QTest::newRow("1e-400") << QByteArray(R"({"a":1e-400})") << false;
    QTest::newRow("1.8e308") << QByteArray(R"({"a":1.8e308})") << false;
    QTest::newRow("4.9e-324") << QByteArray(R"({"a":4.9e-324})") << true;
    QTest::newRow("a NUL after the object") << QByteArray("{\"a\":1}\0", 8) << false;
    QTest::newRow("a kept text with a lone low surrogate") << QByteArray(R"({"model":"\udc00"})") << false;
    QTest::newRow("a skipped text with a lone low surrogate") << QByteArray(R"({"text":"\udc00"})") << true;
    QTest::newRow("a byte order mark") << QByteArray("\xef\xbb\xbf{}") << false;
    QTest::newRow("an empty body") << QByteArray() << false;
}

void TestMeterSieve::theSieveGivesUpWhereQtReadsOtherwise()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, read);
    JsonSieve sieve;
    QCOMPARE(sieve.read(json), read);
}

void TestMeterSieve::theAnswersTextIsSkipped()
{
    // The content is not built: only whether it is empty is kept.
    JsonSieve sieve;
    QVERIFY(sieve.read(R"({"choices":[{"message":{"content":"Hello","tool_calls":[{"id":"call_1","function":{"name":"f"}}]}}]})"));
    const SieveObject message = (*sieve.root().toObject().value(QLatin1String("choices")).toArray().begin()).toObject().value(QLatin1String("message")).toObject();
    QVERIFY(message.value(QLatin1String("content")).isNonEmptyString());
    QVERIFY(message.value(QLatin1String("function")).isUndefined()); // not a member the meter reads
    const SieveObject call = (*message.value(QLatin1String("tool_calls")).toArray().begin()).toObject();
    QCOMPARE(call.value(QLatin1String("id")).toString(), QStringLiteral("call_1"));
    QVERIFY(call.value(QLatin1String("function")).isUndefined());
    QVERIFY(!call.isEmpty());
}

namespace {

// A chat chunk as OpenAI streams it: `delta` is the delta object's members.
QByteArray chunk(const QByteArray &delta, const QByteArray &finish = "null", const QByteArray &model = "gpt-5.2")
{
    return R"({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":")" + model + R"(","choices":[{"index":0,"delta":{)" + delta
           + R"(},"finish_reason":)" + finish + "}]}";
}

QByteArray named(const QByteArray &name, const QByteArray &data)
{
    return "event: " + name + "\ndata: " + data + "\n\n";
}

} // namespace

void TestMeterSieve::quietEventsArePassedOverAndReadAlike_data()
{
    QTest::addColumn<int>("endpoint");
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<int>("passedOver");
    const int chat = int(Endpoint::ChatCompletions);
    const int messages = int(Endpoint::Messages);
    const int responses = int(Endpoint::Responses);
    const QByteArray usageChunk = R"({"id":"chatcmpl-1","model":"gpt-5.2","choices":[],"usage":{"prompt_tokens":8,"completion_tokens":40}})";
    // The role chunk (the first model, no text yet) and the first text are read; later text is not.
    QTest::newRow("chat: text deltas after the first")
        << chat
        << events({chunk(R"("role":"assistant","content":"")"), chunk(R"("content":"He")"), chunk(R"("content":"llo")"),
                   chunk(R"("content":" \"usage\": {}")"), chunk(R"("content":"!")"), chunk("", R"("stop")"), usageChunk, "[DONE]"})
        << 3;
    QTest::newRow("chat: an escaped name is read")
        << chat
        << events({chunk(R"("content":"a")"), chunk(R"("content":"b")"),
                   R"({"model":"gpt-5.2","choices":[],"\u0075sage":{"prompt_tokens":3,"completion_tokens":4}})"})
        << 1;
    QTest::newRow("chat: another model is read") << chat << events({chunk(R"("content":"a")"), chunk(R"("content":"b")", "null", "gpt-5.2-mini")})
                                                 << 0;
    QTest::newRow("chat: a spaced model is read") << chat
                                                  << events(
                                                         {chunk(R"("content":"a")"), R"({"model": "gpt-5.2","choices":[{"delta":{"content":"b"}}]})"})
                                                  << 0;
    QTest::newRow("chat: tool calls, reasoning and a refusal are read")
        << chat
        << events({chunk(R"("content":"a")"), chunk(R"("tool_calls":[{"index":0,"id":"call_1","function":{"name":"f"}}])"),
                   chunk(R"("reasoning_content":"think")"), chunk(R"("refusal":"no")"), chunk(R"("content":"b")")})
        << 1;
    QTest::newRow("chat: an error event and an error member are read")
        << chat
        << "data: " + chunk(R"("content":"a")") + "\n\n" + named("error", chunk(R"("content":"b")")) + "data: {\"error\":{\"message\":\"boom\"}}\n\n"
        << 0;
    QTest::newRow("messages: text deltas once output is seen")
        << messages
        << named("message_start", R"({"type":"message_start","message":{"model":"claude-sonnet-5","usage":{"input_tokens":30,"output_tokens":1}}})")
               + named("content_block_start", R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})")
               + named("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}})")
               + named("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"!"}})")
               + named("ping", R"({"type":"ping"})")
               + named("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig"}})")
               + named("content_block_stop", R"({"type":"content_block_stop","index":0})")
               + named("message_delta", R"({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}})")
               + named("message_stop", R"({"type":"message_stop"})")
        << 3;
    QTest::newRow("responses: output deltas once output is seen")
        << responses
        << named("response.created", R"({"type":"response.created","response":{"model":"gpt-5.2"}})")
               + named("response.output_item.added", R"({"type":"response.output_item.added","item":{"type":"message"}})")
               + named("response.output_text.delta", R"({"type":"response.output_text.delta","item_id":"m1","delta":"Hi"})")
               + named("response.output_text.delta", R"({"type":"response.output_text.delta","item_id":"m1","delta":"!"})")
               + named("response.output_text.done", R"({"type":"response.output_text.done","item_id":"m1","text":"Hi!"})")
               + named("response.completed",
                       R"({"type":"response.completed","response":{"model":"gpt-5.2","usage":{"input_tokens":7,"output_tokens":2}}})")
        << 2;
}

// The look that passes events over (wire/EventGlance.h) never changes what the meter reads: after
// every event, the sieved meter and the whole-document meter agree, and the row states how many
// events were passed over (so a look that never passes anything over fails too).
void TestMeterSieve::quietEventsArePassedOverAndReadAlike()
{
    QFETCH(int, endpoint);
    QFETCH(QByteArray, stream);
    QFETCH(int, passedOver);
    ResponseMeter sieved(Endpoint(endpoint), true);
    ResponseMeter whole(Endpoint(endpoint), true, ResponseMeter::Reading::WholeDocument);
    SseParser split;
    for (const SseEvent &ev : split.feed(stream)) {
        const QList<SseEvent> a = sieved.feedStream(ev.raw);
        const QList<SseEvent> b = whole.feedStream(ev.raw);
        QCOMPARE(a.size(), 1);
        QCOMPARE(b.size(), 1);
        QCOMPARE(a[0].usageOnly, b[0].usageOnly);
        QCOMPARE(sieved.sawOutput(), whole.sawOutput());
        QCOMPARE(sieved.sawEndEvent(), whole.sawEndEvent());
        QCOMPARE(sieved.sawErrorEvent(), whole.sawErrorEvent());
        QCOMPARE(sieved.errorMessage(), whole.errorMessage());
        QCOMPARE(sieved.reportedModel(), whole.reportedModel());
        QCOMPARE(sieved.usage().inputTokens, whole.usage().inputTokens);
        QCOMPARE(sieved.usage().outputTokens, whole.usage().outputTokens);
        QCOMPARE(sieved.reasoningTokens(), whole.reasoningTokens());
        QCOMPARE(sieved.toolCallIds(), whole.toolCallIds());
    }
    QCOMPARE(sieved.eventsPassedOver(), passedOver);
    QCOMPARE(whole.eventsPassedOver(), 0);
}

QTEST_GUILESS_MAIN(TestMeterSieve)
#include "TestMeterSieve.moc"
