// The store: migrations, keys without secrets, traces with attempt rows, the ledger. The rows
// marked "postgresql" run the same code against a real PostgreSQL (testsupport/TestPostgres).
#include "api/values/ChartFigures.h"
#include "billing/SpendBook.h"
#include "store/Store.h"
#include "store/UsageSummary.h"
#include "testsupport/StoreDialects.h"

#include <QtCore/QTemporaryDir>
#include <algorithm>
#include <tuple>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>
#include <QtTest/QtTest>

using namespace Aile;

namespace {

/// A ledger row of the key on the day of atMs; the test sets the rest.
Store::LedgerEntry booked(int n, qint64 atMs, const QString &keyId, double costUsd, double listValueUsd)
{
    Store::LedgerEntry e;
    e.traceId = QStringLiteral("req_%1").arg(n);
    e.atMs = atMs;
    e.day = Store::utcDay(atMs);
    e.keyId = keyId;
    e.costUsd = costUsd;
    e.listValueUsd = listValueUsd;
    return e;
}

} // namespace

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

    void ledgerGroupsSumByKeyRouteAndTarget_data() { Test::addStoreDialects(); }
    void ledgerGroupsSumByKeyRouteAndTarget()
    {
        FRESH_STORE(location, "sums");
        Store::Store store(location);
        QString error;
        QVERIFY2(store.open(&error), qPrintable(error));
        constexpr qint64 Day = 1'800'000'000'000;
        int n = 0;
        const auto entryOn = [&](qint64 atMs, const QString &key, const QString &route, const QString &target, double cost, double listValue) {
            Store::LedgerEntry e = booked(++n, atMs, key, cost, listValue);
            e.route = route;
            e.target = target;
            return e;
        };
        const auto entry = [&](const QString &key, const QString &route, const QString &target, double cost, double listValue) {
            return entryOn(Day, key, route, target, cost, listValue);
        };
        const QString r = QStringLiteral("coding"), t1 = QStringLiteral("openai/gpt-5.2"), t2 = QStringLiteral("anthropic/claude-sonnet-5");
        QVERIFY(
            store.record(QList<Store::TraceRecord>(), {entry(QStringLiteral("k_1"), {}, {}, 0.5, 0), entry(QStringLiteral("k_1"), {}, {}, 0.25, 2),
                                                       entry(QStringLiteral("k_1"), r, t1, 0.125, 0), entry(QStringLiteral("k_1"), r, t1, 0.0625, 0),
                                                       entry(QStringLiteral("k_1"), r, t2, 1, 0), entry(QStringLiteral("k_2"), {}, {}, 4, 0.5),
                                                       entryOn(Day + 86'400'000, QStringLiteral("k_1"), {}, {}, 8, 0)})); // the next day
        QList<Store::LedgerGroup> sums = store.ledgerGroups({Store::utcDay(Day)});
        std::sort(sums.begin(), sums.end(),
                  [](const auto &x, const auto &y) { return std::tie(x.keyId, x.route, x.target) < std::tie(y.keyId, y.route, y.target); });
        QCOMPARE(sums.size(), 4);
        QCOMPARE(sums[0].keyId, QStringLiteral("k_1"));
        QVERIFY(sums[0].route.isEmpty() && sums[0].target.isEmpty());
        QCOMPARE(sums[0].costUsd, 0.75);
        QCOMPARE(sums[0].listValueUsd, 2.0);
        QCOMPARE(sums[1].route, r);
        QCOMPARE(sums[1].target, t2);
        QCOMPARE(sums[1].costUsd, 1.0);
        QCOMPARE(sums[2].target, t1);
        QCOMPARE(sums[2].costUsd, 0.1875);
        QCOMPARE(sums[3].keyId, QStringLiteral("k_2"));
        QCOMPARE(sums[3].costUsd, 4.0);
        QCOMPARE(sums[3].listValueUsd, 0.5);
        QVERIFY(store.ledgerGroups({QStringLiteral("2000-01-01")}).isEmpty());

        // The engine's book reads them as the per-slot sums the ledger holds.
        Billing::SpendBook book;
        book.attach(&store);
        const QString day = Store::utcDay(Day);
        QCOMPARE(book.spent(day, QStringLiteral("k_1")), 1.9375);
        QCOMPARE(book.spent(day, QStringLiteral("k_1"), r), 1.1875);
        QCOMPARE(book.spent(day, QStringLiteral("k_1"), r, t1), 0.1875);
        QCOMPARE(book.spent(day, QStringLiteral("k_1"), r, t2), 1.0);
        QCOMPARE(book.listValue(day, QStringLiteral("k_1")), 2.0);
        QCOMPARE(book.spent(day, QStringLiteral("k_2")), 4.0);
        for (const QString &key : {QStringLiteral("k_1"), QStringLiteral("k_2")})
            QCOMPARE(book.spent(day, key), store.spent(day, key));
        QCOMPARE(book.spent(Store::utcDay(Day + 86'400'000), QStringLiteral("k_1")), 8.0);
    }

    void usageSummedByTheDatabaseIsTheLedgersSum_data() { Test::addStoreDialects(); }
    void usageSummedByTheDatabaseIsTheLedgersSum()
    {
        FRESH_STORE(location, "usage");
        Store::Store store(location);
        QString error;
        QVERIFY2(store.open(&error), qPrintable(error));
        constexpr qint64 Day = 1'800'000'000'000, Ms = 86'400'000;
        QList<Store::LedgerEntry> ledger;
        const auto add = [&](qint64 atMs, const QString &key, const QString &sharer, bool plan, double cost, double listValue) {
            Store::LedgerEntry e = booked(int(ledger.size()), atMs, key, cost, listValue);
            e.sharer = sharer;
            e.subscription = plan;
            ledger.append(e);
        };
        const QString a = QStringLiteral("L00000000000000a1"), b = QStringLiteral("L00000000000000b2");
        for (int i = 0; i < 5; ++i)
            add(Day + i, QStringLiteral("k_1"), a, false, 0.5, 0);
        add(Day + 10, QStringLiteral("k_2"), a, false, 0.25, 0);
        ledger.last().route = QStringLiteral("coding");
        add(Day + 11, QStringLiteral("k_1"), a, true, 0, 2); // the same sharer on its plan: a row of its own
        add(Day + Ms, QStringLiteral("k_2"), b, false, 0.125, 0);
        add(Day + Ms + 1, QStringLiteral("k_2"), b, false, 0.125, 0);
        ledger.last().route = QStringLiteral("coding");
        add(Day - 5 * Ms, QStringLiteral("k_1"), b, false, 64, 0); // outside the days asked for
        QVERIFY(store.record(QList<Store::TraceRecord>(), ledger));
        const QStringList days = Store::daysUpTo(Day + Ms, 2);
        for (const QString &key : {QString(), QStringLiteral("k_1"), QStringLiteral("k_2")}) {
            const Store::UsageSummary summed = Store::readUsage(store, days, key);
            QCOMPARE(summed.toJson(), Store::summarizeUsage(days, ledger, {}, key).toJson());
        }
        // The charts' spend and usage: the same sums as the ledger rows give.
        Api::Charts::ChartAsk ask;
        ask.now = Day + Ms;
        ask.days = 2;
        const QHash<QString, QString> keyNames{{QStringLiteral("k_1"), QStringLiteral("alpha")}};
        const Api::Charts::ChartFigures figures = Api::Charts::readFigures(&store, ask, keyNames);
        const auto byKey = [&](const Store::LedgerEntry &e) { return keyNames.value(e.keyId, e.keyId); };
        const auto byRoute = [](const Store::LedgerEntry &e) { return e.route; };
        for (const auto &[got, want] : {std::pair{figures.spendByKey, Api::Charts::spendPerDay(days, ledger, byKey)},
                                        std::pair{figures.spendByRoute, Api::Charts::spendPerDay(days, ledger, byRoute)}}) {
            QCOMPARE(got.days, want.days);
            QCOMPARE(got.names, want.names);
            QCOMPARE(got.usd, want.usd);
        }
        QCOMPARE(figures.spendByKey.names, (QStringList{QStringLiteral("alpha"), QStringLiteral("k_2")}));
        QCOMPARE(figures.spendByRoute.names, (QStringList{QString(), QStringLiteral("coding")}));
        QCOMPARE(figures.usage.toJson(), Store::summarizeUsage(days, ledger, {}).toJson());

        const Store::UsageSummary all = Store::readUsage(store, days);
        QCOMPARE(all.sharers.size(), 3);
        QCOMPARE(all.requestsOn(0), 7);
        QCOMPARE(all.requestsOn(1), 2);
        QCOMPARE(all.spentOn(0), 2.75);
        QCOMPARE(all.listValueOn(0), 2.0);
        QCOMPARE(all.spentOn(1), 0.25);
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
