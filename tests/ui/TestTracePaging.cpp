// The traces model pages from the store: with 100,000 traces stored it holds one page, loads
// the next when the view scrolls to the end, and merges live rows without gaps or repeats.
#include "ReadWait.h"
#include "store/Store.h"
#include "traces/TraceColumns.h"
#include "traces/TraceTableModel.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QSet>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTimer>
#include <QtTest/QtTest>
#include <QtWidgets/QScrollBar>
#include <QtWidgets/QTableView>

using namespace Aile;
using Ui::TraceTableModel;

namespace {

constexpr qint64 Base = 1'780'000'000'000; // a fixed moment: no test depends on the host's clock

Store::TraceRecord makeTrace(int i, qint64 startedMs)
{
    Store::TraceRecord t;
    t.id = QStringLiteral("req_%1").arg(i, 8, 10, QLatin1Char('0'));
    t.startedMs = startedMs;
    t.keyId = i % 2 ? QStringLiteral("k_alpha") : QStringLiteral("k_beta");
    t.keyName = i % 2 ? QStringLiteral("alpha") : QStringLiteral("beta");
    t.client = QStringLiteral("openai-sdk");
    t.endpoint = QStringLiteral("/v1/chat/completions");
    t.modelAsked = i % 3 ? QStringLiteral("openai/gpt-5.2") : QStringLiteral("claude/claude-sonnet-5");
    t.modelServed = t.modelAsked;
    t.sharer = QStringLiteral("L00000000000000a1");
    t.sharerName = i % 5 ? QStringLiteral("openai-one") : QStringLiteral("openai-two");
    t.status = i % 10 == 0 ? 429 : 200;
    t.attempts = 1;
    t.ttfbMs = 100 + i % 400;
    t.durationMs = 900;
    t.inputTokens = 12;
    t.outputTokens = 5;
    t.costUsd = 0.0001;
    Store::AttemptRecord a;
    a.seq = 1;
    a.sharer = t.sharer;
    a.sharerName = t.sharerName;
    a.status = t.status;
    a.outcome = t.status == 200 ? QStringLiteral("served") : QStringLiteral("failed_over");
    a.startedMs = startedMs;
    a.ttfbMs = t.ttfbMs;
    a.durationMs = t.durationMs;
    t.attemptRows = {a};
    return t;
}

QStringList ids(const TraceTableModel &model)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out << model.trace(row).id;
    return out;
}

} // namespace

class TestTracePaging : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_bigPath;
    std::unique_ptr<Store::Store> m_big;             // read-only, for the test's own checks
    std::unique_ptr<Store::StoreReader> m_bigReader; // as the GUI reads it, off the GUI thread

private Q_SLOTS:
    void initTestCase()
    {
        m_bigPath = m_dir.filePath(QStringLiteral("big.db"));
        Store::Store writer(m_bigPath);
        QString error;
        QVERIFY2(writer.open(&error), qPrintable(error));
        QList<Store::TraceRecord> traces;
        traces.reserve(100000);
        for (int i = 0; i < 100000; ++i)
            traces.append(makeTrace(i, Base + qint64(i) * 1000));
        QElapsedTimer timer;
        timer.start();
        QVERIFY(writer.record(traces, {}));
        qInfo("recorded 100,000 traces in %lld ms", timer.elapsed());
        m_big = std::make_unique<Store::Store>(m_bigPath, true);
        QVERIFY2(m_big->open(&error), qPrintable(error));
        QCOMPARE(m_big->traceCount({}), 100000);
        m_bigReader = Test::openedReader(m_bigPath);
        QVERIFY(m_bigReader);
    }

    void holdsOnlyOnePageOf100000()
    {
        TraceTableModel model;
        QElapsedTimer timer;
        timer.start();
        model.setReader(m_bigReader.get());
        QVERIFY(Test::settled(model));
        qInfo("first page and count in %lld ms", timer.elapsed());
        QCOMPARE(model.rowCount(), TraceTableModel::PageSize);
        QCOMPARE(model.totalCount(), 100000);
        QVERIFY(model.canFetchMore({}));
        // Newest first.
        QCOMPARE(model.trace(0).id, QStringLiteral("req_00099999"));
        QCOMPARE(model.trace(TraceTableModel::PageSize - 1).id, QStringLiteral("req_00099800"));
        // Attempts are read when a row is opened, not for the whole page.
        QVERIFY(model.trace(0).attemptRows.isEmpty());
        QCOMPARE(Test::fullTraceOf(model, 0)->attemptRows.size(), 1);
    }

    void fetchMoreLoadsTheNextPageInOrder()
    {
        TraceTableModel model;
        model.setReader(m_bigReader.get());
        QVERIFY(Test::settled(model));
        model.fetchMore({});
        QVERIFY(Test::settled(model));
        QCOMPARE(model.rowCount(), 2 * TraceTableModel::PageSize);
        const QStringList loaded = ids(model);
        QCOMPARE(QSet<QString>(loaded.begin(), loaded.end()).size(), loaded.size());
        for (int row = 1; row < model.rowCount(); ++row)
            QVERIFY(model.trace(row - 1).startedMs > model.trace(row).startedMs);
        QCOMPARE(model.trace(model.rowCount() - 1).id, QStringLiteral("req_00099600"));
    }

    void theViewFetchesAPageOnlyWhenScrolledToTheEnd()
    {
        TraceTableModel model;
        model.setReader(m_bigReader.get());
        QVERIFY(Test::settled(model));
        QTableView view;
        view.setModel(&model);
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTest::qWait(50);
        QCOMPARE(model.rowCount(), TraceTableModel::PageSize);
        view.scrollToBottom();
        QTRY_COMPARE(model.rowCount(), 2 * TraceTableModel::PageSize);
        view.scrollToBottom();
        QTRY_COMPARE(model.rowCount(), 3 * TraceTableModel::PageSize);
        QCOMPARE(view.verticalScrollBar()->maximum() > 0, true);
        QVERIFY(model.rowCount() < 1000);
    }

    void aFilterReloadsOnePageFromTheStore()
    {
        TraceTableModel model;
        model.setReader(m_bigReader.get());
        Ui::TraceFilter filter;
        filter.status = 429;
        filter.keyId = QStringLiteral("beta");
        model.setFilter(filter);
        QVERIFY(Test::settled(model));
        QCOMPARE(model.totalCount(), 10000); // every tenth trace, all of them even: key beta
        QCOMPARE(model.rowCount(), TraceTableModel::PageSize);
        for (int row = 0; row < model.rowCount(); ++row) {
            QCOMPARE(model.trace(row).status, 429);
            QCOMPARE(model.trace(row).keyName, QStringLiteral("beta"));
        }
        filter = {};
        filter.text = QStringLiteral("openai-two");
        model.setFilter(filter);
        QVERIFY(Test::settled(model));
        QCOMPARE(model.totalCount(), 20000);
        QCOMPARE(model.data(model.index(0, Ui::TraceColumns::Sharer)).toString(), QStringLiteral("openai-two"));
    }

    void liveRowsMergeWithoutGapsOrRepeats()
    {
        // A small store written while the model reads, as the engine's writer does.
        const QString path = m_dir.filePath(QStringLiteral("live.db"));
        Store::Store writer(path);
        QVERIFY(writer.open(nullptr));
        QList<Store::TraceRecord> initial;
        for (int i = 0; i < 1000; ++i)
            initial.append(makeTrace(i, Base + qint64(i) * 1000));
        QVERIFY(writer.record(initial, {}));
        Store::Store reader(path, true);
        QVERIFY(reader.open(nullptr));
        const std::unique_ptr<Store::StoreReader> storeReader = Test::openedReader(path);
        QVERIFY(storeReader);

        TraceTableModel model;
        model.setReader(storeReader.get());
        QVERIFY(Test::settled(model));
        QCOMPARE(model.rowCount(), TraceTableModel::PageSize);

        // Newer rows published before the writer commits them; one older row (a long request)
        // whose place is inside the window; one whose place is past the window.
        const Store::TraceRecord newer1 = makeTrace(5001, Base + 2'000'000);
        const Store::TraceRecord newer2 = makeTrace(5002, Base + 2'000'500);
        const Store::TraceRecord inside = makeTrace(5003, Base + 950'500);
        const Store::TraceRecord past = makeTrace(5004, Base + 10'500);
        model.addLive({newer1, newer2, inside, past});
        QCOMPARE(model.trace(0).id, newer2.id);
        QCOMPARE(model.trace(1).id, newer1.id);
        QVERIFY(model.rowOf(inside.id) > 0);
        QCOMPARE(model.rowOf(past.id), -1); // paging will bring it
        QCOMPARE(model.totalCount(), 1004);

        // A reload before the commit still shows the uncommitted rows.
        Ui::TraceFilter everything;
        everything.text = QStringLiteral("o");
        model.setFilter(everything);
        QVERIFY(Test::settled(model));
        QCOMPARE(model.trace(0).id, newer2.id);
        QVERIFY(model.rowOf(inside.id) > 0);

        model.fetchMore({}); // before the commit
        QVERIFY(Test::settled(model));
        QVERIFY(writer.record({newer1, newer2, inside, past}, {}));
        while (model.canFetchMore({})) {
            model.fetchMore({});
            QVERIFY(Test::settled(model));
        }

        // Exactly the store's rows, in the store's order.
        Store::TraceQuery all = everything.query(5000, 0);
        QStringList expected;
        for (const Store::TraceRecord &t : reader.traces(all))
            expected << t.id;
        QCOMPARE(ids(model), expected);
        QCOMPARE(model.rowCount(), 1004);
    }

    void withAStoreLiveRowsAreHeldWithoutTheirAttemptsAndOpenWhole()
    {
        // A busy engine's 20,000 rows held whole would keep ~0.6 kB each of attempt rows the
        // table never shows: with a store, a live row is held as a page's row is, and opening
        // it reads the attempts from the store, or from the batch it came in before the commit.
        const QString path = m_dir.filePath(QStringLiteral("slim.db"));
        Store::Store writer(path);
        QVERIFY(writer.open(nullptr));
        QVERIFY(writer.record({makeTrace(1, Base + 1000)}, {}));
        const std::unique_ptr<Store::StoreReader> storeReader = Test::openedReader(path);
        QVERIFY(storeReader);
        TraceTableModel model;
        model.setReader(storeReader.get());
        QVERIFY(Test::settled(model));

        Store::TraceRecord live = makeTrace(2, Base + 2000);
        live.attemptRows.first().outcome = QStringLiteral("served (as it came live)");
        model.addLive({live});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.trace(0).id, live.id);
        QVERIFY(model.trace(0).attemptRows.isEmpty());
        QCOMPARE(model.trace(0).status, live.status);
        QCOMPARE(model.trace(0).modelServed, live.modelServed);

        // Not committed yet: the batch kept aside has it whole.
        std::optional<Store::TraceRecord> opened = Test::fullTraceOf(model, 0);
        QVERIFY(opened);
        QCOMPARE(opened->attemptRows.size(), 1);
        QCOMPARE(opened->attemptRows.first().outcome, QStringLiteral("served (as it came live)"));

        // Committed: the store's rows.
        Store::TraceRecord stored = live;
        stored.attemptRows.first().outcome = QStringLiteral("served");
        QVERIFY(writer.record({stored}, {}));
        opened = Test::fullTraceOf(model, 0);
        QVERIFY(opened);
        QCOMPARE(opened->attemptRows.size(), 1);
        QCOMPARE(opened->attemptRows.first().outcome, QStringLiteral("served"));
    }

    void withoutAStoreItKeepsLiveRows()
    {
        TraceTableModel model;
        model.setReader(nullptr);
        QVERIFY(!model.canFetchMore({}));
        model.addLive({makeTrace(1, Base + 1000), makeTrace(2, Base + 2000), makeTrace(3, Base + 3000)});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.trace(0).id, QStringLiteral("req_00000003"));
        QCOMPARE(model.trace(0).attemptRows.size(), 1); // held whole: nothing else has them
        Ui::TraceFilter f;
        f.keyId = QStringLiteral("alpha"); // odd ids
        model.setFilter(f);
        QCOMPARE(ids(model), (QStringList{QStringLiteral("req_00000003"), QStringLiteral("req_00000001")}));
        model.setFilter({});
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(Test::fullTraceOf(model, 0)->attemptRows.size(), 1);
    }
    void aBatchIsOneInsertionAndTheModelHoldsItAll()
    {
        // A busy proxy publishes hundreds of requests per batch, in the order they finished.
        TraceTableModel model;
        qint64 now = 0;
        model.setLiveClock([&now] { return now; });
        model.setReader(nullptr);
        model.addLive({makeTrace(0, Base)});
        now += TraceTableModel::LivePaceMs; // past the pace: the batch goes straight in
        QList<Store::TraceRecord> batch;
        for (int i = 1; i <= 600; ++i)
            batch.append(makeTrace(i, Base + qint64(i % 2 ? 601 - i : i) * 1000)); // finished out of start order
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.addLive(batch);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.first().at(1).toInt(), 0);
        QCOMPARE(inserted.first().at(2).toInt(), 599);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(model.rowCount(), 601);
        QCOMPARE(model.totalCount(), 601);
        for (int row = 1; row < model.rowCount(); ++row)
            QVERIFY(model.trace(row - 1).startedMs >= model.trace(row).startedMs);
        QCOMPARE(model.trace(600).id, QStringLiteral("req_00000000"));
    }

    void aDeferredModelMergesWhatCameMeanwhileAsOneBatch()
    {
        // The window minimised: batches are only kept aside; restored, they come in as one.
        TraceTableModel model;
        qint64 now = 0;
        model.setLiveClock([&now] { return now; });
        model.setReader(nullptr);
        model.addLive({makeTrace(0, Base)});
        model.setLiveDeferred(true);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy counted(&model, &TraceTableModel::totalCountChanged);
        for (int b = 0; b < 3; ++b) {
            QList<Store::TraceRecord> batch;
            for (int i = 1; i <= 200; ++i)
                batch.append(makeTrace(b * 200 + i, Base + qint64(b * 200 + i) * 1000));
            model.addLive(batch);
        }
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.totalCount(), 1);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(counted.count(), 0);
        model.setLiveDeferred(false);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.rowCount(), 601);
        QCOMPARE(model.totalCount(), 601);
        QCOMPARE(model.trace(0).id, QStringLiteral("req_00000600"));
        QCOMPARE(model.trace(600).id, QStringLiteral("req_00000000"));
        // Live again: the next batch after the pace goes straight in.
        now += TraceTableModel::LivePaceMs;
        model.addLive({makeTrace(601, Base + 601'000)});
        QCOMPARE(model.rowCount(), 602);
        QCOMPARE(inserted.count(), 2);
    }

    void liveBatchesUnderLoadMergeOncePerPace()
    {
        // A busy engine publishes a batch every 100 ms: the table takes them every LivePaceMs, as
        // one insertion; a batch after a quiet spell goes straight in.
        TraceTableModel model;
        qint64 now = 10'000;
        model.setLiveClock([&now] { return now; });
        model.setReader(nullptr);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        const auto batchOf = [](int first, int count) {
            QList<Store::TraceRecord> batch;
            for (int i = first; i < first + count; ++i)
                batch.append(makeTrace(i, Base + qint64(i) * 1000));
            return batch;
        };
        model.addLive(batchOf(0, 10));
        QCOMPARE(model.rowCount(), 10);
        QCOMPARE(inserted.count(), 1);
        QVERIFY(!model.livePaceTimer()->isActive());

        now += 100;
        model.addLive(batchOf(10, 10));
        now += 100;
        model.addLive(batchOf(20, 10));
        QCOMPARE(model.rowCount(), 10); // held
        QCOMPARE(model.totalCount(), 10);
        QCOMPARE(model.heldLiveBatches(), 2);
        QCOMPARE(inserted.count(), 1);
        QVERIFY(model.livePaceTimer()->isActive());
        QCOMPARE(model.livePaceTimer()->interval(), TraceTableModel::LivePaceMs - 100); // armed by the first held batch

        now = 10'000 + TraceTableModel::LivePaceMs;
        model.mergeHeldLive();         // the pace timer's timeout
        QCOMPARE(inserted.count(), 2); // both batches in one insertion
        QCOMPARE(model.rowCount(), 30);
        QCOMPARE(model.totalCount(), 30);
        QCOMPARE(model.heldLiveBatches(), 0);
        QVERIFY(!model.livePaceTimer()->isActive());
        QCOMPARE(model.trace(0).id, makeTrace(29, 0).id);
        for (int row = 1; row < model.rowCount(); ++row)
            QVERIFY(model.trace(row - 1).startedMs > model.trace(row).startedMs);

        // Still busy: the next batch waits for the pace from that merge.
        now += 100;
        model.addLive(batchOf(30, 10));
        QCOMPARE(model.rowCount(), 30);
        QCOMPARE(model.livePaceTimer()->interval(), TraceTableModel::LivePaceMs - 100);
        // The timer itself merges them (it runs on the event loop).
        QSignalSpy paced(model.livePaceTimer(), &QTimer::timeout);
        QVERIFY(paced.wait(5000));
        QCOMPARE(model.rowCount(), 40);
        QCOMPARE(inserted.count(), 3);

        // Quiet for longer than the pace: the next batch goes straight in.
        now += 5'000;
        model.addLive(batchOf(40, 1));
        QCOMPARE(model.rowCount(), 41);
        QCOMPARE(inserted.count(), 4);
        QVERIFY(!model.livePaceTimer()->isActive());
    }

    void deferringStopsThePaceAndUndeferringMergesEverythingHeld()
    {
        TraceTableModel model;
        qint64 now = 0;
        model.setLiveClock([&now] { return now; });
        model.setReader(nullptr);
        model.addLive({makeTrace(0, Base)});
        now += 100;
        model.addLive({makeTrace(1, Base + 1000)}); // held by the pace
        QVERIFY(model.livePaceTimer()->isActive());
        model.setLiveDeferred(true); // the window minimised
        QVERIFY(!model.livePaceTimer()->isActive());
        model.mergeHeldLive(); // a late timeout while deferred changes nothing
        QCOMPARE(model.rowCount(), 1);
        now += 60'000;
        model.addLive({makeTrace(2, Base + 2000)});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.heldLiveBatches(), 2);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.setLiveDeferred(false);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.trace(0).id, makeTrace(2, 0).id);
        // The merge on restoring counts for the pace: a batch right after it waits.
        model.addLive({makeTrace(3, Base + 3000)});
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(model.livePaceTimer()->isActive());
    }

    void moreThanTheWindowWhileDeferredReadsThePageAgain()
    {
        // Past MaxHeldRows kept aside, merging would only trim them again: the page is read anew,
        // here (no store) the live rows kept aside, newest first.
        TraceTableModel model;
        model.setReader(nullptr);
        model.setLiveDeferred(true);
        const int batches = TraceTableModel::MaxHeldRows / 1000 + 1;
        for (int b = 0; b < batches; ++b) {
            QList<Store::TraceRecord> batch;
            for (int i = 0; i < 1000; ++i)
                batch.append(makeTrace(b * 1000 + i, Base + qint64(b * 1000 + i) * 10));
            model.addLive(batch);
        }
        QCOMPARE(model.rowCount(), 0);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setLiveDeferred(false);
        QCOMPARE(reset.count(), 1);
        QVERIFY(model.rowCount() >= TraceTableModel::MaxLiveRows);
        QVERIFY(model.rowCount() <= TraceTableModel::MaxLiveRows + 1000);
        QCOMPARE(model.trace(0).id, makeTrace(batches * 1000 - 1, 0).id);
        for (int row = 1; row < model.rowCount(); ++row)
            QVERIFY(model.trace(row - 1).startedMs > model.trace(row).startedMs);
    }
    void theStatusIconIsDrawnOncePerModel()
    {
        // Every visible row asks for its icon on every repaint: the same icon, not a new drawing.
        TraceTableModel model;
        model.setReader(nullptr);
        model.addLive({makeTrace(1, Base + 1000), makeTrace(2, Base + 2000), makeTrace(10, Base + 3000)}); // 10: a 429
        const auto icon = [&](int row) {
            return model.data(model.index(row, Ui::TraceColumns::Status), Qt::DecorationRole).value<QIcon>();
        };
        QVERIFY(!icon(0).isNull());
        QVERIFY(model.index(0, 0).data(TraceTableModel::FailedRole).toBool());
        QVERIFY(!model.index(1, 0).data(TraceTableModel::FailedRole).toBool());
        QCOMPARE(icon(1).cacheKey(), icon(2).cacheKey());
        QCOMPARE(icon(1).cacheKey(), icon(1).cacheKey());
        QVERIFY(icon(0).cacheKey() != icon(1).cacheKey());
        QVERIFY(model.data(model.index(1, Ui::TraceColumns::Time), Qt::DecorationRole).isNull());
    }
};

QTEST_MAIN(TestTracePaging)
#include "TestTracePaging.moc"
