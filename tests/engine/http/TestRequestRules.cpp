// What a request may carry in its head and names: RFC 9110 tokens and field values, names
// without control characters, and a response head nothing from a request can split.
#include "http/HeaderRules.h"
#include "http/HttpHeaders.h"
#include "http/RequestParser.h"
#include "testsupport/BasicEngine.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtTest/QtTest>

#include <memory>

using namespace Aile;
using namespace Aile::Test;
using Aile::Http::RequestParser;

class TestRequestRules : public QObject
{
    Q_OBJECT

private:
    ManualClock m_clock;
    std::unique_ptr<FakeUpstream> m_upstream;
    std::unique_ptr<TestEngine> m_engine;

    QByteArray host() const { return "127.0.0.1:" + QByteArray::number(m_engine->port()); }
    QByteArray messages(const QByteArray &extraHeaders, const QByteArray &body, const QByteArray &path = "/v1/messages") const
    {
        return "POST " + path + " HTTP/1.1\r\nHost: " + host() + "\r\nx-api-key: " + TestKey + "\r\nAuthorization: Bearer " + TestKey
               + "\r\nContent-Type: application/json\r\n" + extraHeaders + "Connection: close\r\nContent-Length: " + QByteArray::number(body.size())
               + "\r\n\r\n" + body;
    }

    static void headerRows()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("says");
        QTest::newRow("space inside a name") << QByteArray("X Custom: 1") << 400 << QByteArray("is not an HTTP token");
        QTest::newRow("space before the colon") << QByteArray("X-Custom : 1") << 400 << QByteArray("is not an HTTP token");
        QTest::newRow("tab before the colon") << QByteArray("X-Custom\t: 1") << 400 << QByteArray("");
        QTest::newRow("separator in a name") << QByteArray("X-C@stom: 1") << 400 << QByteArray("");
        QTest::newRow("NUL in a value") << QByteArray("X-Custom: a\0b", 13) << 400 << QByteArray("");
        QTest::newRow("bell in a value") << QByteArray("X-Custom: a\x07"
                                                       "b")
                                         << 400 << QByteArray("");
        QTest::newRow("escape in a value") << QByteArray("X-Custom: a\x1b[31mb") << 400 << QByteArray("");
        QTest::newRow("DEL in a value") << QByteArray("X-Custom: a\x7f"
                                                      "b")
                                        << 400 << QByteArray("");
        QTest::newRow("tab in a value is fine") << QByteArray("X-Custom: a\tb") << 200 << QByteArray();
        QTest::newRow("UTF-8 in a value is fine") << QByteArray("X-Custom: caf\xc3\xa9") << 200 << QByteArray();
        QTest::newRow("every tchar in a name is fine") << QByteArray("X-!#$%&'*+.^_`|~9: 1") << 200 << QByteArray();
    }

    // Which wire's error shape an answer has: Anthropic's {"type":"error","error":{…}} or
    // OpenAI's {"error":{…}}.
    static QByteArray shapeOf(const QByteArray &answer)
    {
        const QByteArray body = answer.mid(answer.indexOf("\r\n\r\n") + 4);
        const QJsonObject o = QJsonDocument::fromJson(body).object();
        if (!o.value(QLatin1String("error")).isObject())
            return "none";
        return o.value(QLatin1String("type")).toString() == QLatin1String("error") ? "anthropic" : "openai";
    }

private Q_SLOTS:
    void init()
    {
        const QString why = startBasicEngine(m_upstream, m_engine, &m_clock);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void cleanup()
    {
        m_engine.reset();
        m_upstream.reset();
    }

    // A header name is a token (RFC 9110 5.6.2): letters, digits and 15 marks, every other byte refused.
    void aNameIsATokenByteByByte()
    {
        const QByteArray marks("!#$%&'*+-.^_`|~");
        for (int c = 0; c < 256; ++c) {
            const bool tchar = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || marks.contains(char(c));
            QVERIFY2(Http::isToken(QByteArray(QByteArray(1, char(c)) + "x-y")) == tchar, qPrintable(QString::number(c)));
        }
        QVERIFY(!Http::isToken({}));
    }

    // The parser alone, byte by byte and whole: the same verdict however the bytes arrive.
    void parserJudgesHeaderLines_data() { headerRows(); }
    void parserJudgesHeaderLines()
    {
        QFETCH(QByteArray, line);
        QFETCH(int, status);
        const QByteArray head = "GET / HTTP/1.1\r\nHost: h\r\n" + line + "\r\n\r\n";
        for (const bool byteByByte : {false, true}) {
            RequestParser parser(64 * 1024, 1024);
            qsizetype at = 0;
            while (at < head.size() && parser.phase() != RequestParser::Phase::Refused && parser.phase() != RequestParser::Phase::Complete)
                at += parser.feed(head.constData() + at, byteByByte ? 1 : head.size() - at);
            if (status == 200) {
                QCOMPARE(parser.phase(), RequestParser::Phase::Complete);
                QCOMPARE(parser.takeRequest().headers.size(), 2);
            } else {
                QCOMPARE(parser.phase(), RequestParser::Phase::Refused);
                QCOMPARE(parser.refusalStatus(), status);
            }
        }
    }

    // Through the engine, on a raw socket: a 400 in the wire's own shape, nothing sent upstream.
    void engineRefusesBadHeaderLines_data() { headerRows(); }
    void engineRefusesBadHeaderLines()
    {
        QFETCH(QByteArray, line);
        QFETCH(int, status);
        QFETCH(QByteArray, says);
        const QByteArray got =
            rawExchange(m_engine->port(),
                        messages(line + "\r\n", R"({"model":"claude/claude-sonnet-5","max_tokens":10,"messages":[{"role":"user","content":"hi"}]})"));
        QVERIFY2(got.startsWith(QByteArray("HTTP/1.1 " + QByteArray::number(status))), got.constData());
        if (status == 400) {
            QCOMPARE(shapeOf(got), QByteArray("anthropic")); // the wire's shape, from the path
            QVERIFY2(got.contains(says), got.constData());
            QVERIFY(m_upstream->received().isEmpty());
        }
    }

    // A model, route or sharer name with a control character never reaches the routing, a
    // response header, the trace or a log line.
    void namesWithControlCharactersGet400_data()
    {
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("shape");
        QTest::addColumn<QByteArray>("names");
        QTest::newRow("line feed in model") << QByteArray("/v1/messages") << QByteArray()
                                            << QByteArray(R"({"model":"claude/x\nX-Injected: 1","max_tokens":5,"messages":[]})")
                                            << QByteArray("anthropic") << QByteArray("\\\"model\\\"");
        QTest::newRow("NUL in model") << QByteArray("/v1/chat/completions") << QByteArray()
                                      << QByteArray(R"({"model":"openai/gpt-5.2\u0000","messages":[]})") << QByteArray("openai")
                                      << QByteArray("\\\"model\\\"");
        QTest::newRow("carriage return in a fallback")
            << QByteArray("/v1/chat/completions") << QByteArray() << QByteArray(R"({"models":["openai/gpt-5.2","my-route\r"],"messages":[]})")
            << QByteArray("openai") << QByteArray("\\\"models\\\"");
        QTest::newRow("C1 control in model") << QByteArray("/v1/responses") << QByteArray()
                                             << QByteArray(R"({"model":"openai/gpt\u0085","input":"hi"})") << QByteArray("openai")
                                             << QByteArray("\\\"model\\\"");
        QTest::newRow("line separator in x-aile-sharer")
            << QByteArray("/v1/chat/completions") << QByteArray("x-aile-sharer: openai-main\xe2\x80\xa8X\r\n")
            << QByteArray(R"({"model":"openai/gpt-5.2","messages":[]})") << QByteArray("openai") << QByteArray("x-aile-sharer");
        // After other x-aile- headers, harmless non-ASCII among them: the bad one is named.
        QTest::newRow("C1 control in x-aile-session, after others")
            << QByteArray("/v1/chat/completions")
            << QByteArray("x-aile-sharer: cl\xc3\xa9-main\r\nx-aile-note: d\xc3\xa9j\xc3\xa0\r\nx-aile-session: abc\xc2\x85\r\n")
            << QByteArray(R"({"model":"openai/gpt-5.2","messages":[]})") << QByteArray("openai") << QByteArray("x-aile-session");
        QTest::newRow("paragraph separator in x-aile-exclude-provider")
            << QByteArray("/v1/messages") << QByteArray("X-Aile-Exclude-Provider: openai\xe2\x80\xa9\r\n")
            << QByteArray(R"({"model":"claude/x","max_tokens":5,"messages":[]})") << QByteArray("anthropic") << QByteArray("x-aile-exclude-provider");
    }
    void namesWithControlCharactersGet400()
    {
        QFETCH(QByteArray, path);
        QFETCH(QByteArray, header);
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, shape);
        QFETCH(QByteArray, names);
        const QByteArray got = rawExchange(m_engine->port(), messages(header, body, path));
        QVERIFY2(got.startsWith("HTTP/1.1 400"), got.constData());
        const qsizetype headEnd = got.indexOf("\r\n\r\n");
        QVERIFY(!got.left(headEnd).contains("X-Injected") && !got.left(headEnd).contains("\r\nX\r\n"));
        const QByteArray answer = got.mid(headEnd + 4);
        QCOMPARE(shapeOf(got), shape);
        QVERIFY2(answer.contains("control character"), answer.constData());
        QVERIFY2(answer.contains(names), answer.constData());
        QVERIFY(m_upstream->received().isEmpty());
    }

    // The last guard: whatever a handler puts in a response header, CR, LF and NUL never reach
    // the head, and a name that is not a token is left out.
    void responseHeadLeavesOutWhatCouldSplitIt()
    {
        Http::HttpHeaders h;
        h.add("x-aile-model", "gpt\r\nSet-Cookie: a=b");
        h.add("x-ok", "fine");
        h.add("x-nul", QByteArray("a\0b", 3));
        h.add("x-lf", "a\nb");
        h.add("bad name", "v");
        QByteArray head;
        const QList<QByteArray> dropped = h.appendTo(head);
        QCOMPARE(head, QByteArray("x-ok: fine\r\n"));
        QCOMPARE(dropped, (QList<QByteArray>{"x-aile-model", "x-nul", "x-lf", "bad name"}));
    }
};

QTEST_GUILESS_MAIN(TestRequestRules)
#include "TestRequestRules.moc"
