// Issue 5, the key management API: list, create (the plain key once), read, edit with the documented
// validation (applied without a restart), revoke (401 on the proxy); the aile keys CLI.
#include "engine/routing/RoutingFixture.h"

#include "store/StoreReader.h"

#include <QtCore/QProcess>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlError>
#include <QtSql/QSqlQuery>

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1");
const QString B = QStringLiteral("L00000000000000a2");
QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}
} // namespace

class TestKeysApi : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

    Reply admin(const QString &method, const QString &path, const QJsonObject &body = {})
    {
        return send(method, f.engine->baseUrl() + path, body.isEmpty() ? QByteArray() : json(body),
                    {{"authorization", QByteArray("Bearer ") + AdminToken}});
    }
    QString testKeyId()
    {
        for (const QJsonValue &v : admin(QStringLiteral("GET"), QStringLiteral("/keys")).json().value(QLatin1String("keys")).toArray())
            if (!v.toObject().value(QLatin1String("revoked")).toBool())
                return v.toObject().value(QLatin1String("id")).toString();
        return {};
    }
    Reply putRouting(const QJsonObject &routing)
    {
        return admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + testKeyId(), QJsonObject{{QStringLiteral("routing"), routing}});
    }
    QString refusal(const QJsonObject &routing)
    {
        const Reply r = putRouting(routing);
        return r.status == 400 ? errorMessage(r) : QStringLiteral("status %1").arg(r.status);
    }
    Reply chatWith(const QByteArray &plain)
    {
        return send(QStringLiteral("POST"), f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"),
                    RoutingFixture::chatBody(QStringLiteral("openai/gpt-5.2")), {{"authorization", QByteArray("Bearer ") + plain}});
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}),
                                   sharer(B, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")})}));
    }

    void listingNeverShowsTheSecretOrItsHash()
    {
        const Reply r = admin(QStringLiteral("GET"), QStringLiteral("/keys"));
        QCOMPARE(r.status, 200);
        const QJsonArray keys = r.json().value(QLatin1String("keys")).toArray();
        QCOMPARE(keys.size(), 1);
        const QJsonObject k = keys.first().toObject();
        for (const char *field : {"id", "name", "prefix", "createdMs", "revoked", "routing", "routes", "spentTodayUsd"})
            QVERIFY2(k.contains(QLatin1String(field)), field);
        QVERIFY(!k.contains(QLatin1String("hash")));
        QVERIFY(!r.body.contains(TestKey));
        QVERIFY(!r.body.contains(Keys::hashKey(QLatin1String(TestKey)).toLatin1()));
    }

    void createShowsThePlainKeyOnceAndItWorks()
    {
        const Reply r = admin(QStringLiteral("POST"), QStringLiteral("/keys"), QJsonObject{{QStringLiteral("name"), QStringLiteral("ci")}});
        QCOMPARE(r.status, 201);
        const QString plain = r.json().value(QLatin1String("plain")).toString();
        QVERIFY(plain.startsWith(QLatin1String("sk-aile-")));
        const QString id = r.json().value(QLatin1String("key")).toObject().value(QLatin1String("id")).toString();
        QVERIFY(id.startsWith(QLatin1String("k_")));
        // Never again: not in GET /keys/{id}, not in the listing.
        const Reply one = admin(QStringLiteral("GET"), QStringLiteral("/keys/") + id);
        QCOMPARE(one.status, 200);
        QCOMPARE(one.json().value(QLatin1String("key")).toObject().value(QLatin1String("name")).toString(), QStringLiteral("ci"));
        QVERIFY(!one.body.contains(plain.toLatin1()));
        QVERIFY(!admin(QStringLiteral("GET"), QStringLiteral("/keys")).body.contains(plain.toLatin1()));
        QCOMPARE(chatWith(plain.toLatin1()).status, 200);
        // Kept across a restart (stored hashed).
        QVERIFY(f.engine->restart());
        QCOMPARE(chatWith(plain.toLatin1()).status, 200);
        // The same name twice is a conflict.
        QCOMPARE(admin(QStringLiteral("POST"), QStringLiteral("/keys"), QJsonObject{{QStringLiteral("name"), QStringLiteral("ci")}}).status, 409);
        QCOMPARE(admin(QStringLiteral("POST"), QStringLiteral("/keys"), QJsonObject{{QStringLiteral("name"), QString()}}).status, 400);
        QCOMPARE(admin(QStringLiteral("GET"), QStringLiteral("/keys/k_nothere")).status, 404);
    }

    void createWithRoutingIsValidatedToo()
    {
        const Reply bad = admin(
            QStringLiteral("POST"), QStringLiteral("/keys"),
            QJsonObject{{QStringLiteral("name"), QStringLiteral("x")}, {QStringLiteral("routing"), QJsonObject{{QStringLiteral("maxCostUsd"), 0}}}});
        QCOMPARE(bad.status, 400);
        QVERIFY(errorMessage(bad).contains(QLatin1String("routing.maxCostUsd")));
        const Reply good = admin(
            QStringLiteral("POST"), QStringLiteral("/keys"),
            QJsonObject{{QStringLiteral("name"), QStringLiteral("x")},
                        {QStringLiteral("routing"), QJsonObject{{QStringLiteral("neverSharers"), QJsonArray{QStringLiteral("L00000000000000A1")}}}}});
        QCOMPARE(good.status, 201);
        // Handles are stored canonical.
        QCOMPARE(good.json()
                     .value(QLatin1String("key"))
                     .toObject()
                     .value(QLatin1String("routing"))
                     .toObject()
                     .value(QLatin1String("neverSharers"))
                     .toArray()
                     .first()
                     .toString(),
                 A);
    }

    void everySettingIsValidatedWithItsName_data()
    {
        QTest::addColumn<QJsonObject>("routing");
        QTest::addColumn<QString>("says");
        auto row = [](const char *name, const QJsonObject &o, const char *says) { QTest::newRow(name) << o << QString::fromLatin1(says); };
        QJsonArray fiftyOne;
        for (int i = 0; i < 51; ++i)
            fiftyOne.append(QStringLiteral("L%1").arg(i, 16, 16, QLatin1Char('0')));
        row("unknown", {{"maxCost", 1}}, "routing.maxCost is not a key routing setting");
        row("cost zero", {{"maxCostUsd", 0}}, "routing.maxCostUsd: 0 is not a cost cap");
        row("cost too high", {{"maxCostUsd", 10000.5}}, "at most 10,000");
        row("cost decimals", {{"maxCostUsd", 0.1234567}}, "at most 6 decimals");
        row("percent range", {{"maxPricePercent", 0}}, "routing.maxPricePercent must be a number above 0");
        row("floor range", {{"minPricePercent", 150}}, "routing.minPricePercent must be a number above 0 and at most 100");
        row("floor above limit", {{"maxPricePercent", 50}, {"minPricePercent", 60}},
            "routing.minPricePercent (60% of list) sits above this key's own discount limit");
        row("prefer", {{"prefer", "fast"}}, "routing.prefer takes price or speed");
        row("data", {{"dataCollection", "no"}}, "routing.dataCollection takes allow or deny");
        row("bool", {{"demoteFailing", "yes"}}, "routing.demoteFailing must be true or false");
        row("spend", {{"spendLimitUsdPerDay", -1}}, "routing.spendLimitUsdPerDay must be a number above 0");
        row("handle", {{"onlySharers", QJsonArray{"bob"}}}, "routing.onlySharers: \"bob\" is not a sharer handle");
        row("too many", {{"neverSharers", fiftyOne}}, "routing.neverSharers names 51 sharers; at most 50");
        row("provider", {{"excludeProviders", QJsonArray{"acme"}}}, "routing.excludeProviders: unknown provider \"acme\"");
        row("both lists", {{"onlySharers", QJsonArray{A}}, {"neverSharers", QJsonArray{A.toLower()}}},
            "is both allowed (routing.onlySharers) and blocked");
        row("pin beside list", {{"onlySharers", QJsonArray{A}}, {"sharer", B}}, "routing.onlySharers cannot sit beside the single sharer pin");
        row("pin excluded", {{"provider", "openai"}, {"excludeProviders", QJsonArray{"openai"}}},
            "routing.provider pins provider openai, which routing.excludeProviders leaves out");
    }
    void everySettingIsValidatedWithItsName()
    {
        QFETCH(QJsonObject, routing);
        QFETCH(QString, says);
        const QString message = refusal(routing);
        QVERIFY2(message.contains(says), qPrintable(message));
        // Nothing was stored.
        QCOMPARE(admin(QStringLiteral("GET"), QStringLiteral("/keys/") + testKeyId())
                     .json()
                     .value(QLatin1String("key"))
                     .toObject()
                     .value(QLatin1String("routing"))
                     .toObject(),
                 QJsonObject());
    }

    void theListsAreCheckedAgainstTheRoutes()
    {
        // A route from the configuration file targets openai, pinned to A.
        Keys::ApiKey &key = f.engine->context().keys.first();
        key.routes = QJsonArray{
            QJsonObject{{QStringLiteral("name"), QStringLiteral("coding")},
                        {QStringLiteral("targets"),
                         QJsonArray{QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}, {QStringLiteral("sharer"), A}}}}}};
        QString m = refusal({{QStringLiteral("excludeProviders"), QJsonArray{QStringLiteral("openai")}}});
        QVERIFY2(m.contains(QLatin1String("route \"coding\" targets openai/gpt-5.2"))
                     && m.contains(QLatin1String("change or remove that route first")),
                 qPrintable(m));
        m = refusal({{QStringLiteral("neverSharers"), QJsonArray{A}}});
        QVERIFY2(m.contains(QLatin1String("routing.neverSharers blocks L00000000000000a1")), qPrintable(m));
        m = refusal({{QStringLiteral("onlySharers"), QJsonArray{B}}});
        QVERIFY2(m.contains(QLatin1String("routing.onlySharers leaves off L00000000000000a1")), qPrintable(m));
        m = refusal(
            {{QStringLiteral("dataCollection"), QStringLiteral("deny")}, {QStringLiteral("excludeProviders"), QJsonArray{QStringLiteral("gemini")}}});
        QCOMPARE(m, QStringLiteral("status 200")); // openai does not train on API prompts
    }

    void anEditAppliesToTheNextRequestWithoutARestart()
    {
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 200);
        QCOMPARE(putRouting({{QStringLiteral("maxPricePercent"), 10}}).status, 200);
        const Reply r = f.chat(QStringLiteral("openai/gpt-5.2"));
        QCOMPARE(r.status, 503);
        QVERIFY2(errorMessage(r).contains(QLatin1String("every sharer online for openai/gpt-5.2 is priced above")), qPrintable(errorMessage(r)));
        // Stored: still there after a restart.
        QVERIFY(f.engine->restart());
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 503);
        QCOMPARE(putRouting({}).status, 200);
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 200);
        // A rename.
        const Reply renamed =
            admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + testKeyId(), QJsonObject{{QStringLiteral("name"), QStringLiteral("renamed")}});
        QCOMPARE(renamed.json().value(QLatin1String("key")).toObject().value(QLatin1String("name")).toString(), QStringLiteral("renamed"));
    }

    void revokingAKeyShutsTheProxyToIt()
    {
        const QString id = testKeyId();
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 200);
        const Reply r = admin(QStringLiteral("DELETE"), QStringLiteral("/keys/") + id);
        QCOMPARE(r.status, 200);
        QVERIFY(r.json().value(QLatin1String("key")).toObject().value(QLatin1String("revoked")).toBool());
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 401);
        QCOMPARE(admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + id, QJsonObject{{QStringLiteral("name"), QStringLiteral("z")}}).status, 409);
        QVERIFY(f.engine->restart());
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 401);
    }

    void spentTodayComesFromTheLedger()
    {
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 200);
        const double spent = f.spentToday();
        QVERIFY(spent > 0);
        const QJsonObject k = admin(QStringLiteral("GET"), QStringLiteral("/keys/") + testKeyId()).json().value(QLatin1String("key")).toObject();
        QCOMPARE(k.value(QLatin1String("spentTodayUsd")).toDouble(), spent);
    }

    void todaysSpendIsReadWhenTheEngineStarts()
    {
        // Read at the first request, a busy day's ledger kept every request in flight waiting
        // (~200 ms at 100,000 rows): the engine reads today's sums before it listens
        // (docs/performance.md, "Change 22 (spend)").
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 200);
        const double spent = f.spentToday(); // waits for the writer
        QVERIFY(spent > 0);
        QVERIFY(f.engine->restart());
        {
            // The day's rows go once the engine has started: what it shows is what it read then.
            QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("outside"));
            d.setDatabaseName(QDir(f.engine->dataDir()).filePath(QStringLiteral("data/aile.db")));
            d.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
            QVERIFY(d.open());
            QSqlQuery q(d);
            QVERIFY2(q.exec(QStringLiteral("DELETE FROM ledger")), qPrintable(q.lastError().text()));
            d.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("outside"));
        QCOMPARE(f.engine->context().store->ledger(Store::utcDay(f.clock.nowMs())).size(), 0);
        const QJsonObject k = admin(QStringLiteral("GET"), QStringLiteral("/keys/") + testKeyId()).json().value(QLatin1String("key")).toObject();
        QCOMPARE(k.value(QLatin1String("spentTodayUsd")).toDouble(), spent);
    }

    void theUsageCallsReadTheStoreOffTheEngineThread()
    {
        // A busy day's ledger or a page of traces read on the engine thread held every request in
        // flight (docs/performance.md, "Change 23 (history)").
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 200);
        Store::StoreReader *reader = f.engine->context().history;
        QVERIFY(reader);
        QTRY_VERIFY(reader->isOpen());
        QStringList ran;
        QList<Qt::HANDLE> threads;
        connect(
            reader, &Store::StoreReader::ran, this,
            [&](const QString &what, Qt::HANDLE thread) {
                ran << what;
                threads << thread;
            },
            Qt::DirectConnection);
        const Reply spend = admin(QStringLiteral("GET"), QStringLiteral("/keys/usage/spend?days=1"));
        const Reply charts = admin(QStringLiteral("GET"), QStringLiteral("/keys/usage/charts"));
        const Reply requests = admin(QStringLiteral("GET"), QStringLiteral("/keys/usage/requests"));
        QCOMPARE(spend.status, 200);
        QCOMPARE(charts.status, 200);
        QCOMPARE(requests.status, 200);
        QCOMPARE(ran, (QStringList{QStringLiteral("usage spend"), QStringLiteral("usage charts"), QStringLiteral("usage requests")}));
        for (Qt::HANDLE thread : threads)
            QVERIFY(thread != QThread::currentThreadId()); // the engine's thread in this test
        // What they read is what was recorded.
        QCOMPARE(requests.json().value(QLatin1String("total")).toInt(), 1);
        QCOMPARE(requests.json().value(QLatin1String("data")).toArray().size(), 1);
        const QJsonObject today = spend.json().value(QLatin1String("today")).toObject();
        QCOMPARE(today.value(QLatin1String("requests")).toInt(), 1);
        QCOMPARE(today.value(QLatin1String("spentUsd")).toDouble(), f.spentToday());
    }

    void theCliListsCreatesAndRevokes()
    {
        auto run = [&](const QStringList &args, QString *out) {
            QProcess cli;
            cli.start(QStringLiteral(AILE_BIN),
                      QStringList{QStringLiteral("keys")} + args
                          + QStringList{QStringLiteral("--url"), f.engine->baseUrl(), QStringLiteral("--admin-token-file"), adminTokenFile()});
            if (!cli.waitForStarted())
                return -1;
            if (cli.state() != QProcess::NotRunning) {
                // The engine answers on this thread: wait in an event loop, not a blocking call.
                QEventLoop loop;
                QObject::connect(&cli, &QProcess::finished, &loop, &QEventLoop::quit);
                QTimer::singleShot(20000, &loop, &QEventLoop::quit);
                loop.exec();
            }
            *out = QString::fromUtf8(cli.readAllStandardOutput() + cli.readAllStandardError());
            return cli.exitCode();
        };
        QString out;
        QCOMPARE(run({QStringLiteral("create"), QStringLiteral("from cli")}, &out), 0);
        QVERIFY2(out.contains(QLatin1String("sk-aile-")) && out.contains(QLatin1String("only time")), qPrintable(out));
        const QString plain = out.section(QLatin1Char('\n'), 1, 1).trimmed();
        QCOMPARE(chatWith(plain.toLatin1()).status, 200);
        QCOMPARE(run({}, &out), 0);
        QVERIFY2(out.contains(QLatin1String("from cli")) && !out.contains(plain), qPrintable(out));
        QCOMPARE(run({QStringLiteral("revoke"), QStringLiteral("from cli")}, &out), 0);
        QCOMPARE(chatWith(plain.toLatin1()).status, 401);
        QCOMPARE(run({QStringLiteral("list")}, &out), 0);
        QVERIFY2(out.contains(QLatin1String("revoked")), qPrintable(out));
        QCOMPARE(run({QStringLiteral("revoke"), QStringLiteral("nobody")}, &out), 1);
    }
};

QTEST_GUILESS_MAIN(TestKeysApi)
#include "TestKeysApi.moc"
