// The health signals of docs/rules/routing-and-failover.md: the backoff ladder, jitter, Retry-After, dead keys, the draw weight.
#include "core/Clock.h"
#include "health/HealthBook.h"

#include <QtTest/QtTest>

using namespace Aile;
using namespace Aile::Health;

class TestHealthBook : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ladderClimbsWithConsecutiveFailuresAndResetsOnSuccess()
    {
        ManualClock clock;
        HealthBook book(&clock);
        const qint64 t0 = clock.nowMs();
        QCOMPARE(book.recordFailure(QStringLiteral("a"), QStringLiteral("m"), Failure::ServerError), t0 + HealthBook::Ladder[0]);
        QCOMPARE(book.recordFailure(QStringLiteral("a"), QStringLiteral("m"), Failure::ServerError), t0 + HealthBook::Ladder[1]);
        QCOMPARE(book.of(QStringLiteral("a")).ladderStep, 2);
        book.recordSuccess(QStringLiteral("a"), 100);
        QCOMPARE(book.of(QStringLiteral("a")).ladderStep, 0);
        QCOMPARE(book.coolingUntil(QStringLiteral("a"), QStringLiteral("m")), 0);
    }

    void jitterIsPositiveOnlyAndBounded()
    {
        // "A positive-only jitter spreads expiry … a retry is never made earlier than the computed backoff."
        ManualClock clock;
        QRandomGenerator rng(7);
        bool spread = false;
        for (int i = 0; i < 200; ++i) {
            HealthBook book(&clock);
            book.setJitterSource(&rng);
            const qint64 until = book.recordFailure(QStringLiteral("a"), QStringLiteral("m"), Failure::RateLimited);
            QVERIFY(until >= clock.nowMs() + HealthBook::Ladder[0]);
            QVERIFY(until <= clock.nowMs() + HealthBook::Ladder[0] + HealthBook::Ladder[0] / 5);
            spread = spread || until != clock.nowMs() + HealthBook::Ladder[0];
        }
        QVERIFY(spread);
    }

    void retryAfterIsHonouredUnjitteredUpToADay_data()
    {
        QTest::addColumn<qint64>("retryAfterMs");
        QTest::addColumn<qint64>("expectedMs");
        // "a provider's own stated reset time is never jittered"
        QTest::newRow("30 s") << qint64(30'000) << qint64(30'000);
        // "… and a retry is never made earlier than the computed backoff"
        QTest::newRow("shorter than the ladder") << qint64(1'000) << HealthBook::Ladder[0];
        // "A Retry-After is honoured up to 24 hours, so a malformed header cannot bench an account for years."
        QTest::newRow("capped at 24 h") << qint64(10LL * 365 * 86400 * 1000) << qint64(24LL * 3600 * 1000);
    }

    void retryAfterIsHonouredUnjitteredUpToADay()
    {
        QFETCH(qint64, retryAfterMs);
        QFETCH(qint64, expectedMs);
        ManualClock clock;
        QRandomGenerator rng(1);
        HealthBook book(&clock);
        book.setJitterSource(&rng);
        QCOMPARE(book.recordFailure(QStringLiteral("a"), QStringLiteral("m"), Failure::RateLimited, retryAfterMs), clock.nowMs() + expectedMs);
    }

    void parsesRetryAfterSecondsAndDates()
    {
        const qint64 now = QDateTime(QDate(2027, 1, 15), QTime(12, 0), Qt::UTC).toMSecsSinceEpoch();
        QCOMPARE(parseRetryAfterMs("120", now), 120'000);
        QCOMPARE(parseRetryAfterMs("Fri, 15 Jan 2027 12:01:30 GMT", now), 90'000);
        QCOMPARE(parseRetryAfterMs("soon", now), -1);
        QCOMPARE(parseRetryAfterMs("", now), -1);
    }

    void budgetCutBenchesNobodyButCountsAsSlow()
    {
        // "A sharer cut short by Aile's own shortened budget is not benched for it. … The slowness still feeds sharer selection"
        ManualClock clock;
        HealthBook book(&clock);
        for (int i = 0; i < 3; ++i)
            book.recordBudgetCut(QStringLiteral("slow"), 20'000);
        QCOMPARE(book.coolingUntil(QStringLiteral("slow"), QStringLiteral("m")), 0);
        QCOMPARE(book.of(QStringLiteral("slow")).ladderStep, 0);
        QVERIFY(book.weight(QStringLiteral("slow")) < book.weight(QStringLiteral("fresh")));
    }

    void aFreshOrForgottenSharerReadsNeutral()
    {
        // "every account then reads neutral, exactly like a freshly linked one"
        ManualClock clock;
        HealthBook book(&clock);
        QCOMPARE(book.weight(QStringLiteral("new")), 1.0);
        book.recordFailure(QStringLiteral("x"), QStringLiteral("m"), Failure::ServerError);
        QVERIFY(book.weight(QStringLiteral("x")) < 1.0);
        book.reset();
        QCOMPARE(book.weight(QStringLiteral("x")), 1.0);
    }

    void healthSignalsLowerTheDrawWeight_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("probe failed") << 0;
        QTest::newRow("backoff ladder") << 1;
        QTest::newRow("little capacity headroom") << 2;
        QTest::newRow("slow first byte") << 3;
        QTest::newRow("low success rate") << 4;
    }

    void healthSignalsLowerTheDrawWeight()
    {
        QFETCH(int, signal);
        ManualClock clock;
        HealthBook book(&clock);
        const QString s = QStringLiteral("s");
        switch (signal) {
        case 0: book.recordProbe(s, false, false); break;
        case 1:
            book.recordFailure(s, QStringLiteral("m"), Failure::ServerError);
            clock.advance(HealthBook::Ladder[0] + 1000); // out of its cooldown, still on the ladder
            break;
        case 2: book.setHeadroom(s, 0.05); break;
        case 3:
            for (int i = 0; i < 5; ++i)
                book.recordSuccess(s, 30'000);
            break;
        case 4:
            for (int i = 0; i < 5; ++i)
                book.mutableOf(s).successRate = 0.2, book.mutableOf(s).outcomes = 5;
            break;
        }
        QVERIFY(book.weight(s) < 0.9);
        QVERIFY(book.weight(s) > 0);
    }

    void deadKeysAndWhatRestoresThem()
    {
        ManualClock clock;
        HealthBook book(&clock);
        // Refused on a real request: a probe alone does not restore it…
        book.recordFailure(QStringLiteral("a"), QStringLiteral("m"), Failure::AuthRefused);
        QVERIFY(book.of(QStringLiteral("a")).deadKey);
        book.recordProbe(QStringLiteral("a"), true, false);
        QVERIFY(book.of(QStringLiteral("a")).deadKey);
        // … a successful serve does.
        book.recordSuccess(QStringLiteral("a"), 10);
        QVERIFY(!book.of(QStringLiteral("a")).deadKey);
        // "a passing probe too, when only a probe refused it"
        book.recordProbe(QStringLiteral("b"), false, true);
        QVERIFY(book.of(QStringLiteral("b")).deadKey);
        book.recordProbe(QStringLiteral("b"), true, false);
        QVERIFY(!book.of(QStringLiteral("b")).deadKey);
        // A passing model test or a re-link restores it.
        book.recordFailure(QStringLiteral("c"), QStringLiteral("m"), Failure::AuthRefused);
        book.restore(QStringLiteral("c"));
        QVERIFY(!book.of(QStringLiteral("c")).deadKey);
    }

    void limitZeroTakesOneModelOffOneAccount()
    {
        ManualClock clock;
        HealthBook book(&clock);
        book.recordFailure(QStringLiteral("g"), QStringLiteral("gemini-3.1-pro"), Failure::ModelNoQuota);
        QVERIFY(book.coolingUntil(QStringLiteral("g"), QStringLiteral("gemini-3.1-pro")) > 0);
        QCOMPARE(book.coolingUntil(QStringLiteral("g"), QStringLiteral("gemini-3.5-flash")), 0);
    }

    void cutStreamCoolsForTenMinutes()
    {
        ManualClock clock;
        HealthBook book(&clock);
        QCOMPARE(book.recordFailure(QStringLiteral("a"), QStringLiteral("m"), Failure::CutStream), clock.nowMs() + 600'000);
    }
};

QTEST_GUILESS_MAIN(TestHealthBook)
#include "TestHealthBook.moc"
