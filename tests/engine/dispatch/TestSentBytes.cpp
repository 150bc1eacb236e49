// What goes upstream when nothing but the model needs rewriting: the client's own bytes with only
// the model's value spliced (docs/performance.md "Change 1 (dispatch)"), and a body the proxy must
// change (a models chain, provider preferences, the usage chunk asked for) re-serialised.
#include "dispatch/ProxyRequest.h"
#include "http/HttpServer.h"
#include "http/UpstreamClient.h"
#include "dispatch/UpstreamRequestBuilder.h"
#include "catalog/Catalog.h"
#include "catalog/Sharer.h"
#include "wire/RawJson.h"
#include "testsupport/BasicEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtTest/QtTest>

using namespace Aile;
using namespace Aile::Test;

class TestSentBytes : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeUpstream> m_upstream;
    std::unique_ptr<TestEngine> m_engine;

private Q_SLOTS:
    void init() { QVERIFY2(startBasicEngine(m_upstream, m_engine, nullptr).isEmpty(), "engine start"); }
    void cleanup()
    {
        m_engine.reset();
        m_upstream.reset();
    }

    // The client's bytes reach the upstream as written (spacing, member order, a number's
    // spelling, an integer past 2^53, escapes), with the model's value alone rewritten.
    void upstreamGetsTheClientsOtherBytes_data()
    {
        QTest::addColumn<QByteArray>("sent");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("spacing and member order")
            << QByteArray("{ \"messages\" : [ {\"role\":\"user\",\"content\":\"hi\"} ],\n  \"model\" :  \"openai/gpt-5.2\" , \"max_tokens\": 16 }")
            << QByteArray("{ \"messages\" : [ {\"role\":\"user\",\"content\":\"hi\"} ],\n  \"model\" :  \"gpt-5.2\" , \"max_tokens\": 16 }");
        QTest::newRow("numbers as written") << QByteArray(
            "{\"model\":\"openai/gpt-5.2\",\"temperature\":1.50,\"seed\":12345678901234567890,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                                            << QByteArray("{\"model\":\"gpt-5.2\",\"temperature\":1.50,\"seed\":12345678901234567890,\"messages\":[{"
                                                          "\"role\":\"user\",\"content\":\"hi\"}]}");
        QTest::newRow("escapes and a nested model member") << QByteArray("{\"messages\":[{\"role\":\"user\",\"content\":\"say \\\"model\\\": \\u00e9 "
                                                                         "{[\"}],\"metadata\":{\"model\":\"mine\"},\"model\":\"openai/gpt-5.2\"}")
                                                           << QByteArray("{\"messages\":[{\"role\":\"user\",\"content\":\"say \\\"model\\\": \\u00e9 "
                                                                         "{[\"}],\"metadata\":{\"model\":\"mine\"},\"model\":\"gpt-5.2\"}");
        QTest::newRow("streamed, usage already asked") << QByteArray(
            "{\"model\":\"openai/"
            "gpt-5.2\",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                                                       << QByteArray("{\"model\":\"gpt-5.2\",\"stream\":true,\"stream_options\":{\"include_usage\":"
                                                                     "true},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
    }

    void upstreamGetsTheClientsOtherBytes()
    {
        QFETCH(QByteArray, sent);
        QFETCH(QByteArray, expected);
        const Reply r = send(QStringLiteral("POST"), m_engine->baseUrl() + QStringLiteral("/v1/chat/completions"), sent,
                             {{"authorization", QByteArray("Bearer ") + TestKey}, {"content-type", "application/json"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(m_upstream->received().size(), 1);
        QCOMPARE(m_upstream->received().first().body, expected);
    }

    // What the proxy must change is still changed: the body is re-serialised then.
    void aBodyTheProxyChangesIsRewritten_data()
    {
        QTest::addColumn<QByteArray>("sent");
        QTest::addColumn<QString>("absent");  // a member the upstream must not see
        QTest::addColumn<QString>("present"); // a member it must see
        QTest::newRow("a models chain") << QByteArray("{\"models\":[\"openai/gpt-5.2\"],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                                        << "models"
                                        << "model";
        QTest::newRow("provider preferences") << QByteArray(
            "{\"model\":\"openai/gpt-5.2\",\"provider\":{\"sort\":\"price\"},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                                              << "provider"
                                              << "model";
        QTest::newRow("usage chunk asked for the client")
            << QByteArray("{\"model\":\"openai/gpt-5.2\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}") << "models"
            << "stream_options";
        QTest::newRow("a duplicate member") << QByteArray(
            "{\"model\":\"openai/gpt-5.2\",\"max_tokens\":16,\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                                            << "models"
                                            << "max_tokens";
    }

    void aBodyTheProxyChangesIsRewritten()
    {
        QFETCH(QByteArray, sent);
        QFETCH(QString, absent);
        QFETCH(QString, present);
        const Reply r = send(QStringLiteral("POST"), m_engine->baseUrl() + QStringLiteral("/v1/chat/completions"), sent,
                             {{"authorization", QByteArray("Bearer ") + TestKey}, {"content-type", "application/json"}});
        QCOMPARE(r.status, 200);
        QCOMPARE(m_upstream->received().size(), 1);
        const ReceivedRequest &up = m_upstream->received().first();
        QVERIFY(up.body != sent);
        QCOMPARE(up.body.count("\"max_tokens\""), sent.contains("\"max_tokens\"") ? 1 : 0);
        const QJsonObject json = up.json();
        QCOMPARE(json.value(QLatin1String("model")).toString(), QStringLiteral("gpt-5.2"));
        QVERIFY(!json.contains(absent));
        QVERIFY(json.contains(present));
    }

    // The splice itself, row by row: what it keeps, and when it declines (nothing spliced).
    void splicesOnlyATopLevelModel_data()
    {
        QTest::addColumn<QByteArray>("client");
        QTest::addColumn<QByteArray>("expected"); // empty: re-serialised instead
        QTest::newRow("plain") << QByteArray("{\"model\":\"a/b\",\"x\":1}") << QByteArray("{\"model\":\"b\",\"x\":1}");
        QTest::newRow("model last, spaces") << QByteArray("{\"x\" : [1, {\"model\":\"n\"}] ,\t\"model\" : \"a/b\"\r\n}")
                                            << QByteArray("{\"x\" : [1, {\"model\":\"n\"}] ,\t\"model\" : \"b\"\r\n}");
        QTest::newRow("no model member") << QByteArray("{\"x\":1}") << QByteArray();
        QTest::newRow("two model members") << QByteArray("{\"model\":\"a/b\",\"model\":\"a/c\"}") << QByteArray();
        QTest::newRow("an escaped key") << QByteArray("{\"mod\\u0065l\":\"a/b\"}") << QByteArray();
        QTest::newRow("a models member") << QByteArray("{\"model\":\"a/b\",\"models\":[\"a/b\"]}") << QByteArray();
        QTest::newRow("a provider member") << QByteArray("{\"model\":\"a/b\",\"provider\":{}}") << QByteArray();
        // Where a string ends (wire/RawJson.cpp skipString): a quote closes it unless an odd run of
        // backslashes stands before it.
        QTest::newRow("a string ending in an escaped backslash")
            << QByteArray("{\"x\":\"a\\\\\",\"model\":\"a/b\"}") << QByteArray("{\"x\":\"a\\\\\",\"model\":\"b\"}");
        QTest::newRow("an escaped quote then a backslash pair") << QByteArray("{\"x\":\"\\\"model\\\":\\\"z\\\"\\\\\\\\\",\"model\":\"a/b\"}")
                                                                << QByteArray("{\"x\":\"\\\"model\\\":\\\"z\\\"\\\\\\\\\",\"model\":\"b\"}");
        QTest::newRow("three backslashes then a quote") << QByteArray("{\"x\":[\"\\\\\\\"\",{\"model\":\"n\"}],\"model\":\"a/b\"}")
                                                        << QByteArray("{\"x\":[\"\\\\\\\"\",{\"model\":\"n\"}],\"model\":\"b\"}");
        QTest::newRow("a key ending in an escaped backslash")
            << QByteArray("{\"k\\\\\":1,\"model\":\"a/b\"}") << QByteArray("{\"k\\\\\":1,\"model\":\"b\"}");
    }

    void splicesOnlyATopLevelModel()
    {
        QFETCH(QByteArray, client);
        QFETCH(QByteArray, expected);
        const QJsonObject body = QJsonDocument::fromJson(client).object();
        const Dispatch::UpstreamBody out = Dispatch::rewriteBody(Wire::Endpoint::ChatCompletions, body, QStringLiteral("b"), client);
        if (!expected.isEmpty()) {
            QCOMPARE(out.bytes, expected);
            return;
        }
        QCOMPARE(out.bytes, Dispatch::rewriteBody(Wire::Endpoint::ChatCompletions, body, QStringLiteral("b")).bytes);
    }

    // The spliced model is written as Qt's JSON writer writes it, whether it takes the plain path
    // (printable ASCII with nothing to escape) or Qt's (docs/performance.md "Change 4 (dispatch)").
    void aSplicedStringIsWhatQtsWriterWrites_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("a model id") << QStringLiteral("gpt-5.2");
        QTest::newRow("a namespaced id") << QStringLiteral("meta-llama/llama-4:free");
        QTest::newRow("empty") << QString();
        QTest::newRow("a quote") << QStringLiteral("a\"b");
        QTest::newRow("a backslash") << QStringLiteral("a\\b");
        QTest::newRow("a newline and a tab") << QStringLiteral("a\n\tb");
        QTest::newRow("delete") << QStringLiteral("a\x7f");
        QTest::newRow("accented") << QStringLiteral("mod\u00e8le");
        QTest::newRow("a surrogate pair") << QString::fromUtf8("m\xf0\x9f\x98\x80");
    }
    void aSplicedStringIsWhatQtsWriterWrites()
    {
        QFETCH(QString, text);
        const QByteArray array = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
        QCOMPARE(Wire::jsonString(text), array.mid(1, array.size() - 2));
    }

    // The upstream URL is the sharer's base, the provider's path and the client's query, request
    // after request, whatever was built before it (parsed URLs are kept per thread:
    // docs/performance.md "Change 13 (exchange)"); the fixed headers are set, the private ones dropped.
    void theUpstreamRequestIsBuiltAfreshForEachSharerAndQuery()
    {
        const Catalog::Catalog catalog = Catalog::Catalog::builtIn();
        const QHash<QString, QString> credentials{{QStringLiteral("La"), QStringLiteral("sk-a")}, {QStringLiteral("Lb"), QStringLiteral("sk-b")}};
        const Dispatch::UpstreamSetup setup{catalog, 1000, credentials};
        Catalog::Sharer a;
        a.handle = QStringLiteral("La");
        a.provider = QStringLiteral("openai");
        a.baseUrl = QStringLiteral("http://127.0.0.1:1111/");
        Catalog::Sharer b = a;
        b.handle = QStringLiteral("Lb");
        b.baseUrl = QStringLiteral("http://127.0.0.1:2222");
        const struct
        {
            const Catalog::Sharer *sharer;
            QByteArray query;
            QString url;
            QByteArray authorization;
        } rows[] = {
            {&a, {}, QStringLiteral("http://127.0.0.1:1111/v1/chat/completions"), "Bearer sk-a"},
            {&b, {}, QStringLiteral("http://127.0.0.1:2222/v1/chat/completions"), "Bearer sk-b"},
            {&a, "x=1", QStringLiteral("http://127.0.0.1:1111/v1/chat/completions?x=1"), "Bearer sk-a"},
            {&a, {}, QStringLiteral("http://127.0.0.1:1111/v1/chat/completions"), "Bearer sk-a"},
            {&b, "y=2", QStringLiteral("http://127.0.0.1:2222/v1/chat/completions?y=2"), "Bearer sk-b"},
            {&b, {}, QStringLiteral("http://127.0.0.1:2222/v1/chat/completions"), "Bearer sk-b"},
        };
        for (const auto &row : rows) {
            Http::HttpRequest inbound;
            inbound.method = "POST";
            inbound.path = "/v1/chat/completions";
            inbound.query = row.query;
            inbound.headers.add("Authorization", "Bearer sk-aile-local");
            inbound.headers.add("Content-Type", "text/plain");
            inbound.headers.add("X-Custom", "kept");
            inbound.headers.add("anthropic-beta", "a,oauth-2025-04-20");
            const Http::UpstreamRequest r = Dispatch::buildUpstreamRequest(setup, *row.sharer, Wire::Endpoint::ChatCompletions, inbound, "{}");
            QCOMPARE(r.url.toString(), row.url);
            QCOMPARE(r.headers.values("authorization"), QList<QByteArray>{row.authorization});
            QCOMPARE(r.headers.values("content-type"), QList<QByteArray>{"application/json"});
            QCOMPARE(r.headers.value("accept-encoding"), QByteArray("identity"));
            QCOMPARE(r.headers.value("x-custom"), QByteArray("kept"));
            QCOMPARE(r.headers.value("anthropic-beta"), QByteArray("a")); // the client's own login flag stays with it
        }
    }

    // A finished request goes with its exchange at the end of its event-loop turn, served or
    // refused (no posted deleteLater: docs/performance.md "Change 3 (dispatch)"), and its upstream
    // call (a plain object the request owns) with it or before: "Change 12 (calls)".
    void aFinishedRequestLeavesNoObjectBehind()
    {
        const QList<QPair<QByteArray, QByteArray>> headers{{"authorization", QByteArray("Bearer ") + TestKey}, {"content-type", "application/json"}};
        const QString url = m_engine->baseUrl() + QStringLiteral("/v1/chat/completions");
        QCOMPARE(
            send(QStringLiteral("POST"), url, "{\"model\":\"openai/gpt-5.2\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", headers).status,
            200);
        QCOMPARE(
            send(QStringLiteral("POST"), url, "{\"model\":\"nosuch/gpt-5.2\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", headers).status,
            400);
        // Neither the requests, their exchanges (plain objects their connection retires) nor the
        // upstream calls outlive the answers; the keep-alive connection itself stays open.
        const auto *server = m_engine->engine().findChild<Http::HttpServer *>();
        QVERIFY(server);
        QTRY_COMPARE(Dispatch::ProxyRequest::live(), 0);
        QTRY_COMPARE(server->liveExchanges(), 0);
        QCOMPARE(m_engine->context().upstream->liveCalls(), 0);
    }
};

QTEST_GUILESS_MAIN(TestSentBytes)
#include "TestSentBytes.moc"
