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

    // docs/performance.md "Change 12 (tail)": asked for, the writer's group commits run on what
    // the engine, its clients and its upstreams leave of the CPU.
    void theWriterThreadRunsAtIdlePriorityWhenAsked()
    {
#if defined(Q_OS_LINUX)
        qputenv("AILE_STORE_WRITER_PRIORITY", "idle");
        QTemporaryDir dir;
        Store::StoreWriter writer(dir.filePath(QStringLiteral("aile.db")));
        QVERIFY(writer.start(nullptr));
        qunsetenv("AILE_STORE_WRITER_PRIORITY");
        QCOMPARE(policyOfThread("aile-store-writ"), SCHED_IDLE);
        QCOMPARE(sched_getscheduler(0), SCHED_OTHER); // the thread alone, not the process
        const Store::TraceRecord t = trace(1);
        writer.enqueue(t, {charge(t)});
        writer.flush();
        QCOMPARE(writer.committed(), 1);
#else
        QSKIP("the writer's priority is lowered on Linux only");
#endif
    }

    // The default: a busy machine must not leave the traces and usage seconds behind.
    void theWriterKeepsItsNormalPriorityByDefault()
    {
#if defined(Q_OS_LINUX)
        qunsetenv("AILE_STORE_WRITER_PRIORITY");
        QTemporaryDir dir;
        Store::StoreWriter writer(dir.filePath(QStringLiteral("aile.db")));
        QVERIFY(writer.start(nullptr));
        QCOMPARE(policyOfThread("aile-store-writ"), SCHED_OTHER);
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
        qputenv("AILE_STORE_WRITER_PRIORITY", "idle");
        QTemporaryDir dir;
        Store::StoreWriter writer(dir.filePath(QStringLiteral("aile.db")));
        QVERIFY(writer.start(nullptr));
        qunsetenv("AILE_STORE_WRITER_PRIORITY");
        qunsetenv("AILE_TEST_WRITER_LATE_MS");
        qputenv("AILE_TEST_COMMIT_DELAY_MS", "600000");
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral(
                                               "^the store writer took up \\d requests? \\d+ ms after the first of them finished: .*"
                                               "Unset AILE_STORE_WRITER_PRIORITY")));
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
