// Team mode when the database goes away (docs/team.md "Losing the database"): PostgreSQL is
// stopped under two running engines and started again. Meanwhile a request that needs a budget
// held across instances gets a 503 in its wire's shape naming the store, and one that does not is
// served, its ledger row kept until the store answers; afterwards the engines have reconnected by
// themselves, the row is in the database, and LISTEN carries notices again.
#include "store/Store.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"
#include "testsupport/TestPostgres.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtTest/QtTest>

using namespace Aile;
using namespace Aile::Test;

namespace {

const char *LimitedKey = "sk-aile-limited-0123456789abcdef";
const QList<QPair<QByteArray, QByteArray>> Admin{{"authorization", QByteArray("Bearer ") + AdminToken}, {"content-type", "application/json"}};

QList<QPair<QByteArray, QByteArray>> auth(const char *key)
{
    return {{"authorization", QByteArray("Bearer ") + key}, {"content-type", "application/json"}};
}

QByteArray chat()
{
    return QJsonDocument(QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                                     {QStringLiteral("max_tokens"), 100},
                                     {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                         {QStringLiteral("content"), QStringLiteral("hi")}}}}})
        .toJson(QJsonDocument::Compact);
}

} // namespace

class TestStoreReconnect : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        if (!sharedPostgres().start())
            QSKIP(qPrintable(QStringLiteral("PostgreSQL cannot run here: ") + sharedPostgres().skipReason()));
    }
    void cleanupTestCase() { sharedPostgres().stop(); }

    void theEnginesReconnectAndNoAnsweredRequestLosesItsLedgerRow()
    {
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        QJsonObject config = basicConfig(upstream.baseUrl());
        QJsonArray keys = config.value(QStringLiteral("keys")).toArray();
        keys.append(QJsonObject{{QStringLiteral("name"), QStringLiteral("limited")},
                                {QStringLiteral("key"), QLatin1String(LimitedKey)},
                                {QStringLiteral("routing"), QJsonObject{{QStringLiteral("spendLimitUsdPerDay"), 5}}}});
        config.insert(QStringLiteral("keys"), keys);
        const QString url = sharedPostgres().createDatabase(QStringLiteral("reconnect"));
        config.insert(QStringLiteral("store"), url);
        TestEngine a(config);
        QVERIFY2(a.start(), qPrintable(a.startError()));
        TestEngine b(config);
        QVERIFY2(b.start(), qPrintable(b.startError()));
        QCOMPARE(send(QStringLiteral("POST"), a.baseUrl() + QStringLiteral("/v1/chat/completions"), chat(), auth(LimitedKey)).status, 200);

        // The database goes away: every connection of both engines drops.
        sharedPostgres().stop();

        // A spend limit held across instances needs the store: a 503 in the OpenAI shape, naming it.
        const int dialled = int(upstream.received().size());
        const Reply refused = send(QStringLiteral("POST"), a.baseUrl() + QStringLiteral("/v1/chat/completions"), chat(), auth(LimitedKey));
        QCOMPARE(refused.status, 503);
        const QJsonObject error = refused.json().value(QLatin1String("error")).toObject();
        QVERIFY2(error.value(QLatin1String("message")).toString().startsWith(QStringLiteral("the shared store ") + url.left(13)),
                 refused.body.constData());
        QVERIFY(error.value(QLatin1String("message")).toString().contains(QLatin1String("is unreachable")));
        QCOMPARE(error.value(QLatin1String("code")).toString(), QStringLiteral("store_unreachable"));

        // A key without one is served; its ledger row waits for the store.
        const Reply served = send(QStringLiteral("POST"), a.baseUrl() + QStringLiteral("/v1/chat/completions"), chat(), auth(TestKey));
        QCOMPARE(served.status, 200);
        QCOMPARE(int(upstream.received().size()), dialled + 1); // the refused one dialled nothing
        const QString id = QString::fromLatin1(served.header("x-aile-request-id"));

        // The same server comes back; both engines reconnect by themselves (bounded backoff).
        QVERIFY(sharedPostgres().start());
        QTRY_VERIFY_WITH_TIMEOUT(a.context().store->reachable() && !a.context().store->unreachable(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(b.context().store->reachable() && !b.context().store->unreachable(), 20000);
        QCOMPARE(send(QStringLiteral("POST"), a.baseUrl() + QStringLiteral("/v1/chat/completions"), chat(), auth(LimitedKey)).status, 200);

        // The request answered while the store was gone has its trace and ledger row in the database.
        Store::Store reader(url, true);
        QString openError;
        QVERIFY2(reader.open(&openError), qPrintable(openError));
        QTRY_VERIFY_WITH_TIMEOUT(reader.trace(id).has_value(), 20000);
        const auto ledger = reader.ledger(Store::utcDay(QDateTime::currentMSecsSinceEpoch()));
        QVERIFY(std::any_of(ledger.begin(), ledger.end(), [&](const Store::LedgerEntry &e) { return e.traceId == id && e.costUsd > 0; }));

        // LISTEN again: a key made through b reaches a by its notice.
        QCOMPARE(send(QStringLiteral("POST"), b.baseUrl() + QStringLiteral("/keys"), R"({"name": "after the outage"})", Admin).status, 201);
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(a.context().keys.begin(), a.context().keys.end(),
                                             [](const Keys::ApiKey &k) { return k.name == QLatin1String("after the outage"); }),
                                 1000);
    }
};

QTEST_MAIN(TestStoreReconnect)
#include "TestStoreReconnect.moc"
