// docs/hardening.md "Upstreams (the dialling side)": what a broken or hostile upstream can make
// the engine do. Real engine, fake upstream with hostile scripts, one ManualClock.
#include "../routing/RoutingFixture.h"

#include "dispatch/Verifier.h"
#include "http/UpstreamClient.h"
#include "wire/ResponseMeter.h"

#include <QtNetwork/QTcpSocket>

using namespace Aile;
using namespace Aile::Test;

Q_DECLARE_METATYPE(Aile::Test::Script)

namespace {
const QString A = QStringLiteral("L00000000000000a1");
const QString B = QStringLiteral("L00000000000000a2");

// Two sharers of one provider; A is cheaper, so A is dialled first.
QJsonArray twoSharers(const QString &provider, const QString &model)
{
    return QJsonArray{sharer(A, provider, {}, {model}, QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 50}}}}),
                      sharer(B, provider, {}, {model})};
}

QString outcomeOf(const QJsonArray &attempts, int i)
{
    return attempts.at(i).toObject().value(QLatin1String("outcome")).toString();
}

QString reasonOf(const QJsonArray &attempts, int i)
{
    return attempts.at(i).toObject().value(QLatin1String("reason")).toString();
}

QByteArray streamHead(bool chunked)
{
    return QByteArray("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n") + (chunked ? "transfer-encoding: chunked\r\n" : "") + "\r\n";
}

QByteArray joined(const QList<ScriptedEvent> &events)
{
    QByteArray out;
    for (const ScriptedEvent &e : events)
        out += e.bytes;
    return out;
}

struct WireCase
{
    QString path;
    QString model;        // provider/model as the client asks
    Script stream;        // a whole stream of that wire
    int keep;             // events of it relayed before the cut
    QByteArray errorMark; // how the wire's own error event starts
};

WireCase wireNamed(const QString &name)
{
    if (name == QLatin1String("chat"))
        return {QStringLiteral("/v1/chat/completions"), QStringLiteral("openai/gpt-5.2"),
                FakeUpstream::chatStream({QStringLiteral("Hel"), QStringLiteral("lo!")}, 12, 5, QStringLiteral("gpt-5.2"), false), 3,
                "data: {\"error\":"};
    if (name == QLatin1String("messages"))
        return {QStringLiteral("/v1/messages"), QStringLiteral("claude/claude-sonnet-5"), FakeUpstream::messagesStream(), 4,
                "event: error\ndata: {\"error\":"};
    return {QStringLiteral("/v1/responses"), QStringLiteral("openai/gpt-5.5"), FakeUpstream::responsesStream(), 4, "event: error\ndata: {\"code\":"};
}

QString upstreamModel(const QString &model)
{
    return model.section(QLatin1Char('/'), 1);
}

QString providerOf(const QString &model)
{
    return model.section(QLatin1Char('/'), 0, 0);
}

qint64 coolingFor(RoutingFixture &f, const QString &handle, const QString &model)
{
    const qint64 until = f.engine->context().health->coolingUntil(handle, upstreamModel(model));
    return until > 0 ? until - f.clock.nowMs() : 0;
}

const QByteArray PartialEvent = "data: {\"choices\":[{\"delta\":{\"content\":\"PARTIAL";
} // namespace

class TestHostileUpstream : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void interimAnswersAreConsumed_data()
    {
        QTest::addColumn<QList<QByteArray>>("interim");
        QTest::newRow("103 Early Hints") << QList<QByteArray>{"HTTP/1.1 103 Early Hints\r\nlink: </a.css>; rel=preload\r\n\r\n"};
        QTest::newRow("100 Continue") << QList<QByteArray>{"HTTP/1.1 100 Continue\r\n\r\n"};
        QTest::newRow("100 then 103") << QList<QByteArray>{"HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 103 Early Hints\r\nlink: </b.js>\r\n\r\n"};
    }

    void interimAnswersAreConsumed()
    {
        // "Interim 1xx answers from an upstream are consumed, never relayed as the final status."
        QFETCH(QList<QByteArray>, interim);
        RoutingFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        Script s = FakeUpstream::chatCompletion(QStringLiteral("after the hints"));
        s.interimHeads = interim;
        f.upstream->enqueueFor(A.toLatin1(), s);
        const Reply r = f.chat(QStringLiteral("openai/gpt-5.2"));
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.contains("after the hints"));
        QVERIFY(r.header("link").isEmpty());
        QCOMPARE(f.dialled(), QStringList{A});
        QCOMPARE(outcomeOf(f.lastAttempts(), 0), QStringLiteral("served"));
    }

    void oversizedAnswersFailOverAsProtocolErrors_data()
    {
        QTest::addColumn<Script>("script");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<QString>("why");
        QByteArray bigHead = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n";
        for (int i = 0; bigHead.size() < 70 * 1024; ++i)
            bigHead += "x-pad-" + QByteArray::number(i) + ": " + QByteArray(1000, 'h') + "\r\n";
        QTest::newRow("a 70 KiB head") << FakeUpstream::rawAnswer(bigHead + "content-length: 2\r\n\r\n{}") << false << "head is larger than 64 KiB";
        QTest::newRow("a head that never ends") << FakeUpstream::rawAnswer(bigHead, true) << false << "head is larger than 64 KiB";
        Script endless;
        endless.headers.add("content-type", "text/event-stream");
        endless.events = {{"data: " + QByteArray(9 * 1024 * 1024, 'e'), 0}}; // no blank line, ever
        endless.hangAfterAnswer = true;
        QTest::newRow("an event that never ends") << endless << true << "SSE event larger than 8 MiB";
        Script bigBody = FakeUpstream::chatCompletion(QString(33 * 1024 * 1024, QLatin1Char('b')));
        QTest::newRow("a 33 MiB body") << bigBody << false << "larger than 32 MiB";
    }

    void oversizedAnswersFailOverAsProtocolErrors()
    {
        // "Past a cap the attempt fails as a protocol failure of that sharer (counted for its health),
        //  the client gets the wire's error, and memory returns." Nothing reached the client: B serves.
        QFETCH(Script, script);
        QFETCH(bool, stream);
        QFETCH(QString, why);
        RoutingFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        f.upstream->enqueueFor(A.toLatin1(), script);
        const Reply r = f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(QStringLiteral("openai/gpt-5.2"), stream));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), B.toLatin1());
        QVERIFY(r.body.contains("Hel"));
        const QJsonArray attempts = f.lastAttempts();
        QCOMPARE(outcomeOf(attempts, 0), QStringLiteral("protocol_error"));
        QVERIFY2(reasonOf(attempts, 0).contains(why), qPrintable(reasonOf(attempts, 0)));
        QVERIFY(coolingFor(f, A, QStringLiteral("openai/gpt-5.2")) > 0);
        QCOMPARE(f.engine->context().health->of(A).outcomes, 1);
        // The connection that carried it is gone, and nothing of it is held.
        QTRY_COMPARE(f.engine->context().upstream->liveCalls(), 0);
    }

    void aCapHitWithNoSharerLeftIsAnsweredInTheWiresShape()
    {
        // One sharer, whose head passes the cap: the client gets the wire's own error naming the cause.
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("claude"), {}, {QStringLiteral("claude-sonnet-5")})}));
        QByteArray bigHead = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n";
        while (bigHead.size() < 70 * 1024)
            bigHead += "x-pad: " + QByteArray(1000, 'h') + "\r\n";
        f.upstream->enqueue(FakeUpstream::rawAnswer(bigHead, true));
        const Reply r = f.post(QStringLiteral("/v1/messages"), RoutingFixture::chatBody(QStringLiteral("claude/claude-sonnet-5")));
        QCOMPARE(r.status, 503);
        QCOMPARE(r.json().value(QLatin1String("type")).toString(), QStringLiteral("error"));
        QVERIFY2(errorMessage(r).contains(QLatin1String("protocol_error")) && errorMessage(r).contains(QLatin1String("larger than 64 KiB")),
                 qPrintable(errorMessage(r)));
        QCOMPARE(outcomeOf(f.lastAttempts(), 0), QStringLiteral("protocol_error"));
        QTRY_COMPARE(f.engine->context().upstream->openConnections(), 0);
    }

    void anOversizedEventMidStreamEndsWithTheWiresError()
    {
        // After the first event the client has its answer started: the cap ends it in the wire's terms.
        RoutingFixture f;
        const QString model = QStringLiteral("claude/claude-sonnet-5");
        QVERIFY(f.start(twoSharers(QStringLiteral("claude"), QStringLiteral("claude-sonnet-5"))));
        Script s = FakeUpstream::messagesStream();
        s.events.resize(2);
        s.events.append({"event: content_block_delta\ndata: " + QByteArray(9 * 1024 * 1024, 'x'), 0});
        s.hangAfterAnswer = true;
        f.upstream->enqueueFor(A.toLatin1(), s);
        const Reply r = f.post(QStringLiteral("/v1/messages"), RoutingFixture::chatBody(model, true));
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.startsWith(QByteArray(s.events.at(0).bytes + s.events.at(1).bytes)));
        QVERIFY(r.body.contains("event: error\ndata: {\"error\":"));
        QVERIFY(r.body.contains("larger than 8 MiB"));
        QVERIFY(r.body.size() < 64 * 1024);
        QCOMPARE(f.dialled(), QStringList{A});
        QCOMPARE(outcomeOf(f.lastAttempts(), 0), QStringLiteral("protocol_error"));
        QVERIFY(coolingFor(f, A, model) > 0);
    }

    void aStreamCutBeforeItsEndEventEndsWithTheWiresError_data()
    {
        QTest::addColumn<QString>("wire");
        QTest::addColumn<bool>("chunked");
        for (const char *w : {"chat", "messages", "responses"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1, chunked").arg(QLatin1String(w)))) << QString::fromLatin1(w) << true;
            QTest::newRow(qPrintable(QStringLiteral("%1, close-delimited").arg(QLatin1String(w)))) << QString::fromLatin1(w) << false;
        }
    }

    void aStreamCutBeforeItsEndEventEndsWithTheWiresError()
    {
        // "A stream cut on any wire, chunked or close-delimited, before its end event is a failure the
        //  client can see … the attempt recorded as cut, the sharer cooled per the cut-stream rule;
        //  bytes that are not a well-formed event are never relayed as content."
        QFETCH(QString, wire);
        QFETCH(bool, chunked);
        const WireCase w = wireNamed(wire);
        RoutingFixture f;
        QVERIFY(f.start(twoSharers(providerOf(w.model), upstreamModel(w.model))));
        QList<ScriptedEvent> kept = w.stream.events.mid(0, w.keep);
        if (chunked) {
            Script s = w.stream;
            s.events = kept;
            s.events.append({PartialEvent, 0});
            s.cutBeforeEnd = true;
            f.upstream->enqueueFor(A.toLatin1(), s);
        } else {
            f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::rawAnswer(streamHead(false) + joined(kept) + PartialEvent));
        }
        const Reply r = f.post(w.path, RoutingFixture::chatBody(w.model, true));
        QCOMPARE(r.status, 200);
        QVERIFY2(r.body.startsWith(joined(kept)), r.body.left(300).constData());
        QVERIFY(!r.body.contains("PARTIAL"));
        QVERIFY2(r.body.mid(joined(kept).size()).startsWith(w.errorMark), r.body.mid(joined(kept).size()).constData());
        QCOMPARE(f.dialled(), QStringList{A});
        QCOMPARE(outcomeOf(f.lastAttempts(), 0), QStringLiteral("cut"));
        QCOMPARE(coolingFor(f, A, w.model), Health::HealthBook::CutStreamCooldownMs);
    }

    void aStreamCutBeforeItsFirstEventFailsOver_data()
    {
        QTest::addColumn<bool>("chunked");
        QTest::newRow("chunked") << true;
        QTest::newRow("close-delimited") << false;
    }

    void aStreamCutBeforeItsFirstEventFailsOver()
    {
        // "A stream that fails before its first event fails over like any pre-output failure when the
        //  client has received nothing it cannot take back."
        QFETCH(bool, chunked);
        RoutingFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        if (chunked) {
            Script s;
            s.headers.add("content-type", "text/event-stream");
            s.events = {{PartialEvent, 0}};
            s.cutBeforeEnd = true;
            f.upstream->enqueueFor(A.toLatin1(), s);
        } else {
            f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::rawAnswer(streamHead(false) + PartialEvent));
        }
        const Reply r = f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(QStringLiteral("openai/gpt-5.2"), true));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), B.toLatin1());
        QVERIFY(!r.body.contains("PARTIAL"));
        QVERIFY(r.body.contains("data: [DONE]"));
        QCOMPARE(f.dialled(), (QStringList{A, B}));
        QCOMPARE(outcomeOf(f.lastAttempts(), 0), QStringLiteral("cut"));
        QCOMPARE(outcomeOf(f.lastAttempts(), 1), QStringLiteral("served"));
        QCOMPARE(coolingFor(f, A, QStringLiteral("openai/gpt-5.2")), Health::HealthBook::CutStreamCooldownMs);
    }

    void anUpstreamThatBreaksAfterItsEndEventIsServed()
    {
        // "an upstream that ends a stream with its end event already relayed is served": the connection
        // resets after [DONE], before the body's last chunk.
        RoutingFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        Script s = FakeUpstream::chatStream();
        s.cutBeforeEnd = true;
        f.upstream->enqueueFor(A.toLatin1(), s);
        const Reply r = f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(QStringLiteral("openai/gpt-5.2"), true));
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
        QCOMPARE(outcomeOf(f.lastAttempts(), 0), QStringLiteral("served"));
        QCOMPARE(coolingFor(f, A, QStringLiteral("openai/gpt-5.2")), 0);
        QVERIFY(f.spentToday() > 0);
    }

    void aClientThatLeavesAfterTheEndEventWasServed()
    {
        // "A client that hangs up is not a failure of the sharer … whatever order the two closes arrive
        //  in": the upstream never ends its body; the client leaves once it has [DONE].
        RoutingFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        Script s = FakeUpstream::chatStream();
        s.hangAfterAnswer = true;
        f.upstream->enqueueFor(A.toLatin1(), s);
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, f.engine->port());
        QVERIFY(client.waitForConnected(2000));
        const QByteArray body = RoutingFixture::chatBody(QStringLiteral("openai/gpt-5.2"), true);
        client.write("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(f.engine->port()) + "\r\nAuthorization: Bearer "
                     + QByteArray(TestKey) + "\r\ncontent-type: application/json\r\ncontent-length: " + QByteArray::number(body.size()) + "\r\n\r\n"
                     + body);
        QByteArray got;
        QTRY_VERIFY((got += client.readAll(), got.contains("data: [DONE]\n\n")));
        client.abort();
        QTRY_COMPARE(f.upstream->disconnects(), 1);
        const QJsonArray attempts = f.lastAttempts();
        QCOMPARE(outcomeOf(attempts, 0), QStringLiteral("served"));
        QCOMPARE(f.engine->context().health->of(A).successRate, 1.0);
        QCOMPARE(coolingFor(f, A, QStringLiteral("openai/gpt-5.2")), 0);
        QVERIFY(f.spentToday() > 0);
    }

    // "Bytes that are not a well-formed event are never relayed as content": a streamed request the
    // engine has already answered with 200 and keepalives (the edge hold) gets a whole JSON body
    // from its sharer. That body is not events: the attempt fails as a protocol failure, before
    // any output, and the next sharer's stream is what the client reads.
    void aWholeBodyAfterTheEdgeHoldIsNotRelayedAsEvents()
    {
        RoutingFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        Script whole = FakeUpstream::chatCompletion(QStringLiteral("a whole body"));
        whole.headDelayMs = 30'000;
        f.upstream->enqueueFor(A.toLatin1(), whole);
        QNetworkReply *reply = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"),
                                             RoutingFixture::chatBody(QStringLiteral("openai/gpt-5.2"), true), f.auth());
        QTRY_COMPARE(f.upstream->received().size(), 1);
        f.clock.advance(25'500);
        QTRY_VERIFY(reply->hasRawHeader("x-aile-edge-hold"));
        f.clock.advance(5'000);
        const Reply r = AsyncClient::wait(reply);
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.startsWith(": keepalive\n\n"));
        QVERIFY2(!r.body.contains("a whole body") && !r.body.contains("\"chat.completion\""), r.body.constData());
        QVERIFY2(r.body.endsWith("data: [DONE]\n\n"), r.body.constData());
        const QJsonArray attempts = f.lastAttempts();
        QCOMPARE(attempts.size(), 2);
        QCOMPARE(outcomeOf(attempts, 0), QStringLiteral("protocol_error"));
        QVERIFY2(reasonOf(attempts, 0).contains(QLatin1String("whole body")), qPrintable(reasonOf(attempts, 0)));
        QCOMPARE(outcomeOf(attempts, 1), QStringLiteral("served"));
    }
};

QTEST_GUILESS_MAIN(TestHostileUpstream)
#include "TestHostileUpstream.moc"
