// Issue 17, what a subscription costs (docs/subscriptions.md "What it costs"): a request served
// on a plan spends nothing and its ledger row keeps the usage's list-price value apart; an API key
// spends its price and has no list value; GET /keys/usage/spend returns both, never added; the
// key's spend limit counts money only; a ledger (and a ledger journal) from before stays readable.
#include "SubscriptionFixture.h"

#include "store/LedgerJournal.h"
#include "store/UsageSummary.h"

#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>

using namespace Aile;
using namespace Aile::Test;

namespace {
const QStringList Sonnet{QStringLiteral("claude-sonnet-5")};
constexpr const char *StoredToken = "sk-ant-oat01-stored-setup-token-value";

// claude-sonnet-5 at list (catalogue): $2 in, $10 out, $0.2 cache read, $2.5 cache write per Mtok.
// 1,000 in + 500 out + 10,000 cache read + 2,000 cache write = (2,000 + 5,000 + 2,000 + 5,000) / 1e6.
constexpr double ListValue = 0.014;

// An Anthropic answer with cache reads and writes beside its input and output.
Script answerWithCache()
{
    Script s = FakeUpstream::messagesAnswer(QStringLiteral("Hello!"), 1000, 500);
    QJsonObject body = QJsonDocument::fromJson(s.body).object();
    body.insert(QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 1000},
                                                     {QStringLiteral("output_tokens"), 500},
                                                     {QStringLiteral("cache_read_input_tokens"), 10000},
                                                     {QStringLiteral("cache_creation_input_tokens"), 2000}});
    s.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    return s;
}

Store::LedgerEntry onlyEntry(SubscriptionFixture &f)
{
    f.lastTrace(); // waits for the store writer
    const QList<Store::LedgerEntry> rows = f.engine->context().store->ledger(Store::utcDay(f.clock.nowMs()));
    return rows.isEmpty() ? Store::LedgerEntry{} : rows.last();
}
} // namespace

class TestPlanValue : public QObject
{
    Q_OBJECT
private:
    using F = SubscriptionFixture;
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    // The subscription (priced on its sheet at 50% of list, which must not matter) above the API key.
    static bool start(F &f, const QString &credential, const QJsonObject &keyRouting = {})
    {
        QJsonObject sub = F::clientLoginSharer(F::Sub, QStringLiteral("claude"), Sonnet, {});
        sub.insert(QStringLiteral("name"), QStringLiteral("Claude Max"));
        sub.insert(QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 50}});
        if (credential != QLatin1String("client")) {
            qputenv("AILE_T_PLAN_TOKEN", StoredToken);
            sub.insert(QStringLiteral("credential"), QStringLiteral("env:AILE_T_PLAN_TOKEN"));
        }
        QJsonObject key = sharer(F::Key, QStringLiteral("claude"), {}, Sonnet);
        key.insert(QStringLiteral("name"), QStringLiteral("Anthropic API key"));
        if (!f.startWith(QJsonArray{sub, key}))
            return false;
        if (!keyRouting.isEmpty())
            f.engine->context().keys.first().routing = keyRouting;
        return true;
    }
    static QString aileUsage(F &f, const QStringList &args)
    {
        QProcess cli;
        cli.start(QStringLiteral(AILE_BIN),
                  QStringList{QStringLiteral("usage")} + args
                      + QStringList{QStringLiteral("--url"), f.engine->baseUrl(), QStringLiteral("--admin-token-file"), adminTokenFile()});
        if (!cli.waitForStarted())
            return {};
        // The engine answers on this thread: wait in an event loop, not a blocking call.
        QEventLoop loop;
        QObject::connect(&cli, &QProcess::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(20000, &loop, &QEventLoop::quit);
        if (cli.state() != QProcess::NotRunning)
            loop.exec();
        return QString::fromUtf8(cli.readAllStandardOutput() + cli.readAllStandardError());
    }
    static Headers loginOf(const QString &credential)
    {
        // A stored token serves any client: the SDK with its local key as Bearer.
        return credential == QLatin1String("client") ? F::claudeCodeLogin() : Headers{{"authorization", QByteArray("Bearer ") + TestKey}};
    }
    static QByteArray bodyFor(const QString &credential)
    {
        return F::messagesBody(credential == QLatin1String("client") ? QStringLiteral("claude-sonnet-5") : QStringLiteral("claude/claude-sonnet-5"));
    }

private Q_SLOTS:
    void aRequestServedOnAPlanSpendsNothingAndKeepsItsListValue_data()
    {
        QTest::addColumn<QString>("credential");
        QTest::newRow("the tool's own login") << QStringLiteral("client");
        QTest::newRow("a stored subscription token") << QStringLiteral("stored");
    }
    void aRequestServedOnAPlanSpendsNothingAndKeepsItsListValue()
    {
        QFETCH(QString, credential);
        F f;
        QVERIFY(start(f, credential));
        f.upstream->enqueue(answerWithCache());
        const Reply r = f.postAs(QStringLiteral("/v1/messages"), bodyFor(credential), loginOf(credential));
        QCOMPARE(r.status, 200);
        QCOMPARE(F::servedBy(r), F::Sub.toLatin1());
        const Store::LedgerEntry e = onlyEntry(f);
        QCOMPARE(e.sharer, F::Sub);
        QVERIFY(e.subscription);
        QCOMPARE(e.costUsd, 0.0);
        QVERIFY2(qAbs(e.listValueUsd - ListValue) < 1e-12, qPrintable(QString::number(e.listValueUsd, 'g', 17)));
        QCOMPARE(f.lastTrace().value(QLatin1String("costUsd")).toDouble(), 0.0);
    }

    void anApiKeySpendsItsPriceAndHasNoListValue()
    {
        F f;
        QVERIFY(start(f, QStringLiteral("client")));
        // No login on this request: the client-login sharer is passed over, the API key serves.
        f.upstream->enqueue(answerWithCache());
        const Reply r = f.postAs(QStringLiteral("/v1/messages"), bodyFor(QStringLiteral("stored")), loginOf(QStringLiteral("stored")));
        QCOMPARE(r.status, 200);
        QCOMPARE(F::servedBy(r), F::Key.toLatin1());
        const Store::LedgerEntry e = onlyEntry(f);
        QCOMPARE(e.sharer, F::Key);
        QVERIFY(!e.subscription);
        QVERIFY2(qAbs(e.costUsd - ListValue) < 1e-12, qPrintable(QString::number(e.costUsd, 'g', 17)));
        QCOMPARE(e.listValueUsd, 0.0);
    }

    void theSpendEndpointReturnsMoneyAndPlanValueApart()
    {
        F f;
        QVERIFY(start(f, QStringLiteral("client")));
        for (int i = 0; i < 2; ++i) {
            f.upstream->enqueue(answerWithCache());
            QCOMPARE(f.postAs(QStringLiteral("/v1/messages"), bodyFor(QStringLiteral("client")), F::claudeCodeLogin()).status, 200);
        }
        f.upstream->enqueue(answerWithCache());
        QCOMPARE(f.postAs(QStringLiteral("/v1/messages"), bodyFor(QStringLiteral("stored")), loginOf(QStringLiteral("stored"))).status, 200);

        const Reply r = f.admin(QStringLiteral("GET"), QStringLiteral("/keys/usage/spend?days=3"));
        QCOMPARE(r.status, 200);
        const QJsonObject o = r.json();
        QCOMPARE(o.value(QLatin1String("days")).toArray().size(), 3);
        QCOMPARE(o.value(QLatin1String("days")).toArray().last().toString(), Store::utcDay(f.clock.nowMs()));
        const QJsonObject today = o.value(QLatin1String("today")).toObject();
        QVERIFY(qAbs(today.value(QLatin1String("spentUsd")).toDouble() - ListValue) < 1e-12);
        QVERIFY(qAbs(today.value(QLatin1String("listValueUsd")).toDouble() - 2 * ListValue) < 1e-12);
        QCOMPARE(today.value(QLatin1String("requests")).toInt(), 3);
        // Per sharer: the plan first, with its value and no money; then the key, with its money.
        const Store::UsageSummary u = Store::UsageSummary::fromJson(o);
        QCOMPARE(u.sharers.size(), 2);
        QCOMPARE(u.sharers.at(0).name, QStringLiteral("Claude Max"));
        QVERIFY(u.sharers.at(0).subscription);
        QCOMPARE(u.sharers.at(0).totalSpent(), 0.0);
        QVERIFY(qAbs(u.sharers.at(0).listValueUsd.last() - 2 * ListValue) < 1e-12);
        QCOMPARE(u.sharers.at(0).requests.last(), 2);
        QCOMPARE(u.sharers.at(1).name, QStringLiteral("Anthropic API key"));
        QVERIFY(!u.sharers.at(1).subscription);
        QCOMPARE(u.sharers.at(1).totalListValue(), 0.0);
        QCOMPARE(u.sharers.at(0).listValueUsd.first(), 0.0); // two days before: nothing

        // GET /keys: the key's money today, and beside it what its plan requests were worth.
        const QJsonObject key =
            f.admin(QStringLiteral("GET"), QStringLiteral("/keys")).json().value(QLatin1String("keys")).toArray().first().toObject();
        QVERIFY(qAbs(key.value(QLatin1String("spentTodayUsd")).toDouble() - ListValue) < 1e-12);
        QVERIFY(qAbs(key.value(QLatin1String("listValueTodayUsd")).toDouble() - 2 * ListValue) < 1e-12);

        // aile usage prints the same figures, apart.
        const QString printed = aileUsage(f, {QStringLiteral("--days"), QStringLiteral("3")});
        QVERIFY2(printed.contains(QStringLiteral("Claude Max served $0.0280 of list-price usage; API keys cost $0.0140")), qPrintable(printed));
        QVERIFY2(printed.contains(QRegularExpression(QStringLiteral("Claude Max +subscription +\\$0\\.00 +\\$0\\.0280"))), qPrintable(printed));
        QVERIFY2(printed.contains(QRegularExpression(QStringLiteral("Anthropic API key +api-key +\\$0\\.0140 +-"))), qPrintable(printed));

        // One key's figures, and the clear refusals.
        QCOMPARE(f.admin(QStringLiteral("GET"), QStringLiteral("/keys/usage/spend?key=nobody")).status, 404);
        const Reply bad = f.admin(QStringLiteral("GET"), QStringLiteral("/keys/usage/spend?days=0"));
        QCOMPARE(bad.status, 400);
        QVERIFY(errorMessage(bad).contains(QLatin1String("from 1 to 90")));
    }

    void theSpendLimitCountsMoneyNotPlanValue()
    {
        // A limit far below one request's list value: the plan's requests never reach it.
        F f;
        QVERIFY(start(f, QStringLiteral("client"), {{QStringLiteral("spendLimitUsdPerDay"), 0.001}}));
        for (int i = 0; i < 3; ++i) {
            f.upstream->enqueue(answerWithCache());
            const Reply r = f.postAs(QStringLiteral("/v1/messages"), bodyFor(QStringLiteral("client")), F::claudeCodeLogin());
            QCOMPARE(r.status, 200);
            f.lastTrace();
        }
        // The API key's one answer ($0.014) spends past it: the next request is refused.
        f.upstream->enqueue(answerWithCache());
        QCOMPARE(f.postAs(QStringLiteral("/v1/messages"), bodyFor(QStringLiteral("stored")), loginOf(QStringLiteral("stored"))).status, 200);
        f.lastTrace();
        QCOMPARE(f.postAs(QStringLiteral("/v1/messages"), bodyFor(QStringLiteral("client")), F::claudeCodeLogin()).status, 403);
    }

    void aLedgerFromBeforeStaysReadable()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("old.db"));
        {
            // A schema-5 ledger table (migration 1's), with one row an API key booked.
            QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("schema5"));
            d.setDatabaseName(path);
            QVERIFY(d.open());
            QSqlQuery q(d);
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE ledger(id INTEGER PRIMARY KEY AUTOINCREMENT, trace_id TEXT, at_ms INTEGER NOT NULL,"
                                          " day TEXT NOT NULL, key_id TEXT, route TEXT, target TEXT, sharer TEXT, cost_usd REAL NOT NULL,"
                                          " absorbed_usd REAL NOT NULL)")));
            // Later migrations alter the traces table too: it exists in a schema-5 store (only its key matters here).
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE traces(id TEXT PRIMARY KEY)")));
            QVERIFY(q.exec(QStringLiteral("INSERT INTO ledger(trace_id, at_ms, day, key_id, route, target, sharer, cost_usd, absorbed_usd)"
                                          " VALUES('t1', 1, '2026-11-30', 'k1', '', 'claude/claude-sonnet-5', 'L000000000000a9e1', 0.25, 0)")));
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version=5")));
            d.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("schema5"));
        Store::Store store(path);
        QString error;
        QVERIFY2(store.open(&error), qPrintable(error));
        QCOMPARE(store.schemaVersion(), Store::Store::latestSchemaVersion());
        const QList<Store::LedgerEntry> rows = store.ledger(QStringLiteral("2026-11-30"));
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().costUsd, 0.25);
        QVERIFY(!rows.first().subscription);
        QCOMPARE(rows.first().listValueUsd, 0.0);
        QCOMPARE(store.spent(QStringLiteral("2026-11-30"), QStringLiteral("k1")), 0.25);
    }

    void aJournalRecordFromBeforeIsReplayed()
    {
        // The record an earlier build wrote for one request: its magic is "AIL1", its ledger row
        // ends before the subscription flag (1 byte) and the list value (8 bytes), and its trace
        // before the session (a null string: 4 bytes) and the output cap (8 bytes), which "AIL3"
        // added. Cut out of today's record: its trace fields, then the counts and the ledger row.
        Store::TraceRecord t;
        t.id = QStringLiteral("req-old");
        Store::LedgerEntry e;
        e.traceId = t.id;
        e.day = QStringLiteral("2026-11-30");
        e.sharer = F::Key;
        e.costUsd = 0.5;
        const QByteArray alone = Store::LedgerJournal::line(t, {}).mid(8); // trace fields, 0 attempts, 0 ledger rows
        const QByteArray entry = Store::LedgerJournal::line(t, {e}).mid(8 + alone.size());
        QByteArray payload = alone.chopped(8 + 12) + QByteArray::fromHex("0000000000000001") + entry.chopped(9);
        QByteArray record;
        QDataStream head(&record, QIODevice::WriteOnly);
        head.setVersion(QDataStream::Qt_6_4);
        head << quint32(0x41494c31) << quint32(payload.size());
        record += payload;
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("ledger-journal-000001.bin")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(record);
        file.close();
        QStringList files;
        const QList<Store::JournalRecord> replayed = Store::LedgerJournal(dir.path()).leftOver(&files);
        QCOMPARE(replayed.size(), 1);
        QCOMPARE(replayed.first().trace.id, QStringLiteral("req-old"));
        QCOMPARE(replayed.first().ledger.size(), 1);
        QCOMPARE(replayed.first().ledger.first().costUsd, 0.5);
        QVERIFY(!replayed.first().ledger.first().subscription);
    }
};

QTEST_GUILESS_MAIN(TestPlanValue)
#include "TestPlanValue.moc"
