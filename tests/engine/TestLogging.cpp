// The log the desktop app writes to a file and aile serve to stderr: the line's two forms, the
// level rules, and the file's rotation and mode.
#include "log/AccessLog.h"
#include "log/AccessLogQueue.h"
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

    // A log file in a folder of its own, installed for one test.
    struct LogFile
    {
        QTemporaryDir dir;
        QString path = dir.filePath(QStringLiteral("aile.log"));
        bool installed = Log::install(options(), nullptr);
        ~LogFile() { Log::uninstall(); }
        Log::Options options() const
        {
            Log::Options o;
            o.filePath = path;
            return o;
        }
    };

    static QList<Store::TraceRecord> traces(int first, int count)
    {
        QList<Store::TraceRecord> out;
        for (int i = first; i < first + count; ++i) {
            Store::TraceRecord t;
            t.id = QStringLiteral("req_%1").arg(i);
            t.status = 200;
            out << t;
        }
        return out;
    }
    static QStringList ids(int first, qsizetype count)
    {
        QStringList out;
        for (int i = first; i < first + count; ++i)
            out << QStringLiteral("req_%1").arg(i);
        return out;
    }
    // The ids of the access lines in the log file, in the order they were written.
    static QStringList accessIds(const QString &path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return {};
        QStringList out;
        static const QRegularExpression id(QStringLiteral(" aile\\.access: id=(\\S+) "));
        for (const QByteArray &line : file.readAll().split('\n'))
            if (const QRegularExpressionMatch m = id.match(QString::fromUtf8(line)); m.hasMatch())
                out << m.captured(1);
        return out;
    }

private Q_SLOTS:
    void aTextLineHasTimeLevelCategoryAndMessage()
    {
        QCOMPARE(Log::formatLine(Log::Format::Text, QtInfoMsg, "aile.engine", QStringLiteral("stopped"), 0),
                 QStringLiteral("1970-01-01T00:00:00.000Z INFO    aile.engine: stopped"));
    }

    // The prefix of a batch's lines, its date formatted once per second and its milliseconds in
    // place (docs/performance.md "Change 13 (record)"), is formatLine's.
    void aLinePrefixIsTheTextFormsPrefix_data()
    {
        QTest::addColumn<qint64>("nowMs");
        QTest::addColumn<int>("type");
        QTest::addColumn<QByteArray>("category");
        const qint64 t = 1796119200000; // 2026-12-01T09:20:00.000Z
        QTest::newRow("a second's start") << t << int(QtInfoMsg) << QByteArray("aile.access");
        QTest::newRow("its milliseconds") << t + 7 << int(QtInfoMsg) << QByteArray("aile.access");
        QTest::newRow("more of them") << t + 123 << int(QtInfoMsg) << QByteArray("aile.access");
        QTest::newRow("its last") << t + 999 << int(QtInfoMsg) << QByteArray("aile.access");
        QTest::newRow("the next second") << t + 1040 << int(QtInfoMsg) << QByteArray("aile.access");
        QTest::newRow("another level") << t + 1041 << int(QtWarningMsg) << QByteArray("aile.access");
        QTest::newRow("another category") << t + 1042 << int(QtWarningMsg) << QByteArray("aile.health");
        QTest::newRow("an earlier second") << t - 1 << int(QtWarningMsg) << QByteArray("aile.health");
        QTest::newRow("the epoch") << qint64(0) << int(QtInfoMsg) << QByteArray("aile.access");
    }
    void aLinePrefixIsTheTextFormsPrefix()
    {
        QFETCH(qint64, nowMs);
        QFETCH(int, type);
        QFETCH(QByteArray, category);
        QCOMPARE(Log::textPrefix(QtMsgType(type), category.constData(), nowMs),
                 Log::formatLine(Log::Format::Text, QtMsgType(type), category.constData(), QString(), nowMs).toUtf8());
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

    // The access line is written in UTF-8 field by field (docs/performance.md "Change 13 (record)"):
    // each value as logfmtValue writes it, "-" when empty.
    void anAccessLineWritesEachValueAsLogfmtDoes_data() { aLogfmtValueIsBareOnlyWhenPlain_data(); }
    void anAccessLineWritesEachValueAsLogfmtDoes()
    {
        QFETCH(QString, value);
        QFETCH(QString, written);
        Store::TraceRecord t;
        t.keyName = value;
        t.sharerName = value;
        t.costUsd = 1234.5;
        const QString expected = QStringLiteral("id=- key=%1 endpoint=- asked=- served=- sharer=%1 status=0 attempts=0 ms=0 cost=1234.500000")
                                     .arg(value.isEmpty() ? QStringLiteral("-") : written);
        QCOMPARE(Log::accessLine(t), expected);
        QByteArray bytes("before ");
        Log::appendAccessLine(bytes, t);
        QCOMPARE(bytes, "before " + expected.toUtf8());
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

    // The access log's lines a slice per event-loop turn (docs/performance.md "Change 13 (record)"):
    // none at once, every line once and in order across batches, the rest at flush.
    void accessLinesGoOutASliceAtATimeInOrder()
    {
        const LogFile log;
        QVERIFY(log.installed);
        Log::AccessLogQueue queue;
        queue.append(traces(0, 100));
        queue.append(traces(100, 10));
        QCOMPARE(queue.pending(), 110);
        QCOMPARE(accessIds(log.path), QStringList()); // nothing on the publish's own turn
        QCoreApplication::sendPostedEvents(&queue, QEvent::MetaCall); // one turn: one slice
        QCOMPARE(accessIds(log.path), ids(0, Log::AccessLogQueue::SliceLines));
        QCOMPARE(queue.pending(), 110 - Log::AccessLogQueue::SliceLines);
        QTRY_COMPARE(queue.pending(), 0);
        QCOMPARE(accessIds(log.path), ids(0, 110));
    }

    void stoppingWritesTheLinesLeft()
    {
        const LogFile log;
        QVERIFY(log.installed);
        {
            Log::AccessLogQueue queue;
            queue.append(traces(0, 70));
            QCoreApplication::sendPostedEvents(&queue, QEvent::MetaCall);
            queue.append(traces(70, 5));
            queue.flush(); // Engine::stop
            QCOMPARE(queue.pending(), 0);
            QCOMPARE(accessIds(log.path), ids(0, 75));
            queue.append(traces(75, 40));
        } // and a queue destroyed with lines left writes them
        QCOMPARE(accessIds(log.path), ids(0, 115));
    }

    // A window keeps its copy of a batch while the queue writes and frees its own records.
    void aBatchSharedWithAWindowStaysWhole()
    {
        const LogFile log;
        QVERIFY(log.installed);
        const QList<Store::TraceRecord> windowCopy = traces(0, 50);
        Log::AccessLogQueue queue;
        queue.append(windowCopy);
        queue.flush();
        QCOMPARE(windowCopy.size(), 50);
        QCOMPARE(windowCopy.last().id, QStringLiteral("req_49"));
        QCOMPARE(accessIds(log.path), ids(0, 50));
    }

    void nothingIsQueuedWhenTheAccessLogIsOff()
    {
        QLoggingCategory::setFilterRules(Log::filterRules(Log::Level::Warning)); // aile.access is off
        Log::AccessLogQueue queue;
        queue.append(traces(0, 10));
        QCOMPARE(queue.pending(), 0);
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
