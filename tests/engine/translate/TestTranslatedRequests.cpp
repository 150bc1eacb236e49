// Translation wired into requests (docs/translation.md): the real engine on port 0 against the
// fake upstream. Off by default (the 404 stands); a key or a route target's "translate": true lets
// a provider of another chat wire serve, both ways, streamed and not, tool calls kept, the field
// that cannot travel refused before any dial, and a Claude sharer's 529 failing over to an
// OpenAI-wire sharer.
#include "engine/routing/RoutingFixture.h"
#include "testsupport/FakeToolCalls.h"

using namespace Aile;
using namespace Aile::Test;

namespace {

const QString ClaudeSharer = QStringLiteral("L00000000000000c1");
const QString OpenAISharer = QStringLiteral("L00000000000000a1");
const QString CodexSharer = QStringLiteral("L00000000000000d1");
const QString GeminiSharer = QStringLiteral("L00000000000000e1");

QJsonArray allSharers()
{
    return {sharer(ClaudeSharer, QStringLiteral("claude"), {}, {QStringLiteral("claude-sonnet-5")}),
            sharer(OpenAISharer, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}),
            sharer(CodexSharer, QStringLiteral("codex"), {}, {QStringLiteral("gpt-5.5")}),
            sharer(GeminiSharer, QStringLiteral("gemini"), {}, {QStringLiteral("gemini-3.5-flash")})};
}

QJsonObject userTurn(const QString &text)
{
    return {{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), text}};
}

// A one-turn request in the client's wire.
QJsonObject bodyFor(const QString &path, const QString &model, bool stream)
{
    QJsonObject o{{QStringLiteral("model"), model}, {QStringLiteral("stream"), stream}};
    if (path == QLatin1String("/v1/responses")) {
        o.insert(QStringLiteral("input"), QJsonArray{userTurn(QStringLiteral("hi"))});
        o.insert(QStringLiteral("max_output_tokens"), 100);
    } else {
        o.insert(QStringLiteral("messages"), QJsonArray{userTurn(QStringLiteral("hi"))});
        o.insert(QStringLiteral("max_tokens"), 100);
    }
    return o;
}

QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// The text the client got, whatever its wire and whether streamed.
QString answerText(const QString &path, const QByteArray &body)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (path == QLatin1String("/v1/messages"))
        return o.value(QLatin1String("content")).toArray().first().toObject().value(QLatin1String("text")).toString();
    if (path == QLatin1String("/v1/responses"))
        return o.value(QLatin1String("output"))
            .toArray()
            .first()
            .toObject()
            .value(QLatin1String("content"))
            .toArray()
            .first()
            .toObject()
            .value(QLatin1String("text"))
            .toString();
    return o.value(QLatin1String("choices"))
        .toArray()
        .first()
        .toObject()
        .value(QLatin1String("message"))
        .toObject()
        .value(QLatin1String("content"))
        .toString();
}

// The streamed text deltas the client got, joined.
QString streamedText(const QString &path, const QByteArray &body)
{
    QString text;
    for (const QByteArray &block : body.split('\n')) {
        if (!block.startsWith("data: ") || block == "data: [DONE]")
            continue;
        const QJsonObject o = QJsonDocument::fromJson(block.mid(6)).object();
        if (path == QLatin1String("/v1/messages"))
            text += o.value(QLatin1String("delta")).toObject().value(QLatin1String("text")).toString();
        else if (path == QLatin1String("/v1/responses"))
            text += o.value(QLatin1String("type")).toString() == QLatin1String("response.output_text.delta")
                        ? o.value(QLatin1String("delta")).toString()
                        : QString();
        else
            text += o.value(QLatin1String("choices"))
                        .toArray()
                        .first()
                        .toObject()
                        .value(QLatin1String("delta"))
                        .toObject()
                        .value(QLatin1String("content"))
                        .toString();
    }
    return text;
}

// The event that ends the client wire's stream.
QByteArray endOf(const QString &path)
{
    if (path == QLatin1String("/v1/messages"))
        return "event: message_stop";
    if (path == QLatin1String("/v1/responses"))
        return "response.completed";
    return "data: [DONE]";
}

} // namespace

class TestTranslatedRequests : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void offByDefaultIsThe404();
    void eachDirection_data();
    void eachDirection();
    void routeTargetTranslates();
    void dryRunShowsTheTranslation();
    void toolCallRoundTrip_data();
    void toolCallRoundTrip();
    void untranslatableFieldIs400BeforeDialling();
    void upstreamErrorInClientShape();
    void traceNamesWhatWasDropped();
    void claudeOverloadFailsOverToTranslatedOpenAI();
    void translateSettingIsValidated();
    void codexApplyPatchIsACustomToolCall_data();
    void codexApplyPatchIsACustomToolCall();
};

void TestTranslatedRequests::offByDefaultIsThe404()
{
    RoutingFixture f;
    QVERIFY(f.start(allSharers()));
    const Reply r = f.post(QStringLiteral("/v1/messages"), compact(bodyFor(QStringLiteral("/v1/messages"), QStringLiteral("openai/gpt-5.2"), false)));
    QCOMPARE(r.status, 404);
    QVERIFY2(errorMessage(r).contains(QLatin1String("provider openai does not serve /v1/messages")), qPrintable(errorMessage(r)));
    QVERIFY(r.header("x-aile-translated").isEmpty());
    QVERIFY(f.upstream->received().isEmpty());
}

void TestTranslatedRequests::eachDirection_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("stream");
    QTest::addColumn<QString>("label");
    QTest::addColumn<QByteArray>("upstreamPath");
    for (const bool stream : {false, true}) {
        const char *s = stream ? " streamed" : "";
        QTest::addRow("messages->chat%s", s) << "/v1/messages"
                                             << "openai/gpt-5.2" << stream << "messages->chat" << QByteArray("/v1/chat/completions");
        QTest::addRow("messages->responses%s", s) << "/v1/messages"
                                                  << "codex/gpt-5.5" << stream << "messages->responses" << QByteArray("/responses");
        QTest::addRow("chat->messages%s", s) << "/v1/chat/completions"
                                             << "claude/claude-sonnet-5" << stream << "chat->messages" << QByteArray("/v1/messages");
        QTest::addRow("chat->responses%s", s) << "/v1/chat/completions"
                                              << "codex/gpt-5.5" << stream << "chat->responses" << QByteArray("/responses");
        QTest::addRow("responses->messages%s", s) << "/v1/responses"
                                                  << "claude/claude-sonnet-5" << stream << "responses->messages" << QByteArray("/v1/messages");
        QTest::addRow("responses->chat%s", s) << "/v1/responses"
                                              << "gemini/gemini-3.5-flash" << stream << "responses->chat" << QByteArray("/chat/completions");
    }
}

void TestTranslatedRequests::eachDirection()
{
    QFETCH(QString, path);
    QFETCH(QString, model);
    QFETCH(bool, stream);
    QFETCH(QString, label);
    QFETCH(QByteArray, upstreamPath);
    RoutingFixture f;
    QVERIFY(f.start(allSharers(), QJsonObject{{QStringLiteral("translate"), true}}));
    const Reply r = f.post(path, compact(bodyFor(path, model, stream)));
    QVERIFY2(r.status == 200, r.body.constData());
    QCOMPARE(r.header("x-aile-translated"), label.toLatin1());
    // The upstream got its own wire, on its own path.
    QCOMPARE(f.upstream->received().size(), 1);
    const ReceivedRequest &got = f.upstream->received().first();
    QVERIFY2(got.path.endsWith(upstreamPath), got.path.constData());
    QCOMPARE(got.json().value(QLatin1String("model")).toString(), model.section(QLatin1Char('/'), 1));
    // OpenAI's own chat models refuse max_tokens; the compatible providers are sent it.
    if (model.startsWith(QLatin1String("openai/")))
        QVERIFY2(got.json().value(QLatin1String("max_completion_tokens")).toInt() == 100 && !got.json().contains(QLatin1String("max_tokens")),
                 got.body.constData());
    if (model.startsWith(QLatin1String("gemini/")))
        QCOMPARE(got.json().value(QLatin1String("max_tokens")).toInt(), 100);
    if (upstreamPath.endsWith("/responses"))
        QVERIFY(got.json().contains(QLatin1String("input")));
    else
        QVERIFY(got.json().contains(QLatin1String("messages")));
    // The client got its own wire back.
    if (stream) {
        QVERIFY(r.header("content-type").startsWith("text/event-stream"));
        QCOMPARE(streamedText(path, r.body), QStringLiteral("Hello!"));
        QVERIFY2(r.body.contains(endOf(path)), r.body.constData());
    } else {
        QCOMPARE(answerText(path, r.body), QStringLiteral("Hello!"));
    }
    // The trace says which way it went; the ledger books the model that served, at its price.
    const QJsonObject trace = f.lastTrace();
    const QJsonArray rows = trace.value(QLatin1String("attemptRows")).toArray();
    QCOMPARE(rows.last().toObject().value(QLatin1String("plan")).toObject().value(QLatin1String("translated")).toString(), label);
    QCOMPARE(trace.value(QLatin1String("modelServed")).toString(), model);
    QCOMPARE(trace.value(QLatin1String("inputTokens")).toInt(), 12);
    QCOMPARE(trace.value(QLatin1String("outputTokens")).toInt(), 5);
    QVERIFY(f.spentToday() > 0);
}

void TestTranslatedRequests::routeTargetTranslates()
{
    // The key does not translate; the route's target does, and only it.
    RoutingFixture f;
    QVERIFY(f.start(allSharers()));
    f.engine->context().keys.first().routes = QJsonArray{
        QJsonObject{{QStringLiteral("name"), QStringLiteral("any-vendor")},
                    {QStringLiteral("targets"),
                     QJsonArray{QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}, {QStringLiteral("translate"), true}}}}}};
    const Reply r = f.post(QStringLiteral("/v1/messages"), compact(bodyFor(QStringLiteral("/v1/messages"), QStringLiteral("any-vendor"), false)));
    QVERIFY2(r.status == 200, r.body.constData());
    QCOMPARE(r.header("x-aile-translated"), QByteArray("messages->chat"));
    QCOMPARE(answerText(QStringLiteral("/v1/messages"), r.body), QStringLiteral("Hello!"));
    // Naming the model directly on that key is still the 404.
    const Reply direct =
        f.post(QStringLiteral("/v1/messages"), compact(bodyFor(QStringLiteral("/v1/messages"), QStringLiteral("openai/gpt-5.2"), false)));
    QCOMPARE(direct.status, 404);
}

void TestTranslatedRequests::dryRunShowsTheTranslation()
{
    RoutingFixture f;
    QVERIFY(f.start(allSharers(), QJsonObject{{QStringLiteral("translate"), true}}));
    const QString keyId = f.engine->context().keys.first().id;
    const Reply r = f.admin(QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"),
                            {{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                             {QStringLiteral("key"), keyId},
                             {QStringLiteral("endpoint"), QStringLiteral("/v1/messages")}});
    QVERIFY2(r.status == 200, r.body.constData());
    const QJsonObject target = r.json().value(QLatin1String("targets")).toArray().first().toObject();
    QCOMPARE(target.value(QLatin1String("translated")).toString(), QStringLiteral("messages->chat"));
    QCOMPARE(target.value(QLatin1String("sharers")).toArray().size(), 1);
    // Same wire: nothing to translate, and the dry run says nothing.
    const Reply same = f.admin(QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"),
                               {{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}, {QStringLiteral("key"), keyId}});
    QVERIFY(!same.json().value(QLatin1String("targets")).toArray().first().toObject().contains(QLatin1String("translated")));
    QVERIFY(f.upstream->received().isEmpty());
}

void TestTranslatedRequests::toolCallRoundTrip_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("stream");
    for (const bool stream : {false, true}) {
        const char *s = stream ? " streamed" : "";
        QTest::addRow("messages->chat%s", s) << "/v1/messages"
                                             << "openai/gpt-5.2" << stream;
        QTest::addRow("responses->messages%s", s) << "/v1/responses"
                                                  << "claude/claude-sonnet-5" << stream;
        QTest::addRow("chat->responses%s", s) << "/v1/chat/completions"
                                              << "codex/gpt-5.5" << stream;
    }
}

// Turn 1: the model calls a tool and the client gets the call in its wire, its id kept. Turn 2:
// the client sends the result under that id, and the upstream gets it under the same id.
void TestTranslatedRequests::toolCallRoundTrip()
{
    QFETCH(QString, path);
    QFETCH(QString, model);
    QFETCH(bool, stream);
    RoutingFixture f;
    QVERIFY(f.start(allSharers(), QJsonObject{{QStringLiteral("translate"), true}}));
    f.upstream->setChooser([&](const ReceivedRequest &r) -> std::optional<Script> {
        if (QString::fromUtf8(r.body).contains(QLatin1String("call_fake_1")))
            return std::nullopt; // turn 2: the canned text answer
        return toolCallAnswer(r.path, r.json().value(QLatin1String("stream")).toBool(), r.json().value(QLatin1String("model")).toString());
    });
    const QJsonObject schema{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"), QJsonObject{{QStringLiteral("path"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}};
    QJsonObject body = bodyFor(path, model, stream);
    if (path == QLatin1String("/v1/messages"))
        body.insert(QStringLiteral("tools"),
                    QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("read_file")}, {QStringLiteral("input_schema"), schema}}});
    else if (path == QLatin1String("/v1/responses"))
        body.insert(QStringLiteral("tools"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("function")},
                                                                    {QStringLiteral("name"), QStringLiteral("read_file")},
                                                                    {QStringLiteral("parameters"), schema}}});
    else
        body.insert(QStringLiteral("tools"),
                    QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("function")},
                                           {QStringLiteral("function"), QJsonObject{{QStringLiteral("name"), QStringLiteral("read_file")},
                                                                                    {QStringLiteral("parameters"), schema}}}}});
    const Reply first = f.post(path, compact(body));
    QVERIFY2(first.status == 200, first.body.constData());
    // The tool definition reached the upstream in its wire.
    const QString sentTools =
        QString::fromUtf8(compact(QJsonObject{{QStringLiteral("t"), f.upstream->received().first().json().value(QLatin1String("tools"))}}));
    QVERIFY2(sentTools.contains(QLatin1String("read_file")) && sentTools.contains(QLatin1String("\"path\"")), qPrintable(sentTools));
    // The client got the call, with its id and arguments, in its own wire.
    QVERIFY2(first.body.contains("call_fake_1") && first.body.contains("read_file"), first.body.constData());
    // Streamed, the arguments come as the upstream's two deltas, one client event each.
    QVERIFY2(stream ? first.body.contains(R"({\"path\":\"n)") && first.body.contains(R"(otes.txt\"})") : first.body.contains("notes.txt"),
             first.body.constData());
    if (path == QLatin1String("/v1/messages"))
        QVERIFY(first.body.contains("tool_use"));
    else if (path == QLatin1String("/v1/responses"))
        QVERIFY(first.body.contains("function_call"));
    else
        QVERIFY(first.body.contains("tool_calls"));

    // Turn 2: the result, under the call's id.
    QJsonObject second = bodyFor(path, model, stream);
    const QJsonObject args{{QStringLiteral("path"), QStringLiteral("notes.txt")}};
    if (path == QLatin1String("/v1/messages")) {
        second.insert(
            QStringLiteral("messages"),
            QJsonArray{userTurn(QStringLiteral("hi")),
                       QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                   {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("tool_use")},
                                                                                      {QStringLiteral("id"), QStringLiteral("call_fake_1")},
                                                                                      {QStringLiteral("name"), QStringLiteral("read_file")},
                                                                                      {QStringLiteral("input"), args}}}}},
                       QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                   {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("tool_result")},
                                                                                      {QStringLiteral("tool_use_id"), QStringLiteral("call_fake_1")},
                                                                                      {QStringLiteral("content"), QStringLiteral("the notes")}}}}}});
    } else if (path == QLatin1String("/v1/responses")) {
        second.insert(QStringLiteral("input"), QJsonArray{userTurn(QStringLiteral("hi")),
                                                          QJsonObject{{QStringLiteral("type"), QStringLiteral("function_call")},
                                                                      {QStringLiteral("call_id"), QStringLiteral("call_fake_1")},
                                                                      {QStringLiteral("name"), QStringLiteral("read_file")},
                                                                      {QStringLiteral("arguments"), QString::fromUtf8(compact(args))}},
                                                          QJsonObject{{QStringLiteral("type"), QStringLiteral("function_call_output")},
                                                                      {QStringLiteral("call_id"), QStringLiteral("call_fake_1")},
                                                                      {QStringLiteral("output"), QStringLiteral("the notes")}}});
    } else {
        second.insert(
            QStringLiteral("messages"),
            QJsonArray{userTurn(QStringLiteral("hi")),
                       QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                   {QStringLiteral("content"), QJsonValue()},
                                   {QStringLiteral("tool_calls"),
                                    QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("call_fake_1")},
                                                           {QStringLiteral("type"), QStringLiteral("function")},
                                                           {QStringLiteral("function"),
                                                            QJsonObject{{QStringLiteral("name"), QStringLiteral("read_file")},
                                                                        {QStringLiteral("arguments"), QString::fromUtf8(compact(args))}}}}}}},
                       QJsonObject{{QStringLiteral("role"), QStringLiteral("tool")},
                                   {QStringLiteral("tool_call_id"), QStringLiteral("call_fake_1")},
                                   {QStringLiteral("content"), QStringLiteral("the notes")}}});
    }
    const Reply done = f.post(path, compact(second));
    QVERIFY2(done.status == 200, done.body.constData());
    const QByteArray sent = f.upstream->received().last().body;
    QVERIFY2(sent.contains("call_fake_1") && sent.contains("the notes"), sent.constData());
    QCOMPARE(sent.count("call_fake_1"), 2); // the call and its result, under the same id
    QCOMPARE(stream ? streamedText(path, done.body) : answerText(path, done.body), QStringLiteral("Hello!"));
}

void TestTranslatedRequests::untranslatableFieldIs400BeforeDialling()
{
    RoutingFixture f;
    QVERIFY(f.start(allSharers(), QJsonObject{{QStringLiteral("translate"), true}}));
    QJsonObject body = bodyFor(QStringLiteral("/v1/messages"), QStringLiteral("openai/gpt-5.2"), false);
    body.insert(QStringLiteral("tools"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("web_search_20250305")},
                                                                {QStringLiteral("name"), QStringLiteral("web_search")}}});
    const Reply r = f.post(QStringLiteral("/v1/messages"), compact(body));
    QCOMPARE(r.status, 400);
    // Anthropic's error shape, naming the field and the target.
    QCOMPARE(r.json().value(QLatin1String("type")).toString(), QStringLiteral("error"));
    const QJsonObject error = r.json().value(QLatin1String("error")).toObject();
    QCOMPARE(error.value(QLatin1String("type")).toString(), QStringLiteral("invalid_request_error"));
    QVERIFY2(error.value(QLatin1String("param")).toString().startsWith(QLatin1String("tools[0]")), r.body.constData());
    QVERIFY2(error.value(QLatin1String("message")).toString().contains(QLatin1String("openai/gpt-5.2")), r.body.constData());
    QVERIFY2(error.value(QLatin1String("message")).toString().contains(QLatin1String("chat")), r.body.constData());
    QVERIFY(f.upstream->received().isEmpty());
}

void TestTranslatedRequests::upstreamErrorInClientShape()
{
    // A 400 of the OpenAI wire passed through to a Messages client reads as Anthropic's error.
    RoutingFixture f;
    QVERIFY(f.start(allSharers(), QJsonObject{{QStringLiteral("translate"), true}}));
    f.upstream->enqueue(FakeUpstream::error(400, QStringLiteral("max_tokens is too large for this model")));
    const Reply r = f.post(QStringLiteral("/v1/messages"), compact(bodyFor(QStringLiteral("/v1/messages"), QStringLiteral("openai/gpt-5.2"), false)));
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QLatin1String("type")).toString(), QStringLiteral("error"));
    QCOMPARE(errorMessage(r), QStringLiteral("max_tokens is too large for this model"));
}

void TestTranslatedRequests::traceNamesWhatWasDropped()
{
    // Claude Code's metadata.user_id has no place on the chat wire: left out, and the trace says so.
    RoutingFixture f;
    QVERIFY(f.start(allSharers(), QJsonObject{{QStringLiteral("translate"), true}}));
    QJsonObject body = bodyFor(QStringLiteral("/v1/messages"), QStringLiteral("openai/gpt-5.2"), false);
    body.insert(QStringLiteral("metadata"), QJsonObject{{QStringLiteral("user_id"), QStringLiteral("user_abc")}});
    const Reply r = f.post(QStringLiteral("/v1/messages"), compact(body));
    QVERIFY2(r.status == 200, r.body.constData());
    QVERIFY(!f.upstream->received().first().body.contains("user_abc"));
    const QJsonObject plan = f.lastAttempts().last().toObject().value(QLatin1String("plan")).toObject();
    QCOMPARE(plan.value(QLatin1String("translated")).toString(), QStringLiteral("messages->chat"));
    QVERIFY2(plan.value(QLatin1String("dropped")).toArray().contains(QStringLiteral("metadata.user_id")),
             qPrintable(QString::fromUtf8(compact(plan))));
}

void TestTranslatedRequests::claudeOverloadFailsOverToTranslatedOpenAI()
{
    // A route from a Claude sharer to an OpenAI-wire one: Claude answers 529 (overloaded), and
    // the Messages request is answered by the translated target, streamed as Claude Code asks.
    RoutingFixture f;
    QVERIFY(f.start(allSharers()));
    f.engine->context().keys.first().routes = QJsonArray{
        QJsonObject{{QStringLiteral("name"), QStringLiteral("claude-then-openai")},
                    {QStringLiteral("targets"),
                     QJsonArray{QJsonObject{{QStringLiteral("model"), QStringLiteral("claude/claude-sonnet-5")}},
                                QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}, {QStringLiteral("translate"), true}}}}}};
    f.upstream->enqueueFor(ClaudeSharer.toLatin1(), FakeUpstream::error(529, QStringLiteral("Overloaded"), true));
    const Reply r =
        f.post(QStringLiteral("/v1/messages"), compact(bodyFor(QStringLiteral("/v1/messages"), QStringLiteral("claude-then-openai"), true)));
    QVERIFY2(r.status == 200, r.body.constData());
    QCOMPARE(r.header("x-aile-translated"), QByteArray("messages->chat"));
    QCOMPARE(r.header("x-aile-attempts"), QByteArray("2"));
    QCOMPARE(f.dialled(), (QStringList{ClaudeSharer, OpenAISharer}));
    QVERIFY(f.upstream->received().at(0).path.endsWith("/v1/messages"));
    QVERIFY(f.upstream->received().at(1).path.endsWith("/v1/chat/completions"));
    QCOMPARE(streamedText(QStringLiteral("/v1/messages"), r.body), QStringLiteral("Hello!"));
    QVERIFY(r.body.contains("event: message_stop"));
    const QJsonArray rows = f.lastAttempts();
    QCOMPARE(rows.size(), 2);
    QVERIFY(!rows.at(0).toObject().value(QLatin1String("plan")).toObject().contains(QLatin1String("translated")));
    QCOMPARE(rows.at(1).toObject().value(QLatin1String("plan")).toObject().value(QLatin1String("translated")).toString(),
             QStringLiteral("messages->chat"));
    QCOMPARE(f.lastTrace().value(QLatin1String("modelServed")).toString(), QStringLiteral("openai/gpt-5.2"));
}

void TestTranslatedRequests::translateSettingIsValidated()
{
    RoutingFixture f;
    QVERIFY(f.start(allSharers()));
    const QString keyId = f.engine->context().keys.first().id;
    const Reply bad = f.admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + keyId,
                              {{QStringLiteral("routing"), QJsonObject{{QStringLiteral("translate"), QStringLiteral("yes")}}}});
    QCOMPARE(bad.status, 400);
    QVERIFY2(bad.body.contains("routing.translate must be true or false"), bad.body.constData());
    const Reply badTarget = f.admin(
        QStringLiteral("PUT"), QStringLiteral("/keys/") + keyId,
        {{QStringLiteral("routes"),
          QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("r")},
                                 {QStringLiteral("targets"), QJsonArray{QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                                                                                    {QStringLiteral("translate"), 1}}}}}}}});
    QCOMPARE(badTarget.status, 400);
    QVERIFY2(badTarget.body.contains("translate 1 must be true or false"), badTarget.body.constData());
    const Reply good = f.admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + keyId,
                               {{QStringLiteral("routing"), QJsonObject{{QStringLiteral("translate"), true}}}});
    QVERIFY2(good.status == 200, good.body.constData());
    const Reply r = f.post(QStringLiteral("/v1/messages"), compact(bodyFor(QStringLiteral("/v1/messages"), QStringLiteral("openai/gpt-5.2"), false)));
    QCOMPARE(r.status, 200);
}

void TestTranslatedRequests::codexApplyPatchIsACustomToolCall_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QByteArray>("upstreamPath");
    QTest::newRow("responses->messages") << "claude/claude-sonnet-5" << QByteArray("/v1/messages");
    QTest::newRow("responses->chat") << "gemini/gemini-3.5-flash" << QByteArray("/chat/completions");
}

// Codex offers apply_patch as a custom tool: the provider gets a function tool with one string
// parameter; its streamed call reaches Codex as custom_tool_call events with the patch as plain
// text; Codex's custom_tool_call_output goes back as the call's result under the same id.
void TestTranslatedRequests::codexApplyPatchIsACustomToolCall()
{
    QFETCH(QString, model);
    QFETCH(QByteArray, upstreamPath);
    RoutingFixture f;
    QVERIFY(f.start(allSharers(), QJsonObject{{QStringLiteral("translate"), true}}));
    const QString patch = QStringLiteral("*** Begin Patch\n*** Add File: hello.txt\n+Hello\n*** End Patch");
    FakeToolCall call;
    call.id = QStringLiteral("call_patch_1");
    call.name = QStringLiteral("apply_patch");
    call.arguments = QString::fromUtf8(compact({{QStringLiteral("input"), patch}}));
    f.upstream->enqueue(toolCallAnswer(upstreamPath, true, model.section(QLatin1Char('/'), 1), call));
    const QJsonObject tool{
        {QStringLiteral("type"), QStringLiteral("custom")},
        {QStringLiteral("name"), QStringLiteral("apply_patch")},
        {QStringLiteral("description"), QStringLiteral("Edit files.")},
        {QStringLiteral("format"), QJsonObject{{QStringLiteral("type"), QStringLiteral("grammar")},
                                               {QStringLiteral("syntax"), QStringLiteral("lark")},
                                               {QStringLiteral("definition"), QStringLiteral("start: \"*** Begin Patch\" LF hunk+")}}}};
    QJsonObject body = bodyFor(QStringLiteral("/v1/responses"), model, true);
    body.insert(QStringLiteral("tools"), QJsonArray{tool});
    const Reply first = f.post(QStringLiteral("/v1/responses"), compact(body));
    QVERIFY2(first.status == 200, first.body.constData());
    const ReceivedRequest sent = f.upstream->received().first();
    QVERIFY(sent.path.endsWith(upstreamPath));
    QVERIFY2(sent.body.contains("apply_patch") && sent.body.contains("lark") && !sent.body.contains("\"custom\""), sent.body.constData());
    QString input;
    QJsonObject item;
    for (const QByteArray &line : first.body.split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line.mid(6)).object();
        const QString type = o.value(QLatin1String("type")).toString();
        QVERIFY2(!type.startsWith(QLatin1String("response.function_call")), line.constData());
        if (type == QLatin1String("response.custom_tool_call_input.delta"))
            input += o.value(QLatin1String("delta")).toString();
        if (type == QLatin1String("response.output_item.done"))
            item = o.value(QLatin1String("item")).toObject();
    }
    QCOMPARE(input, patch);
    QCOMPARE(item.value(QLatin1String("type")).toString(), QStringLiteral("custom_tool_call"));
    QCOMPARE(item.value(QLatin1String("call_id")).toString(), QStringLiteral("call_patch_1"));
    QCOMPARE(item.value(QLatin1String("input")).toString(), patch);
    QVERIFY(first.body.contains("response.completed"));

    // Turn 2: Codex sends the call and its output back.
    QJsonObject second = bodyFor(QStringLiteral("/v1/responses"), model, false);
    second.insert(QStringLiteral("tools"), QJsonArray{tool});
    second.insert(QStringLiteral("input"), QJsonArray{userTurn(QStringLiteral("hi")), item,
                                                      QJsonObject{{QStringLiteral("type"), QStringLiteral("custom_tool_call_output")},
                                                                  {QStringLiteral("call_id"), QStringLiteral("call_patch_1")},
                                                                  {QStringLiteral("output"), QStringLiteral("Success. A hello.txt")}}});
    const Reply done = f.post(QStringLiteral("/v1/responses"), compact(second));
    QVERIFY2(done.status == 200, done.body.constData());
    const QByteArray back = f.upstream->received().last().body;
    QCOMPARE(back.count("call_patch_1"), 2); // the call and its result, under the same id
    QVERIFY2(back.contains("Success. A hello.txt"), back.constData());
    QCOMPARE(answerText(QStringLiteral("/v1/responses"), done.body), QStringLiteral("Hello!"));
}

QTEST_GUILESS_MAIN(TestTranslatedRequests)
#include "TestTranslatedRequests.moc"
