// Reasoning across translation (docs/translation.md "Reasoning"): reasoning the proxy wrote by
// translation carries its mark, never a made-up signature, and when the client sends it back on a
// turn that goes untranslated to a provider of its own wire, that provider never receives it.
// Signed or encrypted reasoning from one provider never reaches another. The real engine on port 0
// against the fake upstream.
#include "engine/routing/RoutingFixture.h"

using namespace Aile;
using namespace Aile::Test;

namespace {

const QString ClaudeSharer = QStringLiteral("L00000000000000c1");
const QString CodexSharer = QStringLiteral("L00000000000000d1");
const QString DeepSeekSharer = QStringLiteral("L00000000000000f1");
const QByteArray AnthropicSignature = "EqQBCkgIARABGAIiQL2signedByAnthropic";
const QByteArray OpenAIEncrypted = "gAAAAABencryptedByOpenAI";

QJsonArray sharers()
{
    return {sharer(ClaudeSharer, QStringLiteral("claude"), {}, {QStringLiteral("claude-sonnet-5")}),
            sharer(CodexSharer, QStringLiteral("codex"), {}, {QStringLiteral("gpt-5.5")}),
            sharer(DeepSeekSharer, QStringLiteral("deepseek"), {}, {QStringLiteral("deepseek-chat")})};
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QJsonObject userTurn(const QString &text)
{
    return {{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), text}};
}

QByteArray sse(const QJsonObject &o)
{
    return "event: " + o.value(QLatin1String("type")).toString().toUtf8() + "\ndata: " + compact(o) + "\n\n";
}

// OpenAI's answer: a reasoning item (its summary readable, its content encrypted) and the text.
Script responsesWithReasoning(bool stream)
{
    const QJsonObject reasoning{{QStringLiteral("type"), QStringLiteral("reasoning")},
                                {QStringLiteral("id"), QStringLiteral("rs_openai_1")},
                                {QStringLiteral("summary"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("summary_text")},
                                                                                   {QStringLiteral("text"), QStringLiteral("Weighing it up.")}}}},
                                {QStringLiteral("encrypted_content"), QString::fromLatin1(OpenAIEncrypted)}};
    const QJsonObject message{{QStringLiteral("type"), QStringLiteral("message")},
                              {QStringLiteral("id"), QStringLiteral("msg_openai_1")},
                              {QStringLiteral("role"), QStringLiteral("assistant")},
                              {QStringLiteral("status"), QStringLiteral("completed")},
                              {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("output_text")},
                                                                                 {QStringLiteral("text"), QStringLiteral("Four.")}}}}};
    const QJsonObject response{{QStringLiteral("id"), QStringLiteral("resp_1")},
                               {QStringLiteral("object"), QStringLiteral("response")},
                               {QStringLiteral("model"), QStringLiteral("gpt-5.5")},
                               {QStringLiteral("status"), QStringLiteral("completed")},
                               {QStringLiteral("output"), QJsonArray{reasoning, message}},
                               {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 12}, {QStringLiteral("output_tokens"), 9}}}};
    Script s;
    if (!stream) {
        s.body = compact(response);
        return s;
    }
    auto ev = [](const char *type, QJsonObject o) {
        o.insert(QStringLiteral("type"), QLatin1String(type));
        return ScriptedEvent{sse(o)};
    };
    s.events = {ev("response.created", {{QStringLiteral("response"), QJsonObject{{QStringLiteral("id"), QStringLiteral("resp_1")},
                                                                                 {QStringLiteral("model"), QStringLiteral("gpt-5.5")}}}}),
                ev("response.output_item.added", {{QStringLiteral("output_index"), 0}, {QStringLiteral("item"), reasoning}}),
                ev("response.reasoning_summary_text.delta",
                   {{QStringLiteral("item_id"), QStringLiteral("rs_openai_1")}, {QStringLiteral("delta"), QStringLiteral("Weighing it up.")}}),
                ev("response.output_item.done", {{QStringLiteral("output_index"), 0}, {QStringLiteral("item"), reasoning}}),
                ev("response.output_item.added", {{QStringLiteral("output_index"), 1}, {QStringLiteral("item"), message}}),
                ev("response.output_text.delta",
                   {{QStringLiteral("item_id"), QStringLiteral("msg_openai_1")}, {QStringLiteral("delta"), QStringLiteral("Four.")}}),
                ev("response.output_item.done", {{QStringLiteral("output_index"), 1}, {QStringLiteral("item"), message}}),
                ev("response.completed", {{QStringLiteral("response"), response}})};
    return s;
}

// Anthropic's answer: a signed thinking block and the text.
Script messagesWithThinking()
{
    Script s;
    s.body = compact({{QStringLiteral("id"), QStringLiteral("msg_01")},
                      {QStringLiteral("type"), QStringLiteral("message")},
                      {QStringLiteral("role"), QStringLiteral("assistant")},
                      {QStringLiteral("model"), QStringLiteral("claude-sonnet-5")},
                      {QStringLiteral("content"),
                       QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("thinking")},
                                              {QStringLiteral("thinking"), QStringLiteral("Weighing it up.")},
                                              {QStringLiteral("signature"), QString::fromLatin1(AnthropicSignature)}},
                                  QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), QStringLiteral("Four.")}}}},
                      {QStringLiteral("stop_reason"), QStringLiteral("end_turn")},
                      {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 12}, {QStringLiteral("output_tokens"), 9}}}});
    return s;
}

// The thinking block the client got, whole or put together from its stream as an SDK does.
QJsonObject thinkingBlock(const QByteArray &body, bool stream)
{
    if (!stream) {
        for (const QJsonValue &v : QJsonDocument::fromJson(body).object().value(QLatin1String("content")).toArray())
            if (v.toObject().value(QLatin1String("type")).toString() == QLatin1String("thinking"))
                return v.toObject();
        return {};
    }
    QJsonObject block;
    for (const QByteArray &line : body.split('\n')) {
        if (!line.startsWith("data: "))
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line.mid(6)).object();
        const QJsonObject start = o.value(QLatin1String("content_block")).toObject();
        const QJsonObject d = o.value(QLatin1String("delta")).toObject();
        if (start.value(QLatin1String("type")).toString() == QLatin1String("thinking"))
            block = start;
        else if (d.value(QLatin1String("type")).toString() == QLatin1String("thinking_delta"))
            block.insert(QStringLiteral("thinking"),
                         QString(block.value(QLatin1String("thinking")).toString() + d.value(QLatin1String("thinking")).toString()));
        else if (d.value(QLatin1String("type")).toString() == QLatin1String("signature_delta"))
            block.insert(QStringLiteral("signature"), d.value(QLatin1String("signature")).toString());
    }
    return block;
}

QJsonArray droppedOf(RoutingFixture &f)
{
    return f.lastAttempts().last().toObject().value(QLatin1String("plan")).toObject().value(QLatin1String("dropped")).toArray();
}

} // namespace

class TestTranslatedReasoning : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void claudeCodeThinkingFromOpenAINeverReachesAnthropic_data();
    void claudeCodeThinkingFromOpenAINeverReachesAnthropic();
    void codexReasoningFromAnthropicNeverReachesOpenAI();
    void encryptedReasoningStaysWithOpenAI();
};

void TestTranslatedReasoning::claudeCodeThinkingFromOpenAINeverReachesAnthropic_data()
{
    QTest::addColumn<bool>("stream");
    QTest::newRow("whole") << false;
    QTest::newRow("streamed") << true;
}

// Turn 1 (messages->responses): OpenAI's reasoning summary reaches Claude Code as a thinking block
// signed with the proxy's mark, its encrypted content nowhere. Turn 2, sent back with that block to
// a Claude sharer untranslated: Anthropic gets no unsigned block and no thinking setting its
// history could not satisfy; the attempt row says what was left out.
void TestTranslatedReasoning::claudeCodeThinkingFromOpenAINeverReachesAnthropic()
{
    QFETCH(bool, stream);
    RoutingFixture f;
    QVERIFY(f.start(sharers(), QJsonObject{{QStringLiteral("translate"), true}}));
    f.upstream->enqueue(responsesWithReasoning(stream));
    const QJsonObject thinking{{QStringLiteral("type"), QStringLiteral("enabled")}, {QStringLiteral("budget_tokens"), 2048}};
    const QJsonObject first{{QStringLiteral("model"), QStringLiteral("codex/gpt-5.5")},
                            {QStringLiteral("max_tokens"), 4096},
                            {QStringLiteral("stream"), stream},
                            {QStringLiteral("thinking"), thinking},
                            {QStringLiteral("messages"), QJsonArray{userTurn(QStringLiteral("2+2?"))}}};
    const Reply one = f.post(QStringLiteral("/v1/messages"), compact(first));
    QVERIFY2(one.status == 200, one.body.constData());
    QCOMPARE(one.header("x-aile-translated"), QByteArray("messages->responses"));
    QVERIFY2(!one.body.contains(OpenAIEncrypted), one.body.constData());
    const QJsonObject block = thinkingBlock(one.body, stream);
    QCOMPARE(block.value(QLatin1String("thinking")).toString(), QStringLiteral("Weighing it up."));
    QCOMPARE(block.value(QLatin1String("signature")).toString(), QStringLiteral("aile-translated"));

    // Turn 2: the history as Claude Code keeps it, to Claude.
    const QJsonObject assistant{{QStringLiteral("role"), QStringLiteral("assistant")},
                                {QStringLiteral("content"), QJsonArray{block, QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                                                          {QStringLiteral("text"), QStringLiteral("Four.")}}}}};
    const QJsonObject second{
        {QStringLiteral("model"), QStringLiteral("claude/claude-sonnet-5")},
        {QStringLiteral("max_tokens"), 4096},
        {QStringLiteral("thinking"), thinking},
        {QStringLiteral("messages"), QJsonArray{userTurn(QStringLiteral("2+2?")), assistant, userTurn(QStringLiteral("and 3+3?"))}}};
    const Reply two = f.post(QStringLiteral("/v1/messages"), compact(second));
    QVERIFY2(two.status == 200, two.body.constData());
    QVERIFY(two.header("x-aile-translated").isEmpty());
    const ReceivedRequest sent = f.upstream->received().last();
    QVERIFY(sent.path.endsWith("/v1/messages"));
    QVERIFY2(!sent.body.contains("aile-translated") && !sent.body.contains("\"thinking\""), sent.body.constData());
    QVERIFY2(sent.body.contains("Four.") && sent.body.contains("and 3+3?"), sent.body.constData());
    const QJsonArray dropped = droppedOf(f);
    QVERIFY2(dropped.size() == 2 && dropped.at(0).toString().contains(QLatin1String("thinking (written by translation"))
                 && dropped.at(1).toString().startsWith(QLatin1String("thinking (the last assistant turn")),
             qPrintable(QString::fromUtf8(QJsonDocument(dropped).toJson(QJsonDocument::Compact))));
}

// The other way: Anthropic's signed thinking reaches Codex as a readable reasoning item marked as
// the proxy's, its signature nowhere; sent back on a turn that goes untranslated to a Codex sharer,
// OpenAI never receives that item (it would look it up and fail).
void TestTranslatedReasoning::codexReasoningFromAnthropicNeverReachesOpenAI()
{
    RoutingFixture f;
    QVERIFY(f.start(sharers(), QJsonObject{{QStringLiteral("translate"), true}}));
    f.upstream->enqueue(messagesWithThinking());
    const QJsonObject first{{QStringLiteral("model"), QStringLiteral("claude/claude-sonnet-5")},
                            {QStringLiteral("max_output_tokens"), 4096},
                            {QStringLiteral("reasoning"), QJsonObject{{QStringLiteral("effort"), QStringLiteral("low")}}},
                            {QStringLiteral("input"), QJsonArray{userTurn(QStringLiteral("2+2?"))}}};
    const Reply one = f.post(QStringLiteral("/v1/responses"), compact(first));
    QVERIFY2(one.status == 200, one.body.constData());
    QCOMPARE(one.header("x-aile-translated"), QByteArray("responses->messages"));
    QVERIFY2(!one.body.contains(AnthropicSignature), one.body.constData());
    const QJsonArray output = QJsonDocument::fromJson(one.body).object().value(QLatin1String("output")).toArray();
    QCOMPARE(output.size(), 2);
    const QJsonObject reasoning = output.at(0).toObject();
    QCOMPARE(reasoning.value(QLatin1String("type")).toString(), QStringLiteral("reasoning"));
    QVERIFY2(reasoning.value(QLatin1String("id")).toString().startsWith(QLatin1String("rs_aile-translated_")), one.body.constData());

    // Turn 2: Codex sends its output items back, to a Codex sharer.
    const QJsonObject second{
        {QStringLiteral("model"), QStringLiteral("codex/gpt-5.5")},
        {QStringLiteral("store"), false},
        {QStringLiteral("input"), QJsonArray{userTurn(QStringLiteral("2+2?")), reasoning, output.at(1), userTurn(QStringLiteral("and 3+3?"))}}};
    const Reply two = f.post(QStringLiteral("/v1/responses"), compact(second));
    QVERIFY2(two.status == 200, two.body.constData());
    const QByteArray sent = f.upstream->received().last().body;
    QVERIFY2(!sent.contains("aile-translated") && !sent.contains("\"reasoning\""), sent.constData());
    QVERIFY2(sent.contains("Four.") && sent.contains("and 3+3?"), sent.constData());
    QCOMPARE(droppedOf(f), (QJsonArray{QStringLiteral("input[].reasoning (written by translation: no provider holds it)")}));
}

// OpenAI's encrypted reasoning goes back to OpenAI (a Codex sharer) as it came, and never to
// another Responses-wire provider (DeepSeek), where it is left out and listed.
void TestTranslatedReasoning::encryptedReasoningStaysWithOpenAI()
{
    RoutingFixture f;
    QVERIFY(f.start(sharers()));
    const QJsonObject reasoning{{QStringLiteral("type"), QStringLiteral("reasoning")},
                                {QStringLiteral("id"), QStringLiteral("rs_openai_1")},
                                {QStringLiteral("summary"), QJsonArray()},
                                {QStringLiteral("encrypted_content"), QString::fromLatin1(OpenAIEncrypted)}};
    for (const QString &model : {QStringLiteral("codex/gpt-5.5"), QStringLiteral("deepseek/deepseek-chat")}) {
        const QJsonObject body{
            {QStringLiteral("model"), model},
            {QStringLiteral("input"), QJsonArray{userTurn(QStringLiteral("2+2?")), reasoning, userTurn(QStringLiteral("and 3+3?"))}}};
        const Reply r = f.post(QStringLiteral("/v1/responses"), compact(body));
        QVERIFY2(r.status == 200, r.body.constData());
        const QByteArray sent = f.upstream->received().last().body;
        const bool openAI = model.startsWith(QLatin1String("codex/"));
        QCOMPARE(sent.contains(OpenAIEncrypted), openAI);
        QVERIFY2(sent.contains("and 3+3?"), sent.constData());
        QCOMPARE(droppedOf(f),
                 openAI ? QJsonArray() : QJsonArray{QStringLiteral("input[].reasoning (encrypted reasoning is never sent to another provider)")});
    }
}

QTEST_GUILESS_MAIN(TestTranslatedReasoning)
#include "TestTranslatedReasoning.moc"
