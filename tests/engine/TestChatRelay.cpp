// The three chat wires relayed end to end through the real engine, streamed and not.
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtTest/QtTest>

using namespace Aile;
using namespace Aile::Test;

class TestChatRelay : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeUpstream> m_upstream;
    std::unique_ptr<TestEngine> m_engine;

    QList<QPair<QByteArray, QByteArray>> auth(bool anthropicStyle = false) const
    {
        if (anthropicStyle)
            return {{"x-api-key", TestKey}, {"anthropic-version", "2023-06-01"}};
        return {{"authorization", QByteArray("Bearer ") + TestKey}};
    }

    QJsonObject lastTrace()
    {
        const Reply r = send(QStringLiteral("GET"), m_engine->baseUrl() + QStringLiteral("/keys/usage/requests?limit=1"), {},
                             {{"authorization", QByteArray("Bearer ") + AdminToken}});
        return r.json().value(QLatin1String("data")).toArray().first().toObject();
    }

    static QByteArray eventsOf(const Script &s)
    {
        QByteArray out;
        for (const ScriptedEvent &e : s.events)
            out += e.bytes;
        return out;
    }

private Q_SLOTS:
    void init()
    {
        m_upstream = std::make_unique<FakeUpstream>();
        QVERIFY(m_upstream->listen());
        m_engine = std::make_unique<TestEngine>(basicConfig(m_upstream->baseUrl()));
        QVERIFY2(m_engine->start(), qPrintable(m_engine->startError()));
    }

    void cleanup()
    {
        m_engine.reset();
        m_upstream.reset();
    }

    void relaysEachWire_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<bool>("anthropic");
        QTest::addColumn<QByteArray>("upstreamPath");
        QTest::newRow("chat completions") << "/v1/chat/completions"
                                          << "openai/gpt-5.2" << false << false << QByteArray("/v1/chat/completions");
        QTest::newRow("chat completions streamed") << "/v1/chat/completions"
                                                   << "openai/gpt-5.2" << true << false << QByteArray("/v1/chat/completions");
        QTest::newRow("responses") << "/v1/responses"
                                   << "openai/gpt-5.5" << false << false << QByteArray("/v1/responses");
        QTest::newRow("responses streamed") << "/v1/responses"
                                            << "openai/gpt-5.5" << true << false << QByteArray("/v1/responses");
        QTest::newRow("messages") << "/v1/messages"
                                  << "claude/claude-sonnet-5" << false << true << QByteArray("/v1/messages");
        QTest::newRow("messages streamed") << "/v1/messages"
                                           << "claude/claude-sonnet-5" << true << true << QByteArray("/v1/messages");
    }

    void relaysEachWire()
    {
        QFETCH(QString, path);
        QFETCH(QString, model);
        QFETCH(bool, stream);
        QFETCH(bool, anthropic);
        QFETCH(QByteArray, upstreamPath);
        const QString bareModel = model.section(QLatin1Char('/'), 1);
        // The answer the upstream gives, and what the client must see byte for byte.
        Script script;
        QByteArray expected;
        if (path.endsWith(QLatin1String("completions"))) {
            script = stream ? FakeUpstream::chatStream({QStringLiteral("Hel"), QStringLiteral("lo!")}, 21, 7, bareModel, true)
                            : FakeUpstream::chatCompletion(QStringLiteral("Hello!"), 21, 7, bareModel);
            // The engine asked for usage on the client's behalf, so it keeps that chunk to itself.
            expected =
                stream ? eventsOf(FakeUpstream::chatStream({QStringLiteral("Hel"), QStringLiteral("lo!")}, 21, 7, bareModel, false)) : script.body;
        } else if (path.endsWith(QLatin1String("responses"))) {
            script = stream ? FakeUpstream::responsesStream({QStringLiteral("Hel"), QStringLiteral("lo!")}, 21, 7, bareModel)
                            : FakeUpstream::responsesAnswer(QStringLiteral("Hello!"), 21, 7, bareModel);
            expected = stream ? eventsOf(script) : script.body;
        } else {
            script = stream ? FakeUpstream::messagesStream({QStringLiteral("Hel"), QStringLiteral("lo!")}, 21, 7, bareModel)
                            : FakeUpstream::messagesAnswer(QStringLiteral("Hello!"), 21, 7, bareModel);
            expected = stream ? eventsOf(script) : script.body;
        }
        m_upstream->enqueue(script);

        QJsonObject body{{QStringLiteral("model"), model}, {QStringLiteral("max_tokens"), 100}};
        if (path.endsWith(QLatin1String("responses")))
            body = QJsonObject{{QStringLiteral("model"), model}, {QStringLiteral("input"), QStringLiteral("hi")}};
        else
            body.insert(QStringLiteral("messages"),
                        QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), QStringLiteral("hi")}}});
        if (stream)
            body.insert(QStringLiteral("stream"), true);
        const Reply r = send(QStringLiteral("POST"), m_engine->baseUrl() + path, QJsonDocument(body).toJson(), auth(anthropic));

        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, expected);
        QVERIFY(r.header("content-type").startsWith(stream ? "text/event-stream" : "application/json"));
        QVERIFY(r.header("x-aile-request-id").startsWith("req_"));
        QVERIFY2(QRegularExpression(QStringLiteral("^req_[0-9a-f]{24}$")).match(QString::fromLatin1(r.header("x-aile-request-id"))).hasMatch(),
                 r.header("x-aile-request-id").constData()); // the start time's 12 hex digits, then 12 random ones
        QCOMPARE(r.header("x-aile-attempts"), QByteArray("1"));
        QCOMPARE(r.header("x-aile-model"), model.toUtf8());
        QCOMPARE(r.header("x-aile-session-affinity"), QByteArray("fresh"));
        QVERIFY(!r.header("x-aile-sharer").isEmpty());

        // Upstream saw the provider's own model id, the sharer's credential, never the local key.
        QCOMPARE(m_upstream->received().size(), 1);
        const ReceivedRequest &up = m_upstream->received().first();
        QCOMPARE(up.path, upstreamPath);
        QCOMPARE(up.json().value(QLatin1String("model")).toString(), bareModel);
        if (anthropic) {
            QCOMPARE(up.headers.value("x-api-key"), QByteArray("upstream-secret-value"));
            QVERIFY(!up.headers.has("authorization"));
        } else {
            QCOMPARE(up.headers.value("authorization"), QByteArray("Bearer upstream-secret-value"));
            QVERIFY(!up.headers.has("x-api-key"));
        }
        QVERIFY(!up.body.contains(TestKey));

        // Usage is read from the answer and lands in the trace, with one attempt row.
        const QJsonObject trace = lastTrace();
        QCOMPARE(trace.value(QLatin1String("id")).toString().toLatin1(), r.header("x-aile-request-id"));
        QCOMPARE(trace.value(QLatin1String("status")).toInt(), 200);
        QCOMPARE(trace.value(QLatin1String("inputTokens")).toInt(), 21);
        QCOMPARE(trace.value(QLatin1String("outputTokens")).toInt(), 7);
        QCOMPARE(trace.value(QLatin1String("stream")).toBool(), stream);
        QCOMPARE(trace.value(QLatin1String("modelServed")).toString(), model);
        const QJsonArray attempts = trace.value(QLatin1String("attemptRows")).toArray();
        QCOMPARE(attempts.size(), 1);
        QCOMPARE(attempts.first().toObject().value(QLatin1String("outcome")).toString(), QStringLiteral("served"));
        QVERIFY(trace.value(QLatin1String("costUsd")).toDouble() > 0);
    }

    void countTokensGoesToTheSameProvider()
    {
        const QJsonObject body{{QStringLiteral("model"), QStringLiteral("claude/claude-sonnet-5")},
                               {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                   {QStringLiteral("content"), QStringLiteral("hi")}}}}};
        const Reply r = send(QStringLiteral("POST"), m_engine->baseUrl() + QStringLiteral("/v1/messages/count_tokens?beta=true"),
                             QJsonDocument(body).toJson(), auth(true));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QLatin1String("input_tokens")).toInt(), 42);
        QCOMPARE(m_upstream->received().first().path, QByteArray("/v1/messages/count_tokens"));
        QCOMPARE(m_upstream->received().first().query, QByteArray("beta=true"));
        // Counting tokens is free: nothing in the ledger.
        QCOMPARE(lastTrace().value(QLatin1String("costUsd")).toDouble(), 0.0);
    }

    void clientAsksForUsageAndGetsIt()
    {
        const QJsonObject body{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                               {QStringLiteral("stream"), true},
                               {QStringLiteral("stream_options"), QJsonObject{{QStringLiteral("include_usage"), true}}},
                               {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                   {QStringLiteral("content"), QStringLiteral("hi")}}}}};
        const Reply r =
            send(QStringLiteral("POST"), m_engine->baseUrl() + QStringLiteral("/v1/chat/completions"), QJsonDocument(body).toJson(), auth());
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.contains("\"usage\":{"));
        QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
    }

    void upstreamErrorEventInsideA200IsRelayedAndTraced()
    {
        Script s;
        s.headers.add("content-type", "text/event-stream");
        s.events = {
            {"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n", 0},
            {"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n", 0}};
        m_upstream->enqueue(s);
        const QJsonObject body{{QStringLiteral("model"), QStringLiteral("claude/claude-sonnet-5")},
                               {QStringLiteral("stream"), true},
                               {QStringLiteral("max_tokens"), 10},
                               {QStringLiteral("messages"), QJsonArray{}}};
        const Reply r = send(QStringLiteral("POST"), m_engine->baseUrl() + QStringLiteral("/v1/messages"), QJsonDocument(body).toJson(), auth(true));
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.contains("event: error"));
        const QJsonObject trace = lastTrace();
        QCOMPARE(trace.value(QLatin1String("attemptRows")).toArray().first().toObject().value(QLatin1String("outcome")).toString(),
                 QStringLiteral("error_event"));
    }

    void malformedUpstreamJsonIsRelayedAsIs()
    {
        Script s;
        s.body = "{\"id\": \"broken\", \"choices\": [";
        m_upstream->enqueue(s);
        const QJsonObject body{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}, {QStringLiteral("messages"), QJsonArray{}}};
        const Reply r =
            send(QStringLiteral("POST"), m_engine->baseUrl() + QStringLiteral("/v1/chat/completions"), QJsonDocument(body).toJson(), auth());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, s.body);
        // Nothing could be read of its usage; the trace says so rather than inventing tokens.
        QCOMPARE(lastTrace().value(QLatin1String("inputTokens")).toInt(), -1);
    }

    void clientDisconnectAbortsTheUpstream()
    {
        Script s = FakeUpstream::messagesStream({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        for (int i = 2; i < s.events.size(); ++i)
            s.events[i].delayMs = 300;
        m_upstream->enqueue(s);
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, m_engine->port());
        QVERIFY(client.waitForConnected(2000));
        const QByteArray body = R"({"model":"claude/claude-sonnet-5","stream":true,"max_tokens":10,"messages":[]})";
        client.write("POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(m_engine->port()) + "\r\nx-api-key: " + TestKey
                     + "\r\ncontent-type: application/json\r\ncontent-length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QTRY_VERIFY_WITH_TIMEOUT(client.bytesAvailable() > 0 || (client.waitForReadyRead(50), client.bytesAvailable() > 0), 5000);
        QVERIFY(client.readAll().startsWith("HTTP/1.1 200"));
        client.abort();
        QTRY_COMPARE_WITH_TIMEOUT(m_upstream->disconnects(), 1, 5000);
        const QJsonObject trace = lastTrace();
        QCOMPARE(trace.value(QLatin1String("attemptRows")).toArray().first().toObject().value(QLatin1String("outcome")).toString(),
                 QStringLiteral("client_gone"));
    }

    void unauthenticatedRequestsGetTheWiresOwn401_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("authHeader");
        QTest::addColumn<QByteArray>("authValue");
        QTest::addColumn<bool>("anthropicShape");
        QTest::newRow("chat, no key") << "/v1/chat/completions" << QByteArray() << QByteArray() << false;
        QTest::newRow("chat, wrong bearer") << "/v1/chat/completions" << QByteArray("authorization") << QByteArray("Bearer sk-aile-nope-000000000000")
                                            << false;
        QTest::newRow("responses, no key") << "/v1/responses" << QByteArray() << QByteArray() << false;
        QTest::newRow("messages, wrong x-api-key") << "/v1/messages" << QByteArray("x-api-key") << QByteArray("sk-aile-nope-000000000000") << true;
        QTest::newRow("models, no key") << "/v1/models" << QByteArray() << QByteArray() << false;
    }

    void unauthenticatedRequestsGetTheWiresOwn401()
    {
        QFETCH(QString, path);
        QFETCH(QByteArray, authHeader);
        QFETCH(QByteArray, authValue);
        QFETCH(bool, anthropicShape);
        QList<QPair<QByteArray, QByteArray>> headers;
        if (!authHeader.isEmpty())
            headers.append({authHeader, authValue});
        const Reply r = send(path.endsWith(QLatin1String("models")) ? QStringLiteral("GET") : QStringLiteral("POST"), m_engine->baseUrl() + path,
                             path.endsWith(QLatin1String("models")) ? QByteArray() : QByteArray("{}"), headers);
        QCOMPARE(r.status, 401);
        const QJsonObject o = r.json();
        if (anthropicShape) {
            QCOMPARE(o.value(QLatin1String("type")).toString(), QStringLiteral("error"));
            QCOMPARE(o.value(QLatin1String("error")).toObject().value(QLatin1String("type")).toString(), QStringLiteral("authentication_error"));
        } else {
            QVERIFY(!o.contains(QLatin1String("type")));
            QCOMPARE(o.value(QLatin1String("error")).toObject().value(QLatin1String("type")).toString(), QStringLiteral("authentication_error"));
        }
        QVERIFY(o.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString().contains(QLatin1String("key")));
        QVERIFY(m_upstream->received().isEmpty());
    }

    void modelsListsTestedModels()
    {
        const Reply r = send(QStringLiteral("GET"), m_engine->baseUrl() + QStringLiteral("/v1/models"), {}, auth());
        QCOMPARE(r.status, 200);
        QStringList ids;
        for (const QJsonValue &v : r.json().value(QLatin1String("data")).toArray())
            ids << v.toObject().value(QLatin1String("id")).toString();
        QVERIFY(ids.contains(QStringLiteral("openai/gpt-5.2")));
        QVERIFY(ids.contains(QStringLiteral("claude/claude-sonnet-5")));
    }

    void tracesNeedTheAdminToken()
    {
        const Reply r = send(QStringLiteral("GET"), m_engine->baseUrl() + QStringLiteral("/keys/usage/requests"), {}, auth());
        QCOMPARE(r.status, 401);
    }
};

QTEST_GUILESS_MAIN(TestChatRelay)
#include "TestChatRelay.moc"
