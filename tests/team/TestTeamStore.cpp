// Team mode on a real PostgreSQL (docs/team.md): two engines, one database. They share keys,
// settings and the ledger, hold budgets across each other, and honour each other's cooldowns.
#include "health/HealthBook.h"
#include "routing/Affinity.h"
#include "store/BudgetReservations.h"
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

const QList<QPair<QByteArray, QByteArray>> Auth{{"authorization", QByteArray("Bearer ") + TestKey}, {"content-type", "application/json"}};
const QList<QPair<QByteArray, QByteArray>> Admin{{"authorization", QByteArray("Bearer ") + AdminToken}, {"content-type", "application/json"}};

QByteArray chat(const QString &model = QStringLiteral("openai/gpt-5.2"))
{
    return QJsonDocument(QJsonObject{{QStringLiteral("model"), model},
                                     {QStringLiteral("max_tokens"), 1000},
                                     {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                         {QStringLiteral("content"), QStringLiteral("hi")}}}}})
        .toJson(QJsonDocument::Compact);
}

} // namespace

class TestTeamStore : public QObject
{
    Q_OBJECT

    // Two engines on one fresh database, both started from config (with its "store").
    bool startPair(QJsonObject config, std::unique_ptr<TestEngine> &a, std::unique_ptr<TestEngine> &b)
    {
        config.insert(QStringLiteral("store"), sharedPostgres().createDatabase(QStringLiteral("team")));
        a = std::make_unique<TestEngine>(config);
        if (!a->start())
            return false;
        b = std::make_unique<TestEngine>(config);
        return b->start();
    }

private Q_SLOTS:
    void init()
    {
        if (!sharedPostgres().start())
            QSKIP(qPrintable(QStringLiteral("PostgreSQL cannot run here: ") + sharedPostgres().skipReason()));
    }
    void cleanupTestCase() { sharedPostgres().stop(); }

    void instancesShareKeysSettingsAndTheLedger()
    {
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        std::unique_ptr<TestEngine> a, b;
        QVERIFY2(startPair(basicConfig(upstream.baseUrl()), a, b), qPrintable(a->startError() + b->startError()));

        // A key made through one instance answers on the other within a second (NOTIFY → reload).
        const Reply made = send(QStringLiteral("POST"), a->baseUrl() + QStringLiteral("/keys"),
                                R"({"name": "made on a", "routing": {"spendLimitUsdPerDay": 7}})", Admin);
        QCOMPARE(made.status, 201);
        const QByteArray plain = made.json().value(QStringLiteral("plain")).toString().toUtf8();
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(b->context().keys.begin(), b->context().keys.end(),
                                             [](const Keys::ApiKey &k) { return k.name == QLatin1String("made on a"); }),
                                 1000);
        const Reply served = send(QStringLiteral("POST"), b->baseUrl() + QStringLiteral("/v1/chat/completions"), chat(),
                                  {{"authorization", "Bearer " + plain}, {"content-type", "application/json"}});
        QCOMPARE(served.status, 200);

        // Settings too: a change through b reaches a.
        QCOMPARE(
            send(QStringLiteral("PUT"), b->baseUrl() + QStringLiteral("/v1/routing"), R"({"fallback_models": ["openai/gpt-5.5"]})", Admin).status,
            200);
        QTRY_COMPARE_WITH_TIMEOUT(a->context().routing.value(QStringLiteral("fallback_models")).toArray().size(), 1, 1000);

        // The request served by b is in the ledger and the traces a reads.
        a->engine().stop();
        b->engine().stop(); // the writers commit what they hold
        const QString id = QString::fromLatin1(served.header("x-aile-request-id"));
        QVERIFY(a->context().store->trace(id).has_value());
        const auto ledger = a->context().store->ledger(Store::utcDay(QDateTime::currentMSecsSinceEpoch()));
        QVERIFY(std::any_of(ledger.begin(), ledger.end(), [&](const Store::LedgerEntry &e) { return e.traceId == id && e.costUsd > 0; }));
    }

    void aBudgetHoldsAcrossInstances()
    {
        // Every answer waits 300 ms, so all requests are in flight together: only the quotes held in
        // the shared store keep the second instance from admitting what the first one has reserved.
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        upstream.setChooser([](const ReceivedRequest &) {
            Script s = FakeUpstream::chatCompletion(QStringLiteral("ok"), 12, 1000); // costs what it quoted
            s.headDelayMs = 300;
            return std::optional<Script>(s);
        });
        QJsonObject config = basicConfig(upstream.baseUrl());
        QJsonArray keys = config.value(QStringLiteral("keys")).toArray();
        QJsonObject key = keys.first().toObject();
        // gpt-5.2's quote for 1000 output tokens is 1.4 cents ($14 per million): a limit of 10 quotes.
        key.insert(QStringLiteral("routing"), QJsonObject{{QStringLiteral("spendLimitUsdPerDay"), 0.14}});
        config.insert(QStringLiteral("keys"), QJsonArray{key});
        std::unique_ptr<TestEngine> a, b;
        QVERIFY2(startPair(config, a, b), qPrintable(a->startError() + b->startError()));

        AsyncClient client;
        QList<QNetworkReply *> replies;
        for (int i = 0; i < 40; ++i)
            replies << client.post((i % 2 ? a : b)->baseUrl() + QStringLiteral("/v1/chat/completions"), chat(), Auth);
        int served = 0, refused = 0;
        for (QNetworkReply *r : replies) {
            const Reply got = AsyncClient::wait(r, 20000);
            if (got.status == 200)
                ++served;
            else if (got.status == 403) {
                ++refused;
                QVERIFY2(got.body.contains("requests in flight") || got.body.contains("spend limit"), got.body.constData());
            }
        }
        QCOMPARE(served + refused, 40);
        // The quote is what the request may cost at most: about 10 fit, and never all 40.
        QVERIFY2(served >= 8 && served <= 12, qPrintable(QStringLiteral("%1 served").arg(served)));
        a->engine().stop();
        b->engine().stop();
        // Settled: the ledger holds every served request, and no reservation is left.
        const QString day = Store::utcDay(QDateTime::currentMSecsSinceEpoch());
        QCOMPARE(a->context().store->ledger(day).size(), served);
        QCOMPARE(Store::BudgetReservations(*a->context().store).live(QDateTime::currentMSecsSinceEpoch()), 0);
    }

    void aCrashedReservationExpires()
    {
        Store::Store store(sharedPostgres().createDatabase(QStringLiteral("expiry")));
        QString error;
        QVERIFY2(store.open(&error), qPrintable(error));
        Store::BudgetReservations reservations(store);
        const qint64 now = 1'800'000'000'000;
        const QString day = Store::utcDay(now);
        Store::Reservation r{QStringLiteral("req_dead"), day, QStringLiteral("k_1"), {}, {}, 1.0, now + Store::BudgetReservations::LifetimeMs};
        QVERIFY(!reservations.reserve(r, {{QString(), QString(), 1.0}}, now, nullptr));
        // The instance that made it died: the dollar stays held for the lifetime, then frees itself.
        double held = 0;
        r.id = QStringLiteral("req_next");
        QVERIFY(reservations.reserve(r, {{QString(), QString(), 1.0}}, now + 1000, &held).has_value());
        QCOMPARE(held, 1.0);
        const qint64 later = now + Store::BudgetReservations::LifetimeMs;
        r.expiresMs = later + Store::BudgetReservations::LifetimeMs;
        QVERIFY(!reservations.reserve(r, {{QString(), QString(), 1.0}}, later, &held));
        QCOMPARE(reservations.live(later), 1); // the new one; the dead one is gone
    }

    void aRateLimitSeenByOneIsHonouredByTheOther()
    {
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        const QString first = QStringLiteral("L00000000000000f1"), second = QStringLiteral("L00000000000000f2");
        // The first is the cheaper, so price order tries it first.
        const QJsonArray sharers{sharer(first, QStringLiteral("openai"), upstream.baseUrl(), {QStringLiteral("gpt-5.2")}),
                                 sharer(second, QStringLiteral("openai"), upstream.baseUrl(), {QStringLiteral("gpt-5.2")},
                                        QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 200}}}})};
        std::unique_ptr<TestEngine> a, b;
        QVERIFY2(startPair(configWith(sharers, QJsonObject{{QStringLiteral("prefer"), QStringLiteral("price")}}), a, b),
                 qPrintable(a->startError() + b->startError()));
        upstream.enqueueFor(first.toLatin1(), FakeUpstream::error(429, QStringLiteral("slow down"), false, 120));
        const Reply onA = send(QStringLiteral("POST"), a->baseUrl() + QStringLiteral("/v1/chat/completions"), chat(), Auth);
        QCOMPARE(onA.status, 200);
        QCOMPARE(onA.header("x-aile-sharer"), second.toLatin1()); // a failed over
        // Within a second b knows: its next request never dials the limited account.
        QTRY_VERIFY_WITH_TIMEOUT(b->context().health->coolingUntil(first, QStringLiteral("gpt-5.2")) > 0, 1000);
        const int dialledBefore = int(upstream.received().size());
        const Reply onB = send(QStringLiteral("POST"), b->baseUrl() + QStringLiteral("/v1/chat/completions"), chat(), Auth);
        QCOMPARE(onB.status, 200);
        QCOMPARE(onB.header("x-aile-sharer"), second.toLatin1());
        QCOMPARE(int(upstream.received().size()), dialledBefore + 1);
        QCOMPARE(FakeUpstream::credentialOf(upstream.received().last()), second.toLatin1());
        // The reset the provider gave, not a guess: about two minutes from now.
        const qint64 left = b->context().health->coolingUntil(first, QStringLiteral("gpt-5.2")) - QDateTime::currentMSecsSinceEpoch();
        QVERIFY2(left > 100'000 && left <= 121'000, qPrintable(QString::number(left)));
    }

    void aConversationStaysOnItsAccountAcrossInstances()
    {
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        const QString one = QStringLiteral("L00000000000000e1"), two = QStringLiteral("L00000000000000e2");
        const QJsonArray sharers{sharer(one, QStringLiteral("openai"), upstream.baseUrl(), {QStringLiteral("gpt-5.2")}),
                                 sharer(two, QStringLiteral("openai"), upstream.baseUrl(), {QStringLiteral("gpt-5.2")})};
        std::unique_ptr<TestEngine> a, b;
        QVERIFY2(startPair(configWith(sharers), a, b), qPrintable(a->startError() + b->startError()));
        QByteArray account;
        for (int turn = 0; turn < 6; ++turn) {
            TestEngine &on = turn % 2 ? *b : *a;
            QList<QPair<QByteArray, QByteArray>> headers = Auth;
            headers.append(qMakePair(QByteArray("x-aile-session"), QByteArray("conversation-1")));
            const Reply r = send(QStringLiteral("POST"), on.baseUrl() + QStringLiteral("/v1/chat/completions"), chat(), headers);
            QCOMPARE(r.status, 200);
            if (turn == 0) {
                account = r.header("x-aile-sharer");
                // The other instance has the pin within a second, before the next turn reaches it.
                QTRY_VERIFY_WITH_TIMEOUT(b->context().pins->size() > 0, 1000);
            }
            QCOMPARE(r.header("x-aile-sharer"), account);
            if (turn > 0)
                QCOMPARE(r.header("x-aile-session-affinity"), QByteArray("pinned"));
        }
    }
};

QTEST_GUILESS_MAIN(TestTeamStore)
#include "TestTeamStore.moc"
