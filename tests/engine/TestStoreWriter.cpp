// The store writer's ledger journal files (docs/hardening.md "Durability under faults"): one file
// serves many group commits and is closed once it holds LedgerJournal::RotateBytes, then removed
// when the batch that closed it is in the database; a clean stop leaves none. A file and its
// removal per group commit cost four system calls and a directory change each time.
#include "store/LedgerJournal.h"
#include "store/Store.h"
#include "store/StoreWriter.h"

#include <QtCore/QDir>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#if defined(Q_OS_LINUX)
#include <sched.h>
#endif

using namespace Aile;

namespace {

Store::TraceRecord trace(int n)
{
    Store::TraceRecord t;
    t.id = QStringLiteral("req_%1").arg(n, 16, 16, QLatin1Char('0'));
    t.startedMs = 1'800'000'000'000 + n;
    t.keyId = QStringLiteral("k_1");
    t.status = 200;
    t.error = QString(200, QLatin1Char('e')); // about 1 KiB a record, with the UTF-16 text
    return t;
}

Store::LedgerEntry charge(const Store::TraceRecord &t)
{
    Store::LedgerEntry e;
    e.traceId = t.id;
    e.atMs = t.startedMs;
    e.day = Store::utcDay(t.startedMs);
    e.keyId = t.keyId;
    e.costUsd = 0.5;
    return e;
}

QStringList journalFiles(const QString &folder)
{
    return QDir(folder).entryList({QStringLiteral("ledger-journal-*.bin")}, QDir::Files, QDir::Name);
}

#if defined(Q_OS_LINUX)
// The scheduling policy of this process's thread of that name (the kernel keeps 15 characters of
// it), or -1 when there is none.
int policyOfThread(const QByteArray &name)
{
    const QStringList tids = QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &tid : tids) {
        QFile comm(QStringLiteral("/proc/self/task/%1/comm").arg(tid));
        if (comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == name)
            return sched_getscheduler(tid.toInt());
    }
    return -1;
}
#endif

} // namespace

class TestStoreWriter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Only flush() commits (a test seam that holds back the writer's own group commits), so which
    // batch closes a file does not depend on the writer thread's timing.
    void initTestCase() { qputenv("AILE_TEST_COMMIT_DELAY_MS", "600000"); }
    void cleanupTestCase() { qunsetenv("AILE_TEST_COMMIT_DELAY_MS"); }

    void oneJournalFileServesManyCommits()
    {
        QTemporaryDir dir;
        Store::StoreWriter writer(dir.filePath(QStringLiteral("aile.db")));
        QString error;
        QVERIFY2(writer.start(&error), qPrintable(error));
        for (int n = 0; n < 20; ++n) {
            const Store::TraceRecord t = trace(n);
            writer.enqueue(t, {charge(t)});
            writer.flush(); // a group commit each
        }
        QCOMPARE(writer.committed(), 20);
        // The file in use and the next one, opened ahead: no file made and removed per commit.
        QCOMPARE(journalFiles(dir.path()), QStringList({QStringLiteral("ledger-journal-000001.bin"), QStringLiteral("ledger-journal-000002.bin")}));
        writer.stop();
        QVERIFY(journalFiles(dir.path()).isEmpty()); // a clean stop: nothing left to replay
        Store::Store store(dir.filePath(QStringLiteral("aile.db")));
        QVERIFY(store.open(nullptr));
        QCOMPARE(store.ledger(Store::utcDay(trace(0).startedMs)).size(), 20);
    }

    // A journal a killed run left (its batch journaled, not committed) is replayed at the next
    // start with what a replay of the request needs (docs/replay.md): the session's draw seed and
    // the output cap, and the node an attempt went through.
    void aJournalLeftByAKillIsReplayedWithWhatAReplayNeeds()
    {
        QTemporaryDir dir;
        Store::TraceRecord t = trace(7);
        t.session = QStringLiteral("5f3c9a01d2e47b88");
        t.maxOutputTokens = 4096;
        Store::AttemptRecord a;
        a.seq = 1;
        a.sharer = QStringLiteral("N00000000000000c1");
        a.outcome = QStringLiteral("served");
        a.nodeSharer = QStringLiteral("team-openai");
        a.nodePrice = QStringLiteral("80% of list");
        t.attemptRows = {a};
        {
            Store::LedgerJournal left(dir.path());
            QVERIFY(left.open(nullptr));
            QVERIFY(left.append(Store::LedgerJournal::line(t, {charge(t)})));
        } // no commit: the file stays, as after a kill -9
        QCOMPARE(journalFiles(dir.path()).size(), 1);
        Store::StoreWriter writer(dir.filePath(QStringLiteral("aile.db")));
        QVERIFY(writer.start(nullptr));
        writer.stop();
        QVERIFY(journalFiles(dir.path()).isEmpty());
        Store::Store store(dir.filePath(QStringLiteral("aile.db")));
        QVERIFY(store.open(nullptr));
        const std::optional<Store::TraceRecord> back = store.trace(t.id);
        QVERIFY(back);
        QCOMPARE(back->session, t.session);
        QCOMPARE(back->maxOutputTokens, qint64(4096));
        QCOMPARE(back->attemptRows.size(), 1);
        QCOMPARE(back->attemptRows[0].nodeSharer, QStringLiteral("team-openai"));
        QCOMPARE(back->attemptRows[0].nodePrice, QStringLiteral("80% of list"));
        QCOMPARE(store.ledger(Store::utcDay(t.startedMs)).size(), 1);
    }

    void aFullFileIsClosedAndRemovedOnceCommitted()
    {
        QTemporaryDir dir;
        Store::StoreWriter writer(dir.filePath(QStringLiteral("aile.db")));
        QVERIFY(writer.start(nullptr));
        qint64 written = 0;
        int n = 0;
        while (written < Store::LedgerJournal::RotateBytes) {
            const Store::TraceRecord t = trace(n++);
            written += Store::LedgerJournal::line(t, {charge(t)}).size();
            writer.enqueue(t, {charge(t)});
        }
        writer.flush();
        QCOMPARE(writer.committed(), n);
        // The full file went with the batch; the next one is in use, empty.
        QCOMPARE(journalFiles(dir.path()), QStringList({QStringLiteral("ledger-journal-000002.bin")}));
        QCOMPARE(QFileInfo(dir.filePath(QStringLiteral("ledger-journal-000002.bin"))).size(), 0);
        writer.stop();
        QVERIFY(journalFiles(dir.path()).isEmpty());
    }

    void theWritersThreadsAndTheirPriorities_data()
    {
        QTest::addColumn<QByteArray>("priority");
        QTest::addColumn<bool>("inMemory");
        QTest::addColumn<int>("writerPolicy"); // the thread named aile-store-writer
        QTest::addColumn<int>("syncPolicy");   // aile-store-sync (-1: no such thread)
#if defined(Q_OS_LINUX)
        // docs/performance.md "Change 13 (writer)": the group commits run at idle priority, on what
        // the engine, its clients and its upstreams leave of the CPU; the thread that serves
        // flush(), whenWritten() and the late rows keeps its normal priority.
        QTest::newRow("a database file") << QByteArray() << false << SCHED_IDLE << SCHED_OTHER;
        // Asked for, or where a second connection does not fit, one thread at normal priority does
        // everything, as before.
        QTest::newRow("AILE_STORE_WRITER_PRIORITY=normal") << QByteArray("normal") << false << SCHED_OTHER << -1;
        QTest::newRow(":memory: (a second connection would be another database)") << QByteArray() << true << SCHED_OTHER << -1;
#endif
    }

    void theWritersThreadsAndTheirPriorities()
    {
#if defined(Q_OS_LINUX)
        QFETCH(QByteArray, priority);
        QFETCH(bool, inMemory);
        QFETCH(int, writerPolicy);
        QFETCH(int, syncPolicy);
        if (priority.isEmpty())
            qunsetenv("AILE_STORE_WRITER_PRIORITY");
        else
            qputenv("AILE_STORE_WRITER_PRIORITY", priority);
        QTemporaryDir dir;
        Store::StoreWriter writer(inMemory ? QStringLiteral(":memory:") : dir.filePath(QStringLiteral("aile.db")));
        QVERIFY(writer.start(nullptr));
        qunsetenv("AILE_STORE_WRITER_PRIORITY");
        QCOMPARE(policyOfThread("aile-store-writ"), writerPolicy);
        QCOMPARE(policyOfThread("aile-store-sync"), syncPolicy);
        QCOMPARE(sched_getscheduler(0), SCHED_OTHER); // the writer's threads alone, not the process
        const Store::TraceRecord t = trace(1);
        writer.enqueue(t, {charge(t)});
        writer.flush();
        QCOMPARE(writer.committed(), 1);
#else
        QSKIP("the writer's priority is lowered on Linux only");
#endif
    }

    // A machine kept busy by other programs leaves the idle thread no core: the rows it leaves
    // waiting RescueMs are committed at normal priority, told once a minute. The seams: an idle
    // thread that never commits, and a rescue after 50 ms instead of 250.
    void rowsTheIdleThreadLeavesWaitingAreCommittedAtNormalPriority()
    {
#if defined(Q_OS_LINUX)
        qunsetenv("AILE_TEST_COMMIT_DELAY_MS");
        qputenv("AILE_TEST_WRITER_IDLE_STALLED", "1");
        qputenv("AILE_TEST_WRITER_RESCUE_MS", "50");
        QTemporaryDir dir;
        Store::StoreWriter writer(dir.filePath(QStringLiteral("aile.db")));
        QVERIFY(writer.start(nullptr));
        qunsetenv("AILE_TEST_WRITER_IDLE_STALLED");
        qunsetenv("AILE_TEST_WRITER_RESCUE_MS");
        qputenv("AILE_TEST_COMMIT_DELAY_MS", "600000");
        QCOMPARE(policyOfThread("aile-store-writ"), SCHED_IDLE);
        static QAtomicInt toldRescues;
        static QtMessageHandler previous = nullptr;
        toldRescues = 0;
        previous = qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &context, const QString &text) {
            if (type == QtInfoMsg && text.startsWith(QLatin1String("the store writer's idle-priority thread left 3 requests waiting ")))
                toldRescues.ref();
            else if (previous)
                previous(type, context, text);
        });
        const auto restore = qScopeGuard([] { qInstallMessageHandler(previous); });
        for (int n = 0; n < 3; ++n) {
            const Store::TraceRecord t = trace(n);
            writer.enqueue(t, {charge(t)});
        }
        QTRY_COMPARE_WITH_TIMEOUT(writer.committed(), 3, 30'000); // no flush(): the rescue alone
        QCOMPARE(toldRescues.loadRelaxed(), 1);
        // The rescue follows the queue: a later batch is taken up too, not told again this minute.
        const Store::TraceRecord t = trace(3);
        writer.enqueue(t, {charge(t)});
        QTRY_COMPARE_WITH_TIMEOUT(writer.committed(), 4, 30'000);
        QCOMPARE(toldRescues.loadRelaxed(), 1);
        Store::Store store(dir.filePath(QStringLiteral("aile.db")));
        QVERIFY(store.open(nullptr));
        QCOMPARE(store.ledger(Store::utcDay(trace(0).startedMs)).size(), 4);
#else
        QSKIP("the writer's priority is lowered on Linux only");
#endif
    }

    // A writer kept from the CPU commits late; the log says so once a minute at most, with the
    // way out. The seam makes every batch late.
    void aLateBatchIsToldOnceAMinute()
    {
#if defined(Q_OS_LINUX)
        qputenv("AILE_TEST_WRITER_LATE_MS", "0");
        qunsetenv("AILE_TEST_COMMIT_DELAY_MS"); // held commits are the seam's, never told
        QTemporaryDir dir;
        Store::StoreWriter writer(dir.filePath(QStringLiteral("aile.db")));
        QVERIFY(writer.start(nullptr));
        qunsetenv("AILE_TEST_WRITER_LATE_MS");
        qputenv("AILE_TEST_COMMIT_DELAY_MS", "600000");
        QTest::ignoreMessage(
            QtWarningMsg, QRegularExpression(QStringLiteral(
                              "^the store writer took up \\d requests? \\d+ ms after the first of them finished: the machine or its disk is busy")));
        for (int n = 0; n < 2; ++n) {
            const Store::TraceRecord t = trace(n);
            writer.enqueue(t, {charge(t)});
        }
        writer.flush();
        QTest::failOnWarning(QRegularExpression(QStringLiteral("^the store writer took up")));
        const Store::TraceRecord t = trace(2);
        writer.enqueue(t, {charge(t)});
        writer.flush(); // late too, but within the minute
        QCOMPARE(writer.committed(), 3);
#else
        QSKIP("the writer's priority is lowered on Linux only");
#endif
    }
};

QTEST_GUILESS_MAIN(TestStoreWriter)
#include "TestStoreWriter.moc"
