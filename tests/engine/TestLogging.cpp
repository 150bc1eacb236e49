// The log the desktop app writes to a file and aile serve to stderr: the line's two forms, the
// level rules, and the file's rotation and mode.
#include "log/AccessLog.h"
#include "log/Logging.h"

#include <QtCore/QFile>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QLoggingCategory>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

Q_LOGGING_CATEGORY(lcLogTest, "aile.logtest")

using namespace Aile;

class TestLogging : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aTextLineHasTimeLevelCategoryAndMessage()
    {
        QCOMPARE(Log::formatLine(Log::Format::Text, QtInfoMsg, "aile.engine", QStringLiteral("stopped"), 0),
                 QStringLiteral("1970-01-01T00:00:00.000Z INFO    aile.engine: stopped"));
    }

    void aJsonAccessLineCarriesItsFields()
    {
        Store::TraceRecord t;
        t.id = QStringLiteral("req_1");
        t.keyName = QStringLiteral("my laptop");
        t.endpoint = QStringLiteral("/v1/messages");
        t.modelAsked = QStringLiteral("claude/claude-sonnet-5");
        t.modelServed = QStringLiteral("claude/claude-sonnet-5");
        t.sharerName = QStringLiteral("say \"hi\"");
        t.status = 200;
        t.attempts = 2;
        t.durationMs = 42;
        t.costUsd = 0.0125;
        const QJsonObject o =
            QJsonDocument::fromJson(Log::formatLine(Log::Format::Json, QtInfoMsg, "aile.access", Log::accessLine(t), 0).toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("level")).toString(), QStringLiteral("info"));
        QCOMPARE(o.value(QLatin1String("key")).toString(), QStringLiteral("my laptop"));
        QCOMPARE(o.value(QLatin1String("sharer")).toString(), QStringLiteral("say \"hi\""));
        QCOMPARE(o.value(QLatin1String("status")).toInt(), 200);
        QCOMPARE(o.value(QLatin1String("attempts")).toInt(), 2);
        QCOMPARE(o.value(QLatin1String("cost")).toDouble(), 0.0125);
        QVERIFY(!o.contains(QLatin1String("message")));
    }

    // A value is bare only when it is one plain word; ASCII is judged without Unicode's tables
    // (docs/performance.md "Change 2 (writer)"), other characters by them, as before.
    void aLogfmtValueIsBareOnlyWhenPlain_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("written");
        QTest::newRow("a word") << QStringLiteral("openai/gpt-5.2") << QStringLiteral("openai/gpt-5.2");
        QTest::newRow("accents") << QStringLiteral("\u00e9quipe") << QStringLiteral("\u00e9quipe");
        QTest::newRow("empty") << QString() << QStringLiteral("\"\"");
        QTest::newRow("a space") << QStringLiteral("my laptop") << QStringLiteral("\"my laptop\"");
        QTest::newRow("a quote") << QStringLiteral("say \"hi\"") << QStringLiteral("\"say \\\"hi\\\"\"");
        QTest::newRow("an equals sign") << QStringLiteral("a=b") << QStringLiteral("\"a=b\"");
        QTest::newRow("a backslash") << QStringLiteral("a\\b") << QStringLiteral("\"a\\\\b\"");
        QTest::newRow("a tab") << QStringLiteral("a\tb") << QStringLiteral("\"a b\"");
        QTest::newRow("a control character") << QStringLiteral("a\u0001b") << QStringLiteral("\"a b\"");
        QTest::newRow("delete") << QStringLiteral("a\u007fb") << QStringLiteral("\"a b\"");
        QTest::newRow("a C1 control") << QStringLiteral("a\u0085b") << QStringLiteral("\"a b\"");
        QTest::newRow("a no-break space") << QStringLiteral("a\u00a0b") << QStringLiteral("\"a\u00a0b\"");
    }
    void aLogfmtValueIsBareOnlyWhenPlain()
    {
        QFETCH(QString, value);
        QFETCH(QString, written);
        QCOMPARE(Log::logfmtValue(value), written);
    }

    void anAccessLineIsItsFieldsInOrder()
    {
        Store::TraceRecord t;
        t.id = QStringLiteral("req_1");
        t.keyName = QStringLiteral("my laptop");
        t.endpoint = QStringLiteral("/v1/chat/completions");
        t.modelAsked = QStringLiteral("openai/gpt-5.2");
        t.sharer = QStringLiteral("L0000000000000001");
        t.status = 502;
        t.attempts = 3;
        t.durationMs = 1234;
        t.costUsd = 0.0125;
        QCOMPARE(Log::accessLine(t), QStringLiteral("id=req_1 key=\"my laptop\" endpoint=/v1/chat/completions asked=openai/gpt-5.2 served=-"
                                                    " sharer=L0000000000000001 status=502 attempts=3 ms=1234 cost=0.012500"));
    }

    void levelsLetThroughWhatIsAtOrAbove()
    {
        QVERIFY(Log::filterRules(Log::Level::Warning).contains(QLatin1String("aile.*.info=false")));
        QVERIFY(Log::filterRules(Log::Level::Info).contains(QLatin1String("aile.*.info=true")));
        QVERIFY(Log::filterRules(Log::Level::Info).contains(QLatin1String("aile.*.debug=false")));
        QVERIFY(!Log::parseLevel(QStringLiteral("loud")));
        QVERIFY(!Log::parseFormat(QStringLiteral("xml")));
    }

    void aBatchOfAccessLinesIsWrittenWholeInOrder()
    {
        QTemporaryDir dir;
        Log::Options options;
        options.filePath = dir.filePath(QStringLiteral("aile.log"));
        QVERIFY(Log::install(options, nullptr));
        QList<Store::TraceRecord> traces;
        for (int i = 0; i < 3; ++i) {
            Store::TraceRecord t;
            t.id = QStringLiteral("req_%1").arg(i);
            t.keyName = QStringLiteral("laptop");
            t.status = 200;
            traces << t;
        }
        Log::logAccess(traces);
        Log::uninstall();
        QFile file(options.filePath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QVERIFY2(lines.at(i).contains(QByteArray("aile.access: id=req_" + QByteArray::number(i) + " key=laptop")), lines.at(i).constData());
            QVERIFY(lines.at(i).contains("status=200"));
            QVERIFY2(QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z INFO    aile\\.access: id="))
                         .match(QString::fromUtf8(lines.at(i)))
                         .hasMatch(),
                     lines.at(i).constData());
        }
    }

    void theFileRotatesAndIsReadableOnlyByItsOwner()
    {
        QTemporaryDir dir;
        Log::Options options;
        options.filePath = dir.filePath(QStringLiteral("state/aile.log"));
        options.maxFileBytes = 1000;
        options.keepFiles = 2;
        QVERIFY(Log::install(options, nullptr));
        for (int i = 0; i < 100; ++i)
            qCInfo(lcLogTest).noquote() << QStringLiteral("line %1 of a log that outgrows its file").arg(i);
        Log::uninstall();
        QVERIFY(QFile::exists(options.filePath));
        QVERIFY(QFile::exists(options.filePath + QStringLiteral(".1")));
        QVERIFY(QFile::exists(options.filePath + QStringLiteral(".2")));
        QVERIFY(!QFile::exists(options.filePath + QStringLiteral(".3")));
        QVERIFY(QFileInfo(options.filePath).size() <= options.maxFileBytes + 200);
        QCOMPARE(QFile::permissions(options.filePath) & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());
        QFile last(options.filePath);
        QVERIFY(last.open(QIODevice::ReadOnly));
        QVERIFY(last.readAll().contains("line 99 of a log"));
    }
};

QTEST_GUILESS_MAIN(TestLogging)
#include "TestLogging.moc"
