// The configuration file: .jsonc comments, binding names, clear errors.
#include "config/ConfigFile.h"

#include <QtCore/QJsonDocument>
#include <QtTest/QtTest>

using namespace Aile::Config;

class TestConfigFile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsTheDocumentedExample()
    {
        QFile f(QStringLiteral(AILE_TEST_SOURCE_DIR "/data/example.jsonc"));
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
        QFile f(QStringLiteral(AILE_TEST_SOURCE_DIR "/data/comment-markers.json"));
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
        QTest::newRow("unknown entry") << QByteArray("{\"sharer\": []}") << "\"sharer\" is not a top-level entry of the configuration";
        QTest::newRow("bad handle") << QByteArray("{\"sharers\": [{\"handle\": \"X1\", \"provider\": \"openai\"}]}") << "L followed by 16 hex";
        QTest::newRow("plain secret") << QByteArray("{\"sharers\": [{\"provider\": \"openai\", \"credential\": \"sk-live-123\"}]}")
                                      << "never the secret itself";
        QTest::newRow("bad url") << QByteArray("{\"sharers\": [{\"provider\": \"openai\", \"baseUrl\": \"ftp://x\"}]}") << "http:// or https://";
        QTest::newRow("twice") << QByteArray("{\"settings\": {\"maxDials\": 2,\n \"maxDials\": 3}}")
                               << "line 2, column 2: \"maxDials\" is given twice in the same object (first on line 1, column 15)";
        QTest::newRow("place after a comment") << QByteArray("{ /* a\n b */ \"sharers\": 1 // c\n}")
                                               << "line 2, column 7: \"sharers\" must be a list, not 1";
        QTest::newRow("short key") << QByteArray("{\"keys\": [{\"name\": \"a\", \"key\": \"short\"}]}") << "at least 16";
        QTest::newRow("store not a server") << QByteArray("{\"store\": \"/var/lib/aile/aile.db\"}")
                                            << "\"store\" takes a postgresql://user@host:port/database URL";
    }

    void errorsNameTheCauseAndTheFix()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        QString error;
        QVERIFY(!ConfigFile::parse(text, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void everyProblemIsListedNotOnlyTheFirst()
    {
        const ConfigFile cfg = ConfigFile::read("{\"sharers\": [{\"provider\": \"openai\", \"slots\": -1, \"colour\": 1}],\n"
                                                " \"settings\": {\"maxDials\": 0}, \"extra\": 1}");
        QCOMPARE(cfg.problems.size(), 4);
        const QStringList lines = cfg.describe(cfg.problems, QStringLiteral("f.jsonc"));
        QVERIFY2(lines.contains(QStringLiteral("f.jsonc:2:15: settings: \"maxDials\" must be a whole number from 1 to 16, not 0")),
                 qPrintable(lines.join(QLatin1Char('\n'))));
    }

    void stripsCommentsKeepingEveryOffset()
    {
        const QByteArray text = "{\"a\": \"//x\", /* b */ \"c\": [1,], // d\n \"e\": 2,}";
        const QByteArray clean = stripJsonc(text);
        QCOMPARE(clean.size(), text.size());
        QCOMPARE(clean.indexOf("\"e\""), text.indexOf("\"e\""));
        QVERIFY(clean.contains("\"//x\""));
        QVERIFY(!QJsonDocument::fromJson(clean).isNull());
    }
};

QTEST_GUILESS_MAIN(TestConfigFile)
#include "TestConfigFile.moc"
