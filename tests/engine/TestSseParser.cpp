// SSE framing: events split anywhere across reads come out whole and byte for byte.
#include "wire/ResponseMeter.h"
#include "wire/SseParser.h"

#include <QtTest/QtTest>

using namespace Aile::Wire;

class TestSseParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void splitsAtEveryOffset_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<int>("events");
        QTest::newRow("LF") << QByteArray("event: a\ndata: 1\n\ndata: 2\n\n: comment\n\n") << 3;
        QTest::newRow("CRLF") << QByteArray("event: a\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n") << 2;
        QTest::newRow("multi-line data") << QByteArray("data: x\ndata: y\n\n") << 1;
    }

    void splitsAtEveryOffset()
    {
        QFETCH(QByteArray, stream);
        QFETCH(int, events);
        for (int cut = 0; cut <= stream.size(); ++cut) {
            SseParser p;
            QList<SseEvent> got = p.feed(stream.left(cut));
            got += p.feed(stream.mid(cut));
            QCOMPARE(got.size(), events);
            QByteArray joined;
            for (const SseEvent &e : got)
                joined += e.raw;
            QCOMPARE(joined, stream);
        }
    }

    void readsFields()
    {
        SseParser p;
        const auto got = p.feed("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\ndata: x\ndata: y\n\n");
        QCOMPARE(got.size(), 2);
        QCOMPARE(got[0].name, QByteArray("message_stop"));
        QCOMPARE(got[0].data, QByteArray("{\"type\":\"message_stop\"}"));
        QCOMPARE(got[1].data, QByteArray("x\ny"));
    }

    void keepsAnUnterminatedTail()
    {
        SseParser p;
        QCOMPARE(p.feed("data: 1\n\ndata: 2").size(), 1);
        QCOMPARE(p.takePending(), QByteArray("data: 2"));
    }

    void meterReadsUsageAndEndEvents()
    {
        ResponseMeter m(Endpoint::Messages, true);
        m.feedStream("event: message_start\ndata: "
                     "{\"type\":\"message_start\",\"message\":{\"model\":\"claude-sonnet-5\",\"usage\":{\"input_tokens\":30,\"cache_read_input_"
                     "tokens\":4,\"output_tokens\":1}}}\n\n");
        m.feedStream("event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":9}}\n\n");
        QVERIFY(!m.sawEndEvent());
        m.feedStream("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n");
        QVERIFY(m.sawEndEvent());
        QCOMPARE(m.usage().inputTokens, 30);
        QCOMPARE(m.usage().outputTokens, 9);
        QCOMPARE(m.usage().cacheReadTokens, 4);
        QCOMPARE(m.reportedModel(), QStringLiteral("claude-sonnet-5"));
    }

    void meterReadsNonStreamedUsage_data()
    {
        QTest::addColumn<int>("endpoint");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::newRow("chat") << int(Endpoint::ChatCompletions) << QByteArray(R"({"usage":{"prompt_tokens":5,"completion_tokens":6}})") << 5 << 6;
        QTest::newRow("responses") << int(Endpoint::Responses) << QByteArray(R"({"usage":{"input_tokens":7,"output_tokens":8}})") << 7 << 8;
        QTest::newRow("messages") << int(Endpoint::Messages) << QByteArray(R"({"usage":{"input_tokens":9,"output_tokens":10}})") << 9 << 10;
    }

    void meterReadsNonStreamedUsage()
    {
        QFETCH(int, endpoint);
        QFETCH(QByteArray, body);
        QFETCH(int, in);
        QFETCH(int, out);
        ResponseMeter m(Endpoint(endpoint), false);
        m.feedBody(body.left(10));
        m.feedBody(body.mid(10));
        m.finish();
        QCOMPARE(m.usage().inputTokens, in);
        QCOMPARE(m.usage().outputTokens, out);
    }

    void anEventPastTheCapStopsTheParserAndFreesIt()
    {
        // docs/hardening.md "Upstreams": one event may hold 8 MiB; past it nothing is kept.
        SseParser p;
        QCOMPARE(p.feed("data: ok\n\n").size(), 1);
        const QByteArray piece(64 * 1024, 'x');
        p.feed("data: ");
        for (qsizetype fed = 0; fed <= SseParser::MaxEventBytes; fed += piece.size())
            QVERIFY(p.feed(piece).isEmpty());
        QVERIFY(p.overflowed());
        QCOMPARE(p.pendingSize(), 0);
        QVERIFY(p.feed("\n\ndata: later\n\n").isEmpty());
    }

    void chatEndsAtItsFinishReason()
    {
        ResponseMeter m(Endpoint::ChatCompletions, true);
        m.feedStream("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"},\"finish_reason\":null}]}\n\n");
        QVERIFY(!m.sawEndEvent());
        m.feedStream("data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n");
        QVERIFY(m.sawEndEvent());
    }

    void meterMarksTheUsageOnlyChunk()
    {
        ResponseMeter m(Endpoint::ChatCompletions, true);
        const auto events = m.feedStream("data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n"
                                         "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}\n\ndata: [DONE]\n\n");
        QCOMPARE(events.size(), 3);
        QVERIFY(!events[0].usageOnly);
        QVERIFY(events[1].usageOnly);
        QVERIFY(!events[2].usageOnly);
        QVERIFY(m.sawEndEvent());
        QCOMPARE(m.usage().outputTokens, 2);
    }
};

QTEST_GUILESS_MAIN(TestSseParser)
#include "TestSseParser.moc"
