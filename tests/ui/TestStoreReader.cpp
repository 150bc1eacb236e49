// The GUI thread never runs SQL: the traces table, the detail pane's attempts and the charts
// read through the StoreReader, whose queries run on its own thread and whose answers come back
// as values to the GUI thread.
#include "ReadWait.h"
#include "charts/ChartsView.h"
#include "store/Store.h"
#include "store/StoreReader.h"
#include "traces/TraceTableModel.h"

#include <QtCharts/QChart>
#include <QtCore/QMutex>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace Aile;

namespace {

constexpr qint64 Base = 1'780'000'000'000;

Store::TraceRecord makeTrace(int i)
{
    Store::TraceRecord t;
    t.id = QStringLiteral("req_%1").arg(i, 6, 10, QLatin1Char('0'));
    t.startedMs = Base + qint64(i) * 1000;
    t.keyId = QStringLiteral("k_1");
    t.modelAsked = t.modelServed = QStringLiteral("openai/gpt-5.2");
    t.sharer = QStringLiteral("L00000000000000a1");
    t.sharerName = QStringLiteral("openai-one");
    t.status = 200;
    t.attempts = 1;
    t.ttfbMs = 300;
    t.durationMs = 900;
    Store::AttemptRecord a;
    a.seq = 1;
    a.sharer = t.sharer;
    a.status = 200;
    a.outcome = QStringLiteral("served");
    a.startedMs = t.startedMs;
    t.attemptRows = {a};
    return t;
}

/// Which threads the reader's queries ran on, by name.
struct Ran
{
    QMultiHash<QString, Qt::HANDLE> threads;
    explicit Ran(Store::StoreReader *reader)
    {
        // Direct: recorded on the reader's thread itself, as it runs the query.
        m_connection = QObject::connect(
            reader, &Store::StoreReader::ran, reader,
            [this](const QString &what, Qt::HANDLE thread) {
                const QMutexLocker lock(&mutex);
                threads.insert(what, thread);
            },
            Qt::DirectConnection);
    }
    QList<Qt::HANDLE> of(const QString &what)
    {
        const QMutexLocker lock(&mutex);
        return threads.values(what);
    }
    ~Ran() { QObject::disconnect(m_connection); }
    QMutex mutex;
    QMetaObject::Connection m_connection;
};

} // namespace

class TestStoreReader : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_path;

private Q_SLOTS:
    void initTestCase()
    {
        m_path = m_dir.filePath(QStringLiteral("aile.db"));
        Store::Store writer(m_path);
        QVERIFY(writer.open(nullptr));
        QList<Store::TraceRecord> traces;
        for (int i = 0; i < 1000; ++i)
            traces.append(makeTrace(i));
        QVERIFY(writer.record(traces, {}));
    }

    void aQueryRunsOnTheReadersThreadAndItsAnswerOnTheGuiThread()
    {
        const auto reader = Test::openedReader(m_path);
        QVERIFY(reader);
        Ran ran(reader.get());
        Qt::HANDLE queriedOn = nullptr;
        QThread *answeredOn = nullptr;
        std::optional<int> count;
        reader->read<int>(
            "count",
            [&queriedOn](const Store::Store &store) {
                queriedOn = QThread::currentThreadId();
                return store.traceCount({});
            },
            this,
            [&](int n) {
                answeredOn = QThread::currentThread();
                count = n;
            });
        QVERIFY(!count.has_value()); // nothing answered before the event loop runs
        QTRY_VERIFY(count.has_value());
        QCOMPARE(*count, 1000);
        QVERIFY(queriedOn != nullptr);
        QVERIFY(queriedOn != QThread::currentThreadId());
        QCOMPARE(ran.of(QStringLiteral("count")), QList<Qt::HANDLE>{queriedOn});
        QCOMPARE(answeredOn, QThread::currentThread());
    }

    void theTracesTableIsFilledAsynchronouslyOffTheGuiThread()
    {
        const auto reader = Test::openedReader(m_path);
        QVERIFY(reader);
        Ran ran(reader.get());
        Ui::TraceTableModel model;
        QSignalSpy loaded(&model, &Ui::TraceTableModel::pageLoaded);
        model.setReader(reader.get());
        // Asked for, not read: the GUI thread returns at once with an empty table.
        QVERIFY(model.isReading());
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(loaded.wait());
        QCOMPARE(model.rowCount(), Ui::TraceTableModel::PageSize);
        QCOMPARE(model.totalCount(), 1000);
        QCOMPARE(model.trace(0).id, QStringLiteral("req_000999"));
        const QList<Qt::HANDLE> pageThreads = ran.of(QStringLiteral("trace page"));
        QCOMPARE(pageThreads.size(), 1);
        QVERIFY(pageThreads.first() != QThread::currentThreadId());

        model.fetchMore({});
        QVERIFY(model.isReading());
        QCOMPARE(model.rowCount(), Ui::TraceTableModel::PageSize);
        QVERIFY(loaded.wait());
        QCOMPARE(model.rowCount(), 2 * Ui::TraceTableModel::PageSize);
        QVERIFY(!ran.of(QStringLiteral("next trace page")).contains(QThread::currentThreadId()));

        // The detail pane's attempts: read there too.
        const std::optional<Store::TraceRecord> full = Test::fullTraceOf(model, 0);
        QVERIFY(full);
        QCOMPARE(full->attemptRows.size(), 1);
        QCOMPARE(ran.of(QStringLiteral("one trace")).size(), 1);
        QVERIFY(ran.of(QStringLiteral("one trace")).first() != QThread::currentThreadId());
    }

    void anAnswerForAnOlderFilterIsDropped()
    {
        const auto reader = Test::openedReader(m_path);
        QVERIFY(reader);
        Ui::TraceTableModel model;
        model.setReader(reader.get());
        Ui::TraceFilter none;
        none.text = QStringLiteral("no trace has this");
        model.setFilter(none); // the first page's answer is on its way and must not show
        QVERIFY(Test::settled(model));
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.totalCount(), 0);
    }

    void theChartsAreSummedOffTheGuiThread()
    {
        const auto reader = Test::openedReader(m_path);
        QVERIFY(reader);
        Ran ran(reader.get());
        Ui::ChartsView view;
        view.setNow([] { return Base + 1000 * 1000; });
        view.setReader(reader.get());
        QSignalSpy drawn(&view, &Ui::ChartsView::drawn);
        view.refresh();
        QCOMPARE(drawn.count(), 0);
        QVERIFY(drawn.wait());
        QCOMPARE(ran.of(QStringLiteral("charts")).size(), 1);
        QVERIFY(ran.of(QStringLiteral("charts")).first() != QThread::currentThreadId());
        QCOMPARE(view.firstTokenChart()->series().size(), 1);
        // A second refresh while one is on its way waits for it: one read at a time.
        view.refresh();
        view.refresh();
        QVERIFY(drawn.wait());
        QTest::qWait(50);
        QCOMPARE(ran.of(QStringLiteral("charts")).size(), 2);
    }

    void anAnswerWhoseContextIsGoneIsDroppedAndAReaderGoesAwayCleanly()
    {
        auto reader = Test::openedReader(m_path);
        QVERIFY(reader);
        bool called = false;
        {
            QObject context;
            reader->read<int>(
                "count", [](const Store::Store &store) { return store.traceCount({}); }, &context, [&](int) { called = true; });
        }
        QTRY_COMPARE(reader->pending(), 0);
        QVERIFY(!called);
        // Queries still queued when the reader goes: never answered, nothing crashes.
        for (int i = 0; i < 20; ++i)
            reader->read<int>(
                "count", [](const Store::Store &store) { return store.traceCount({}); }, this, [&](int) { called = true; });
        reader.reset();
        QTest::qWait(50);
        QVERIFY(!called);
    }
};

QTEST_MAIN(TestStoreReader)
#include "TestStoreReader.moc"
