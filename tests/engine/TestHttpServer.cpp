// The inbound HTTP/1.1 listener: keep-alive, chunked bodies, limits, the security baseline.
#include "testsupport/BasicEngine.h"

#include <QtCore/QJsonDocument>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

using namespace Aile;
using namespace Aile::Test;

class TestHttpServer : public QObject
{
    Q_OBJECT

private:
    ManualClock m_clock;
    std::unique_ptr<FakeUpstream> m_upstream;
    std::unique_ptr<TestEngine> m_engine;

    QByteArray host() const { return "127.0.0.1:" + QByteArray::number(m_engine->port()); }
    QByteArray chatRequest(const QByteArray &extraHeaders = {}, const QByteArray &hostValue = {}) const
    {
        const QByteArray body = R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}]})";
        return "POST /v1/chat/completions HTTP/1.1\r\nHost: " + (hostValue.isEmpty() ? host() : hostValue) + "\r\nAuthorization: Bearer " + TestKey
               + "\r\nContent-Type: application/json\r\n" + extraHeaders + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
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

    void keepAliveServesSeveralRequestsOnOneConnection()
    {
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, m_engine->port());
        QVERIFY(s.waitForConnected(2000));
        for (int i = 0; i < 3; ++i) {
            s.write(chatRequest());
            QByteArray got;
            QTRY_VERIFY_WITH_TIMEOUT((got += s.readAll(), got.contains("chatcmpl-fake1") && got.endsWith("}}")), 5000);
            QVERIFY(got.startsWith("HTTP/1.1 200 OK"));
            QVERIFY(!got.toLower().contains("connection: close"));
        }
        QCOMPARE(s.state(), QAbstractSocket::ConnectedState);
        QCOMPARE(m_upstream->received().size(), 3);
    }

    void chunkedRequestBodyIsAccepted()
    {
        const QByteArray body = R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}]})";
        const QByteArray req = "POST /v1/chat/completions HTTP/1.1\r\nHost: " + host() + "\r\nAuthorization: Bearer " + TestKey
                               + "\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + QByteArray::number(10, 16) + "\r\n" + body.left(10)
                               + "\r\n" + QByteArray::number(body.size() - 10, 16) + "\r\n" + body.mid(10) + "\r\n0\r\n\r\n";
        const QByteArray got = rawExchange(m_engine->port(), req);
        QVERIFY2(got.startsWith("HTTP/1.1 200"), got.constData());
        QCOMPARE(m_upstream->received().first().json().value(QLatin1String("model")).toString(), QStringLiteral("gpt-5.2"));
    }

    void expectContinueIsAnswered()
    {
        const QByteArray got = rawExchange(m_engine->port(), chatRequest("Expect: 100-continue\r\nConnection: close\r\n"));
        QVERIFY(got.startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200"));
    }

    void foreignHostIsRefused_data()
    {
        QTest::addColumn<QByteArray>("hostValue");
        QTest::addColumn<int>("status");
        QTest::newRow("rebinding name") << QByteArray("evil.example:2453") << 403;
        QTest::newRow("right name, wrong port") << QByteArray("127.0.0.1:1") << 403;
        QTest::newRow("localhost") << QByteArray("localhost:PORT") << 200;
    }

    void foreignHostIsRefused()
    {
        QFETCH(QByteArray, hostValue);
        QFETCH(int, status);
        hostValue.replace("PORT", QByteArray::number(m_engine->port()));
        const QByteArray got = rawExchange(m_engine->port(), chatRequest("Connection: close\r\n", hostValue));
        QVERIFY2(got.startsWith(QByteArray(QByteArray("HTTP/1.1 ") + QByteArray::number(status))), got.constData());
        if (status == 403) {
            QVERIFY(got.contains("DNS-rebinding"));
            QVERIFY(m_upstream->received().isEmpty());
        }
    }

    void browserOriginIsRefusedAndNoWildcardCors()
    {
        const QByteArray got = rawExchange(m_engine->port(), chatRequest("Origin: https://evil.example\r\nConnection: close\r\n"));
        QVERIFY2(got.startsWith("HTTP/1.1 403"), got.constData());
        QVERIFY(got.contains("allowedOrigins"));
        QVERIFY(!got.toLower().contains("access-control-allow-origin"));
        QVERIFY(m_upstream->received().isEmpty());
    }

    void oversizedHeadersGet431()
    {
        const QByteArray big = "X-Filler: " + QByteArray(70 * 1024, 'a') + "\r\n";
        const QByteArray got = rawExchange(m_engine->port(), chatRequest(big));
        QVERIFY2(got.startsWith("HTTP/1.1 431"), got.left(200).constData());
        QVERIFY(got.contains("64 KiB"));
    }

    void oversizedBodyGets413()
    {
        const QByteArray req = "POST /v1/chat/completions HTTP/1.1\r\nHost: " + host() + "\r\nAuthorization: Bearer " + TestKey
                               + "\r\nContent-Length: " + QByteArray::number(40 * 1024 * 1024) + "\r\n\r\n{";
        const QByteArray got = rawExchange(m_engine->port(), req);
        QVERIFY2(got.startsWith("HTTP/1.1 413"), got.left(200).constData());
        QVERIFY(got.contains("32 MiB"));
    }

    void slowHeadersAreClosedAfterTenSeconds()
    {
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, m_engine->port());
        QVERIFY(s.waitForConnected(2000));
        s.write("POST /v1/chat/completions HTTP/1.1\r\nHost: ");
        s.flush();
        QTest::qWait(50); // let the engine read the partial head (real sockets, no timing assertion)
        m_clock.advance(9'000);
        QCOMPARE(s.state(), QAbstractSocket::ConnectedState);
        m_clock.advance(1'500);
        QTRY_COMPARE_WITH_TIMEOUT(s.state(), QAbstractSocket::UnconnectedState, 5000);
    }

    void malformedRequestGets400()
    {
        const QByteArray got = rawExchange(m_engine->port(), "GARBAGE\r\n\r\n");
        QVERIFY2(got.startsWith("HTTP/1.1 400"), got.constData());
    }

    void invalidJsonBodyGets400InTheWiresShape()
    {
        const QByteArray req =
            "POST /v1/messages HTTP/1.1\r\nHost: " + host() + "\r\nx-api-key: " + TestKey + "\r\nConnection: close\r\nContent-Length: 5\r\n\r\n{nope";
        const QByteArray got = rawExchange(m_engine->port(), req);
        QVERIFY2(got.startsWith("HTTP/1.1 400"), got.constData());
        QVERIFY(got.contains("\"type\":\"error\""));
        QVERIFY(got.contains("not a JSON object"));
    }

    void authorizationNeverReachesTheTrace()
    {
        rawExchange(m_engine->port(), chatRequest("Connection: close\r\n"));
        const Reply r = send(QStringLiteral("GET"), m_engine->baseUrl() + QStringLiteral("/keys/usage/requests"), {},
                             {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(r.status, 200);
        QVERIFY(!r.body.contains(TestKey));
        QVERIFY(!r.body.contains("upstream-secret-value"));
    }
};

QTEST_GUILESS_MAIN(TestHttpServer)
#include "TestHttpServer.moc"
