// The store: migrations, keys without secrets, traces with attempt rows, the ledger. The rows
// marked "postgresql" run the same code against a real PostgreSQL (testsupport/TestPostgres).
#include "store/Store.h"
#include "testsupport/StoreDialects.h"

#include <QtCore/QTemporaryDir>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>
#include <QtTest/QtTest>

using namespace Aile;

class TestStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanupTestCase() { Test::sharedPostgres().stop(); }

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

    void tracesRoundTripWithAttemptsAndLedger_data() { Test::addStoreDialects(); }
    void tracesRoundTripWithAttemptsAndLedger()
    {
        FRESH_STORE(location, "store");
        Store::Store store(location);
        QString error;
        QVERIFY2(store.open(&error), qPrintable(error));
        QCOMPARE(store.schemaVersion(), Store::Store::latestSchemaVersion());
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
        // Written again (the journal replayed after a kill): the request is still booked once.
        QVERIFY(store.record({t}, {e}));
        QCOMPARE(store.ledger(e.day).size(), 1);
        QCOMPARE(store.traceCount({}), 1);
        // The free-text search ignores case on both dialects.
        Store::TraceQuery text;
        text.text = QStringLiteral("GPT-5");
        QCOMPARE(store.traceCount(text), 1);
    }

    void keysSharersAndSettingsReplaceByName_data() { Test::addStoreDialects(); }
    void keysSharersAndSettingsReplaceByName()
    {
        FRESH_STORE(location, "store");
        Store::Store store(location);
        QString error;
        QVERIFY2(store.open(&error), qPrintable(error));
        Keys::ApiKey first = Keys::ApiKey::fromPlain(QStringLiteral("dev"), QStringLiteral("sk-aile-first-0123456789abcdef"), 1000);
        QVERIFY(store.saveKey(first));
        first.name = QStringLiteral("dev renamed");
        QVERIFY(store.saveKey(first)); // the same id: replaced, not added
        QVERIFY(store.saveKey(Keys::ApiKey::fromPlain(QStringLiteral("dev renamed"), QStringLiteral("sk-aile-second-0123456789abcd"), 2000)));
        QCOMPARE(store.keys().size(), 1); // provisioned again under the same name: the old one goes
        QCOMPARE(store.keys().first().hash, Keys::hashKey(QStringLiteral("sk-aile-second-0123456789abcd")));

        QVERIFY(store.saveSetting(QStringLiteral("settings"), QJsonObject{{QStringLiteral("pinTtlSeconds"), 300}}));
        QVERIFY(store.saveSetting(QStringLiteral("settings"), QJsonObject{{QStringLiteral("pinTtlSeconds"), 60}}));
        QCOMPARE(store.setting(QStringLiteral("settings")).toObject().value(QStringLiteral("pinTtlSeconds")).toInt(), 60);
        QVERIFY(store.setting(QStringLiteral("absent")).isUndefined());

        Catalog::Sharer sharer;
        sharer.handle = QStringLiteral("L0123456789abcdef");
        sharer.name = QStringLiteral("work key");
        sharer.provider = QStringLiteral("openai");
        sharer.credentialRef = QStringLiteral("env:OPENAI_API_KEY");
        QVERIFY2(store.saveSharer(sharer, &error), qPrintable(error));
        sharer.name = QStringLiteral("renamed");
        QVERIFY2(store.saveSharer(sharer, &error), qPrintable(error));
        QCOMPARE(store.sharers().size(), 1);
        QCOMPARE(store.sharer(sharer.handle)->name, QStringLiteral("renamed"));
        QCOMPARE(store.sharer(sharer.handle)->credentialRef, QStringLiteral("env:OPENAI_API_KEY")); // a reference, never the secret
        QVERIFY(store.removeSharer(sharer.handle));
        QVERIFY(store.sharers().isEmpty());

        // A transaction that fails leaves nothing behind.
        QVERIFY(!store.inTransaction([&] { return store.saveSetting(QStringLiteral("half"), 1) && false; }));
        QVERIFY(store.setting(QStringLiteral("half")).isUndefined());
    }

    void aSecondOpenFindsTheSchemaInPlace_data() { Test::addStoreDialects(); }
    void aSecondOpenFindsTheSchemaInPlace()
    {
        FRESH_STORE(location, "store");
        QTemporaryDir dir;
        if (location == QLatin1String(":memory:"))
            location = dir.filePath(QStringLiteral("twice.db"));
        {
            Store::Store first(location);
            QVERIFY(first.open(nullptr));
            QVERIFY(first.saveSetting(QStringLiteral("kept"), 7));
        }
        Store::Store second(location);
        QString error;
        QVERIFY2(second.open(&error), qPrintable(error));
        QCOMPARE(second.schemaVersion(), Store::Store::latestSchemaVersion());
        QCOMPARE(second.setting(QStringLiteral("kept")).toInt(), 7);
    }

    void utcDayIsUtc()
    {
        // 2027-01-15T23:30:00Z is the 15th in UTC whatever the local zone says.
        QCOMPARE(Store::utcDay(QDateTime(QDate(2027, 1, 15), QTime(23, 30), Qt::UTC).toMSecsSinceEpoch()), QStringLiteral("2027-01-15"));
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "TestStore.moc"
