// The ledger is durable: what the engine committed survives kill -9, and the database stays sound.
#include "store/Store.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>
#include <QtTest/QtTest>

#include <csignal>

using namespace Aile;
using namespace Aile::Test;

namespace {

// Starts `aile serve` on a free port and returns its base URL once it listens (empty on failure).
QString serve(QProcess &aile, const QString &dataDir, const QString &config)
{
    aile.setProcessChannelMode(QProcess::SeparateChannels);
    aile.start(QStringLiteral(AILE_BIN), {QStringLiteral("serve"), QStringLiteral("--data-dir"), dataDir, QStringLiteral("--listen"),
                                         QStringLiteral("127.0.0.1:0"), QStringLiteral("--config"), config});
    if (!aile.waitForStarted())
        return {};
    QByteArray out;
    if (!QTest::qWaitFor([&] { return (out += aile.readAllStandardOutput()).contains("listening on 127.0.0.1:"); }, 10000))
        return {};
    const QByteArray line = out.mid(out.indexOf("listening on 127.0.0.1:") + 23);
    return QStringLiteral("http://127.0.0.1:%1").arg(line.left(line.indexOf('\n')).toInt());
}

} // namespace

class TestDurability : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ledgerSurvivesKillNine()
    {
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        QTemporaryDir dir;
        QFile cfg(dir.filePath(QStringLiteral("config.json")));
        QVERIFY(cfg.open(QIODevice::WriteOnly));
        cfg.write(QJsonDocument(basicConfig(upstream.baseUrl())).toJson());
        cfg.close();

        QProcess aile;
        const QString base = serve(aile, dir.filePath(QStringLiteral("data")), cfg.fileName());
        QVERIFY(!base.isEmpty());

        const QByteArray body = R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}]})";
        const QList<QPair<QByteArray, QByteArray>> auth{{"authorization", QByteArray("Bearer ") + TestKey}};
        QStringList served;
        for (int i = 0; i < 20; ++i) {
            const Reply r = send(QStringLiteral("POST"), base + QStringLiteral("/v1/chat/completions"), body, auth);
            QCOMPARE(r.status, 200);
            served << QString::fromLatin1(r.header("x-aile-request-id"));
        }
        // The traces endpoint answers once the writer has committed everything before it.
        const Reply traces = send(QStringLiteral("GET"), base + QStringLiteral("/keys/usage/requests?limit=100"), {},
                                  {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(traces.json().value(QLatin1String("data")).toArray().size(), 20);
        // More traffic, then kill -9 in the middle of it.
        for (int i = 0; i < 5; ++i)
            QCOMPARE(send(QStringLiteral("POST"), base + QStringLiteral("/v1/chat/completions"), body, auth).status, 200);
        ::kill(pid_t(aile.processId()), SIGKILL);
        QVERIFY(aile.waitForFinished(5000));

        Store::Store store(dir.filePath(QStringLiteral("data/aile.db")));
        QString error;
        QVERIFY2(store.open(&error), qPrintable(error));
        {
            QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("check"));
            d.setDatabaseName(dir.filePath(QStringLiteral("data/aile.db")));
            QVERIFY(d.open());
            QSqlQuery q(d);
            QVERIFY(q.exec(QStringLiteral("PRAGMA integrity_check")) && q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("ok"));
            d.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("check"));
        const QList<Store::LedgerEntry> ledger = store.ledger(Store::utcDay(QDateTime::currentMSecsSinceEpoch()));
        QStringList booked;
        for (const Store::LedgerEntry &e : ledger)
            booked << e.traceId;
        for (const QString &id : served)
            QVERIFY2(booked.contains(id), qPrintable(id));
        // Every trace that reached the disk has its ledger entry: they commit together.
        Store::TraceQuery all;
        all.limit = 1000;
        QCOMPARE(store.traceCount(all), int(ledger.size()));
    }

    void aRoutesDailyBudgetSurvivesKillNine()
    {
        // The route's spend is read back from the ledger after a kill -9: still spent today.
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        QTemporaryDir dir;
        QJsonObject config = basicConfig(upstream.baseUrl());
        QJsonArray keys = config.value(QLatin1String("keys")).toArray();
        QJsonObject key = keys.first().toObject();
        key.insert(QStringLiteral("routes"),
                   QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("coding")},
                                          {QStringLiteral("budgetUsdPerDay"), 0.00001},
                                          {QStringLiteral("targets"), QJsonArray{QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}}}}}});
        keys.replace(0, key);
        config.insert(QStringLiteral("keys"), keys);
        QFile cfg(dir.filePath(QStringLiteral("config.json")));
        QVERIFY(cfg.open(QIODevice::WriteOnly));
        cfg.write(QJsonDocument(config).toJson());
        cfg.close();

        const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("model"), QStringLiteral("coding")},
                                                          {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                                             {QStringLiteral("content"), QStringLiteral("hi")}}}}})
                                    .toJson(QJsonDocument::Compact);
        const QList<QPair<QByteArray, QByteArray>> auth{{"authorization", QByteArray("Bearer ") + TestKey}};
        {
            QProcess aile;
            const QString base = serve(aile, dir.filePath(QStringLiteral("data")), cfg.fileName());
            QVERIFY(!base.isEmpty());
            QCOMPARE(send(QStringLiteral("POST"), base + QStringLiteral("/v1/chat/completions"), body, auth).status, 200);
            // Committed once the traces endpoint lists it; then killed.
            QCOMPARE(send(QStringLiteral("GET"), base + QStringLiteral("/keys/usage/requests?limit=10"), {}, {{"authorization", QByteArray("Bearer ") + AdminToken}})
                         .json().value(QLatin1String("data")).toArray().size(), 1);
            ::kill(pid_t(aile.processId()), SIGKILL);
            QVERIFY(aile.waitForFinished(5000));
        }
        QProcess again;
        const QString base = serve(again, dir.filePath(QStringLiteral("data")), cfg.fileName());
        QVERIFY(!base.isEmpty());
        const Reply r = send(QStringLiteral("POST"), base + QStringLiteral("/v1/chat/completions"), body, auth);
        QCOMPARE(r.status, 402);
        QCOMPARE(r.json().value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString(),
                 QStringLiteral("route coding spent its $0.00001 daily budget; resets 00:00 UTC"));
        again.terminate();
        QVERIFY(again.waitForFinished(5000));
    }
};

QTEST_GUILESS_MAIN(TestDurability)
#include "TestDurability.moc"
