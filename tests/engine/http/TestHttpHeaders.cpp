// Header lookups: by any spelling of the name, from a literal, a QByteArray or a built name,
// without changing what is stored (names lower case, values byte for byte).
#include "http/HttpHeaders.h"

#include <QtTest/QtTest>

using Aile::Http::HttpHeaders;

class TestHttpHeaders : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lookupsIgnoreTheCaseOfTheName_data()
    {
        QTest::addColumn<QByteArray>("asked");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<int>("count");
        QTest::newRow("lower case") << QByteArray("x-api-key") << QByteArray("Key One") << 2;
        QTest::newRow("mixed case") << QByteArray("X-Api-Key") << QByteArray("Key One") << 2;
        QTest::newRow("a longer name with the same start") << QByteArray("x-api-key-2") << QByteArray() << 0;
        QTest::newRow("a shorter name") << QByteArray("x-api") << QByteArray() << 0;
        QTest::newRow("absent") << QByteArray("authorization") << QByteArray() << 0;
    }

    void lookupsIgnoreTheCaseOfTheName()
    {
        QFETCH(QByteArray, asked);
        QFETCH(QByteArray, value);
        QFETCH(int, count);
        HttpHeaders h;
        h.add("X-API-Key", "Key One");
        h.add("Content-Type", "application/json");
        h.addLowerCase(QByteArray("x-api-key"), QByteArray("key two"));
        QCOMPARE(h.value(asked), value);
        QCOMPARE(h.has(asked), count > 0);
        QCOMPARE(h.values(asked).size(), count);
        QCOMPARE(h.entries().first().first, QByteArray("x-api-key")); // stored lower case
    }

    void literalAndBuiltNamesFindTheSameHeader()
    {
        HttpHeaders h;
        h.add("anthropic-ratelimit-unified-status", "allowed");
        const QByteArray prefix = "anthropic-ratelimit-unified-";
        QCOMPARE(h.value("anthropic-ratelimit-unified-status"), QByteArray("allowed"));
        QCOMPARE(h.value(prefix + "status"), QByteArray("allowed"));
        QVERIFY(h.has("Anthropic-Ratelimit-Unified-Status"));
        h.remove(prefix + "STATUS");
        QVERIFY(h.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestHttpHeaders)
#include "TestHttpHeaders.moc"
