// What the tray would say, and when: a key or a route that reached its daily budget, a sharer
// whose key its provider refused, and a provider whose every sharer is cooling down; each said
// once. The notifier is injected, so nothing is shown; the last case drives the real engine and
// the window, whose tray notifier is replaced by a recorder.
#include "api/values/JsonFields.h"
#include "host/EngineHost.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/Notifications.h"
#include "store/Store.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace Aile;
using namespace Aile::Test;

namespace {

struct Told
{
    QString title;
    QString message;
};

const qint64 Noon = 1'790'000'000'000; // some day, at a fixed time

Api::EngineStatus status()
{
    Api::EngineStatus s;
    s.keys = Api::Json::listOf<Api::KeyInfo>(QJsonArray{
        QJsonObject{{QStringLiteral("id"), QStringLiteral("k_laptop")},
                    {QStringLiteral("name"), QStringLiteral("laptop")},
                    {QStringLiteral("routing"), QJsonObject{{QStringLiteral("spendLimitUsdPerDay"), 2.0}}},
                    {QStringLiteral("routes"),
                     QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("fast")}, {QStringLiteral("budgetUsdPerDay"), 1.0}}}}}});
    s.sharers = Api::Json::listOf<Api::SharerStatus>(QJsonArray{QJsonObject{{QStringLiteral("handle"), QStringLiteral("L00000000000000a1")},
                                                                            {QStringLiteral("name"), QStringLiteral("openai-one")},
                                                                            {QStringLiteral("provider"), QStringLiteral("openai")}}});
    return s;
}

Store::LedgerEntry charge(double usd, const QString &route = {})
{
    Store::LedgerEntry e;
    e.keyId = QStringLiteral("k_laptop");
    e.day = Store::utcDay(Noon);
    e.atMs = Noon;
    e.route = route;
    e.costUsd = usd;
    return e;
}

Store::TraceRecord trace(int status, const QString &error = {})
{
    Store::TraceRecord t;
    t.id = QStringLiteral("t") + QString::number(status);
    t.startedMs = Noon;
    t.keyId = QStringLiteral("k_laptop");
    t.status = status;
    t.error = error;
    return t;
}

Store::AttemptRecord attempt(int status, const QString &outcome)
{
    Store::AttemptRecord a;
    a.sharer = QStringLiteral("L00000000000000a1");
    a.provider = QStringLiteral("openai");
    a.status = status;
    a.outcome = outcome;
    return a;
}

} // namespace

class TestNotifications : public QObject
{
    Q_OBJECT

private:
    QList<Told> m_told;
    std::unique_ptr<Ui::Notifications> make()
    {
        m_told.clear();
        auto n = std::make_unique<Ui::Notifications>();
        n->setNotifier([this](const QString &title, const QString &message) { m_told.append({title, message}); });
        n->noteStatus(status());
        return n;
    }

private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void aKeyThatReachesItsSpendLimitIsToldOnceADay()
    {
        auto n = make();
        n->noteLedger(Store::utcDay(Noon), {charge(1.5)});
        QCOMPARE(m_told.size(), 0);
        n->noteLedger(Store::utcDay(Noon), {charge(1.5), charge(0.5)});
        QCOMPARE(m_told.size(), 1);
        QCOMPARE(m_told.first().title, QStringLiteral("Budget reached"));
        QVERIFY2(m_told.first().message.contains(QLatin1String("Key laptop reached its daily spend limit of $2.00")),
                 qPrintable(m_told.first().message));
        // Again the same day, or the refusal that follows: nothing new.
        n->noteLedger(Store::utcDay(Noon), {charge(1.5), charge(0.5), charge(0.1)});
        n->noteTraces({trace(403, QStringLiteral("this API key spent its $2.00 daily limit (budget_exceeded); resets 00:00 UTC"))});
        QCOMPARE(m_told.size(), 1);
        // The next day it can be told again.
        Store::LedgerEntry tomorrow = charge(3);
        tomorrow.day = Store::utcDay(Noon + 24 * 3600 * 1000);
        n->noteLedger(tomorrow.day, {tomorrow});
        QCOMPARE(m_told.size(), 2);
    }

    void theRefusalAloneIsEnough()
    {
        auto n = make();
        n->noteTraces({trace(403, QStringLiteral("budget_exceeded: this API key spent its daily limit"))});
        QCOMPARE(m_told.size(), 1);
        QVERIFY(m_told.first().message.contains(QLatin1String("laptop")));
    }

    void aRouteThatSpentItsBudget()
    {
        auto n = make();
        n->noteLedger(Store::utcDay(Noon), {charge(0.4, QStringLiteral("fast")), charge(0.7, QStringLiteral("fast"))});
        QCOMPARE(m_told.size(), 1);
        QVERIFY2(m_told.first().message.contains(QLatin1String("Route fast of key laptop spent its daily budget")),
                 qPrintable(m_told.first().message));
        n->noteTraces({trace(402, QStringLiteral("route fast spent its $1.00 daily budget; resets 00:00 UTC"))});
        QCOMPARE(m_told.size(), 1);

        auto other = make();
        other->noteTraces({trace(402, QStringLiteral("route fast spent its $1.00 daily budget; resets 00:00 UTC"))});
        QCOMPARE(m_told.size(), 1);
        // A 402 of a cost cap is no budget.
        other->noteTraces({trace(402, QStringLiteral("every sharer quotes above the cost cap of $0.50"))});
        QCOMPARE(m_told.size(), 1);
    }

    void aDeadKeyIsToldUntilTheSharerServesAgain()
    {
        auto n = make();
        Store::TraceRecord t = trace(200);
        t.attemptRows = {attempt(401, QStringLiteral("failed_over"))};
        n->noteTraces({t});
        QCOMPARE(m_told.size(), 1);
        QCOMPARE(m_told.first().title, QStringLiteral("A sharer's key was refused"));
        QVERIFY2(m_told.first().message.startsWith(QLatin1String("openai-one's key was refused by openai (HTTP 401)")),
                 qPrintable(m_told.first().message));
        n->noteTraces({t});
        QCOMPARE(m_told.size(), 1);
        // Served again (re-linked): a later refusal is news.
        Store::TraceRecord served = trace(200);
        served.attemptRows = {attempt(200, QStringLiteral("served"))};
        n->noteTraces({served, t});
        QCOMPARE(m_told.size(), 2);
        // A 403 the proxy answered itself (not a provider's) is no dead key.
        Store::TraceRecord own = trace(403, QStringLiteral("this API key excludes provider openai"));
        auto fresh = make();
        fresh->noteTraces({own});
        QCOMPARE(m_told.size(), 0);
    }

    void aProviderWhoseEverySharerIsCooling()
    {
        auto n = make();
        Store::TraceRecord t = trace(429, QStringLiteral("every sharer of openai for gpt-5.2 is cooling down after failures; retry in 30 s"));
        n->noteTraces({t});
        QCOMPARE(m_told.size(), 1);
        QCOMPARE(m_told.first().title, QStringLiteral("Every sharer of openai is cooling down"));
        QVERIFY(m_told.first().message.contains(QLatin1String("gpt-5.2")));
        t.startedMs += 60 * 1000;
        n->noteTraces({t});
        QCOMPARE(m_told.size(), 1);
        t.startedMs += 10 * 60 * 1000;
        n->noteTraces({t});
        QCOMPARE(m_told.size(), 2);
        // Rate limited is not cooling.
        n->noteTraces({trace(429, QStringLiteral("every sharer tried for openai/gpt-5.2 is rate limited; retry later"))});
        QCOMPARE(m_told.size(), 2);
    }

    void theWindowTellsADeadKeyFromTheEnginesTraces()
    {
        QTemporaryDir dir;
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        const QString configPath = dir.filePath(QStringLiteral("config.json"));
        QFile config(configPath);
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QJsonDocument(basicConfig(upstream.baseUrl())).toJson());
        config.close();
        EngineOptions options;
        options.dataDir = dir.filePath(QStringLiteral("data"));
        options.port = 0;
        options.configPath = configPath;
        EngineHost host(options);
        Ui::MainWindow::Options windowOptions;
        windowOptions.dataDir = options.dataDir;
        windowOptions.settingsPath = dir.filePath(QStringLiteral("settings.ini"));
        windowOptions.showTrayIcon = false;
        Ui::MainWindow window(&host, windowOptions);
        QList<Told> told;
        window.notifications()->setNotifier([&](const QString &title, const QString &message) { told.append({title, message}); });
        QSignalSpy started(&host, &EngineHost::started);
        host.start();
        QVERIFY(started.wait(10000));
        QSignalSpy status(&host, &EngineHost::statusChanged);
        host.requestStatus();
        QVERIFY(status.wait(5000));

        upstream.enqueue(FakeUpstream::error(401, QStringLiteral("invalid api key")));
        const Reply r =
            send(QStringLiteral("POST"), window.baseUrl() + QStringLiteral("/v1/chat/completions"),
                 QJsonDocument(QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                                           {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                               {QStringLiteral("content"), QStringLiteral("hi")}}}}})
                     .toJson(),
                 {{"authorization", QByteArray("Bearer ") + TestKey}});
        QVERIFY(r.status >= 400);
        QTRY_COMPARE(told.size(), 1);
        QCOMPARE(told.first().title, QStringLiteral("A sharer's key was refused"));
        QVERIFY2(told.first().message.startsWith(QLatin1String("openai-one's key was refused by openai (HTTP 401)")),
                 qPrintable(told.first().message));
        QSignalSpy stopped(&host, &EngineHost::stopped);
        window.close();
        QVERIFY(stopped.count() > 0 || stopped.wait(5000));
    }
};

QTEST_MAIN(TestNotifications)
#include "TestNotifications.moc"
