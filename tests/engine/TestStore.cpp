// The SQLite store: migrations, keys without secrets, traces with attempt rows, the ledger.
#include "store/Store.h"

#include <QtCore/QTemporaryDir>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>
#include <QtTest/QtTest>

using namespace Aile;

class TestStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void migratesToTheLatestSchemaAndUsesWal()
    {
        QTemporaryDir dir;
        Store::Store store(dir.filePath(QStringLiteral("a.db")));
        QString error;
        QVERIFY2(store.open(&error), qPrintable(error));
        QCOMPARE(store.schemaVersion(), Store::Store::latestSchemaVersion());
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("a.db-wal"))));
    }

    void refusesADatabaseFromANewerBuild()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("b.db"));
        {
            QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("newer"));
            d.setDatabaseName(path);
            QVERIFY(d.open());
            QSqlQuery(d).exec(QStringLiteral("PRAGMA user_version=999"));
            d.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("newer"));
        Store::Store store(path);
        QString error;
        QVERIFY(!store.open(&error));
        QVERIFY(error.contains(QLatin1String("newer")));
    }

    void keysAreStoredHashedOnly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.db"));
        Store::Store store(path);
        QVERIFY(store.open(nullptr));
        const QString plain = QStringLiteral("sk-aile-secret-abcdef0123456789");
        QVERIFY(store.saveKey(Keys::ApiKey::fromPlain(QStringLiteral("dev"), plain, 1000)));
        QCOMPARE(store.keys().size(), 1);
        QCOMPARE(store.keys().first().hash, Keys::hashKey(plain));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QFile wal(path + QStringLiteral("-wal"));
        QVERIFY(wal.open(QIODevice::ReadOnly));
        QVERIFY(!QByteArray(f.readAll() + wal.readAll()).contains(plain.toUtf8()));
    }

    void tracesRoundTripWithAttemptsAndLedger()
    {
        Store::Store store(QStringLiteral(":memory:"));
        QVERIFY(store.open(nullptr));
        Store::TraceRecord t;
        t.id = QStringLiteral("req_1");
        t.startedMs = 1'800'000'000'000;
        t.keyId = QStringLiteral("k_1");
        t.modelAsked = QStringLiteral("openai/gpt-5.2");
        t.status = 200;
        t.attempts = 2;
        t.costUsd = 0.25;
        Store::AttemptRecord a1;
        a1.seq = 1;
        a1.sharer = QStringLiteral("L0000000000000001");
        a1.outcome = QStringLiteral("failed_over");
        a1.status = 429;
        Store::AttemptRecord a2 = a1;
        a2.seq = 2;
        a2.outcome = QStringLiteral("served");
        a2.status = 200;
        t.attemptRows = {a1, a2};
        Store::LedgerEntry e;
        e.traceId = t.id;
        e.atMs = t.startedMs;
        e.day = Store::utcDay(t.startedMs);
        e.keyId = t.keyId;
        e.costUsd = 0.25;
        QVERIFY(store.record({t}, {e}));
        const auto got = store.traces({});
        QCOMPARE(got.size(), 1);
        QCOMPARE(got.first().attemptRows.size(), 2);
        QCOMPARE(got.first().attemptRows[0].outcome, QStringLiteral("failed_over"));
        QCOMPARE(got.first().attemptRows[1].status, 200);
        QCOMPARE(store.spent(e.day, QStringLiteral("k_1")), 0.25);
        Store::TraceQuery q;
        q.status = 500;
        QCOMPARE(store.traceCount(q), 0);
    }

    void utcDayIsUtc()
    {
        // 2027-01-15T23:30:00Z is the 15th in UTC whatever the local zone says.
        QCOMPARE(Store::utcDay(QDateTime(QDate(2027, 1, 15), QTime(23, 30), Qt::UTC).toMSecsSinceEpoch()), QStringLiteral("2027-01-15"));
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "TestStore.moc"
