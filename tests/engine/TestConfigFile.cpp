// The configuration file: .jsonc comments, binding names, clear errors.
#include "config/ConfigFile.h"

#include <QtTest/QtTest>

using namespace Aile::Config;

class TestConfigFile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsTheDocumentedExample()
    {
        QFile f(QFINDTESTDATA("data/example.jsonc"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QString error;
        const auto cfg = ConfigFile::parse(text, &error);
        QVERIFY2(cfg, qPrintable(error));
        QCOMPARE(cfg->adminToken, QStringLiteral("env:AILE_ADMIN_TOKEN"));
        QCOMPARE(cfg->providers.size(), 1);
        QVERIFY(!cfg->providers.first().builtIn);
        QCOMPARE(cfg->sharers.size(), 1);
        QCOMPARE(cfg->sharers.first().handle, QStringLiteral("L0123456789abcdef")); // read in any case
        QCOMPARE(cfg->sharers.first().slots, 4);
        QCOMPARE(cfg->keys.first().routing.value(QLatin1String("provider")).toString(), QStringLiteral("claude"));
    }

    void aSharerWithoutAHandleKeepsTheSameOneAcrossRestarts()
    {
        const QByteArray text = "{\"sharers\": [{\"provider\": \"openai\", \"name\": \"work\"}, {\"provider\": \"openai\", \"name\": \"home\"}]}";
        const auto first = ConfigFile::parse(text, nullptr);
        const auto again = ConfigFile::parse(text, nullptr);
        QVERIFY(first && again);
        QCOMPARE(first->sharers.at(0).handle, again->sharers.at(0).handle);
        QVERIFY(first->sharers.at(0).handle != first->sharers.at(1).handle);
        QCOMPARE(Aile::Catalog::normalizeHandle(first->sharers.at(0).handle), first->sharers.at(0).handle);
    }

    void commentMarkersInsideStringsStay()
    {
        QFile f(QFINDTESTDATA("data/comment-markers.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        const auto cfg = ConfigFile::parse(text, nullptr);
        QVERIFY(cfg);
        QCOMPARE(cfg->sharers.first().baseUrl, QStringLiteral("http://h//x"));
        QVERIFY(cfg->sharers.first().name.endsWith(QLatin1String("b */")));
    }

    void errorsNameTheCauseAndTheFix_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("syntax") << QByteArray("{\n \"sharers\": [\n}") << "line 3";
        QTest::newRow("unknown entry") << QByteArray("{\"sharer\": []}") << "unknown top-level entry \"sharer\"";
        QTest::newRow("bad handle") << QByteArray("{\"sharers\": [{\"handle\": \"X1\", \"provider\": \"openai\"}]}") << "L followed by 16 hex";
        QTest::newRow("plain secret") << QByteArray("{\"sharers\": [{\"provider\": \"openai\", \"credential\": \"sk-live-123\"}]}") << "never the secret itself";
        QTest::newRow("bad url") << QByteArray("{\"sharers\": [{\"provider\": \"openai\", \"baseUrl\": \"ftp://x\"}]}") << "http:// or https://";
        QTest::newRow("short key") << QByteArray("{\"keys\": [{\"name\": \"a\", \"key\": \"short\"}]}") << "at least 16";
    }

    void errorsNameTheCauseAndTheFix()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        QString error;
        QVERIFY(!ConfigFile::parse(text, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestConfigFile)
#include "TestConfigFile.moc"
