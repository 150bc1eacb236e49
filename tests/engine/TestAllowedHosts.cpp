// Issue 14: allowRemote opens the listener, never the Host check. Names other than loopback are
// answered only when settings.allowedHosts lists them (docs/configuration.md).
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtTest/QtTest>

using namespace Aile;
using namespace Aile::Test;

class TestAllowedHosts : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<FakeUpstream> m_upstream;
    std::unique_ptr<TestEngine> m_engine;

    QByteArray health(const QByteArray &host)
    {
        // Raw bytes: the Host header is what the test is about.
        return rawExchange(m_engine->port(),
                           "GET /v1/models HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + TestKey + "\r\nConnection: close\r\n\r\n");
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_upstream = std::make_unique<FakeUpstream>();
        QVERIFY(m_upstream->listen());
        QJsonObject config = basicConfig(m_upstream->baseUrl());
        config.insert(QStringLiteral("settings"),
                      QJsonObject{{QStringLiteral("allowRemote"), true},
                                  {QStringLiteral("allowedHosts"), QJsonArray{QStringLiteral("aile.lan"), QStringLiteral("10.0.0.5:8443")}}});
        m_engine = std::make_unique<TestEngine>(config);
        QVERIFY(m_engine->start());
    }

    void onlyListedHostsAreAnswered_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<int>("status");
        QTest::newRow("a listed name on this port") << QByteArray("aile.lan:PORT") << 200;
        QTest::newRow("a listed name, any case") << QByteArray("AILE.lan:PORT") << 200;
        QTest::newRow("a listed name on another port") << QByteArray("aile.lan:1") << 403;
        QTest::newRow("a listed name:port") << QByteArray("10.0.0.5:8443") << 200;
        QTest::newRow("loopback still") << QByteArray("localhost:PORT") << 200;
        // With allowRemote on, the check used to be off: any name was answered.
        QTest::newRow("a rebinding name") << QByteArray("evil.example:PORT") << 403;
        // Near misses of the in-place "name:port" compare (ApiRouter::hostAllowed).
        QTest::newRow("IPv6 loopback") << QByteArray("[::1]:PORT") << 200;
        QTest::newRow("loopback on another port") << QByteArray("127.0.0.1:1") << 403;
        QTest::newRow("the port with a digit more") << QByteArray("localhost:PORT0") << 403;
        QTest::newRow("loopback without a port (not port 80)") << QByteArray("localhost") << 403;
        QTest::newRow("a dot for the colon") << QByteArray("localhost.PORT") << 403;
        QTest::newRow("a prefix of a listed name") << QByteArray("aile.la:PORT") << 403;
        QTest::newRow("a listed name:port, another port") << QByteArray("10.0.0.5:8444") << 403;
    }
    void onlyListedHostsAreAnswered()
    {
        QFETCH(QByteArray, host);
        QFETCH(int, status);
        host.replace("PORT", QByteArray::number(m_engine->port()));
        const QByteArray got = health(host);
        QVERIFY2(got.startsWith(QByteArray(QByteArray("HTTP/1.1 ") + QByteArray::number(status))), got.constData());
        if (status == 403)
            QVERIFY2(got.contains("settings.allowedHosts"), got.constData());
    }
};

QTEST_GUILESS_MAIN(TestAllowedHosts)
#include "TestAllowedHosts.moc"
