// The ledger is durable: what the engine committed survives kill -9, and the database stays sound.
#include "store/Store.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QProcess>
#include <QtCore/QRandomGenerator>
#include <QtCore/QSet>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>
#include <QtTest/QtTest>

#include <csignal>
#include <functional>

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

// Writes the configuration file `aile serve --config` reads; returns its path.
QString writeConfig(const QTemporaryDir &dir, const QJsonObject &config)
{
    QFile cfg(dir.filePath(QStringLiteral("config.json")));
    if (!cfg.open(QIODevice::WriteOnly))
        return {};
    cfg.write(QJsonDocument(config).toJson());
    return cfg.fileName();
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
        const QString config = writeConfig(dir, basicConfig(upstream.baseUrl()));
        QVERIFY(!config.isEmpty());

        QProcess aile;
        const QString base = serve(aile, dir.filePath(QStringLiteral("data")), config);
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

    void everyAnswerReceivedInFullIsBookedOnceAcrossKills()
    {
        // Issue 14: kill -9 at any moment loses no ledger row of a request whose answer the
        // client received in full, and never books one twice. The store writer's group commit is
        // made to lag the answers by 300 ms (a test seam), so every kill lands with answered
        // requests not yet in the database: only the journal written before the answer's last
        // bytes keeps them.
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        QTemporaryDir dir;
        const QString config = writeConfig(dir, basicConfig(upstream.baseUrl()));
        QVERIFY(!config.isEmpty());
        const QString data = dir.filePath(QStringLiteral("data"));
        qputenv("AILE_TEST_COMMIT_DELAY_MS", "300");
        QRandomGenerator draw(14); // where each round's kill lands, repeatably
        QSet<QString> received;
        int sent = 0;
        for (int round = 0; round < 12; ++round) {
            QProcess aile;
            const QString base = serve(aile, data, config);
            QVERIFY2(!base.isEmpty(), qPrintable(QString::fromUtf8(aile.readAllStandardError())));
            QNetworkAccessManager nam;
            const int killAfter = 2 + int(draw.bounded(12));
            int answered = 0;
            bool killed = false;
            std::function<void()> launch = [&] {
                // Streamed and whole answers alternate: both end with bytes held for the journal.
                const bool stream = (sent % 2) == 1;
                QNetworkRequest request(QUrl(base + QStringLiteral("/v1/chat/completions")));
                request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
                request.setRawHeader("authorization", QByteArray("Bearer ") + TestKey);
                const QByteArray body = QByteArray(R"({"model":"openai/gpt-5.2","stream":)") + (stream ? "true" : "false")
                                        + R"(,"messages":[{"role":"user","content":"hi"}]})";
                QNetworkReply *reply = nam.post(request, body);
                ++sent;
                QObject::connect(reply, &QNetworkReply::finished, reply, [&, reply, stream] {
                    reply->deleteLater();
                    if (killed)
                        return;
                    const QByteArray answer = reply->readAll();
                    const bool whole = reply->error() == QNetworkReply::NoError
                                       && reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200
                                       && (stream ? answer.contains("data: [DONE]") : !QJsonDocument::fromJson(answer).isNull());
                    if (whole)
                        received.insert(QString::fromLatin1(reply->rawHeader("x-aile-request-id")));
                    if (whole && ++answered >= killAfter) {
                        ::kill(pid_t(aile.processId()), SIGKILL); // with up to seven more in flight
                        killed = true;
                        return;
                    }
                    launch();
                });
            };
            for (int i = 0; i < 8; ++i)
                launch();
            QTRY_VERIFY_WITH_TIMEOUT(killed, 30000);
            QVERIFY(aile.state() == QProcess::NotRunning || aile.waitForFinished(5000));
            QTRY_VERIFY_WITH_TIMEOUT(nam.findChildren<QNetworkReply *>().isEmpty(), 10000);
        }
        qunsetenv("AILE_TEST_COMMIT_DELAY_MS");
        // One more start replays what the last kill left, and the store opens cleanly.
        {
            QProcess aile;
            QVERIFY(!serve(aile, data, config).isEmpty());
            aile.terminate();
            QVERIFY(aile.waitForFinished(5000));
        }
        QHash<QString, int> booked;
        {
            QSqlDatabase d = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("kills"));
            d.setDatabaseName(data + QStringLiteral("/aile.db"));
            QVERIFY(d.open());
            QSqlQuery q(d);
            QVERIFY(q.exec(QStringLiteral("PRAGMA integrity_check")) && q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("ok"));
            QVERIFY(q.exec(QStringLiteral("SELECT trace_id, COUNT(*) FROM ledger GROUP BY trace_id")));
            while (q.next())
                booked.insert(q.value(0).toString(), q.value(1).toInt());
            d.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("kills"));
        QVERIFY(received.size() >= 12 * 2);
        QStringList missing;
        for (const QString &id : received)
            if (!booked.contains(id))
                missing << id;
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("%1 of %2 answered requests have no ledger row: %3")
                                                   .arg(missing.size())
                                                   .arg(received.size())
                                                   .arg(missing.join(QLatin1Char(' ')))));
        for (auto it = booked.begin(); it != booked.end(); ++it)
            QVERIFY2(it.value() == 1, qPrintable(QStringLiteral("%1 is booked %2 times").arg(it.key()).arg(it.value())));
        QVERIFY(booked.size() <= sent);
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
                   QJsonArray{QJsonObject{
                       {QStringLiteral("name"), QStringLiteral("coding")},
                       {QStringLiteral("budgetUsdPerDay"), 0.00001},
                       {QStringLiteral("targets"), QJsonArray{QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}}}}}});
        keys.replace(0, key);
        config.insert(QStringLiteral("keys"), keys);
        QFile cfg(dir.filePath(QStringLiteral("config.json")));
        QVERIFY(cfg.open(QIODevice::WriteOnly));
        cfg.write(QJsonDocument(config).toJson());
        cfg.close();

        const QByteArray body =
            QJsonDocument(QJsonObject{{QStringLiteral("model"), QStringLiteral("coding")},
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
            QCOMPARE(send(QStringLiteral("GET"), base + QStringLiteral("/keys/usage/requests?limit=10"), {},
                          {{"authorization", QByteArray("Bearer ") + AdminToken}})
                         .json()
                         .value(QLatin1String("data"))
                         .toArray()
                         .size(),
                     1);
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
