// How an attempt's end is classified (health/FailureClass.h): one row per case, each with what the
// trace row says, what the sharer's health records, whether a key's failing-sharer count hears of
// it, and the cooldown a sharer with a clean record gets from it (docs/routing.md "Failover").
#include "core/Clock.h"
#include "health/FailureClass.h"
#include "health/HealthBook.h"

#include <QtTest/QtTest>

using namespace Aile;
using namespace Aile::Health;
using Http::UpstreamError;
using Failing = FailureClass::Failing;

Q_DECLARE_METATYPE(Aile::Http::UpstreamError)
Q_DECLARE_METATYPE(Aile::Health::FailureClass::Failing)

namespace {
constexpr int NoFailure = -1;
constexpr qint64 NoCooldown = -1;
constexpr qint64 DeadKey = 0; // recordFailure returns 0: no cooldown, the key is dead until restored
const qint64 FirstStep = HealthBook::Ladder[0];
} // namespace

class TestFailureClass : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void classifies_data()
    {
        QTest::addColumn<QString>("end"); // head, before, after, timeout, completed
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("errorBody");
        QTest::addColumn<UpstreamError>("error");
        QTest::addColumn<bool>("a"); // streamed / endEventExpected / phaseLimit / errorEvent
        QTest::addColumn<bool>("b"); // headArrived / budgetCut / cutBeforeEndEvent
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<int>("failure");
        QTest::addColumn<Failing>("failing");
        QTest::addColumn<qint64>("cooldownMs");

        const UpstreamError none = UpstreamError::None;
        const QByteArray noBody;
        // An error head, its body read.
        QTest::newRow("401 dead key") << "head" << 401 << noBody << none << false << false << "failed_over" << int(Failure::AuthRefused)
                                      << Failing::Failure << DeadKey;
        QTest::newRow("403 dead key") << "head" << 403 << noBody << none << false << false << "failed_over" << int(Failure::AuthRefused)
                                      << Failing::Failure << DeadKey;
        QTest::newRow("429 rate limited") << "head" << 429 << QByteArray("slow down") << none << false << false << "failed_over"
                                          << int(Failure::RateLimited) << Failing::Failure << FirstStep;
        QTest::newRow("529 overloaded") << "head" << 529 << noBody << none << false << false << "failed_over" << int(Failure::RateLimited)
                                        << Failing::Failure << FirstStep;
        QTest::newRow("429 limit: 0 is this model's quota")
            << "head" << 429 << QByteArray("Quota exceeded, limit: 0") << none << false << false << "failed_over" << int(Failure::ModelNoQuota)
            << Failing::Failure << HealthBook::MaxRetryAfterMs;
        QTest::newRow("400 limit: 0 is this model's quota") << "head" << 400 << QByteArray("limit: 0") << none << false << false << "failed_over"
                                                            << int(Failure::ModelNoQuota) << Failing::Failure << HealthBook::MaxRetryAfterMs;
        QTest::newRow("500 server error") << "head" << 500 << noBody << none << false << false << "failed_over" << int(Failure::ServerError)
                                          << Failing::Failure << FirstStep;
        QTest::newRow("503 server error") << "head" << 503 << noBody << none << false << false << "failed_over" << int(Failure::ServerError)
                                          << Failing::Failure << FirstStep;
        QTest::newRow("408 server error") << "head" << 408 << noBody << none << false << false << "failed_over" << int(Failure::ServerError)
                                          << Failing::Failure << FirstStep;
        QTest::newRow("404 benches nobody") << "head" << 404 << noBody << none << false << false << "failed_over" << NoFailure << Failing::NotCounted
                                            << NoCooldown;
        QTest::newRow("400 benches nobody") << "head" << 400 << QByteArray("bad request") << none << false << false << "failed_over" << NoFailure
                                            << Failing::NotCounted << NoCooldown;
        // The connection broke before anything reached the client (a: streamed, b: head arrived).
        QTest::newRow("refused") << "before" << 0 << noBody << UpstreamError::ConnectFailed << false << false << "connect_failed"
                                 << int(Failure::Connection) << Failing::Failure << FirstStep;
        QTest::newRow("closed before head") << "before" << 0 << noBody << UpstreamError::ClosedBeforeHead << true << false << "closed_before_head"
                                            << int(Failure::Connection) << Failing::Failure << FirstStep;
        QTest::newRow("stream broke after its head") << "before" << 200 << noBody << UpstreamError::ClosedMidBody << true << true << "cut"
                                                     << int(Failure::CutStream) << Failing::Failure << HealthBook::CutStreamCooldownMs;
        QTest::newRow("body broke after its head") << "before" << 200 << noBody << UpstreamError::ClosedMidBody << false << true << "closed_mid_body"
                                                   << int(Failure::Connection) << Failing::Failure << FirstStep;
        QTest::newRow("out of memory benches nobody") << "before" << 200 << noBody << UpstreamError::OutOfMemory << false << true << "out_of_memory"
                                                      << NoFailure << Failing::NotCounted << NoCooldown;
        QTest::newRow("protocol error") << "before" << 200 << noBody << UpstreamError::Protocol << true << true << "protocol_error"
                                        << int(Failure::ServerError) << Failing::Failure << FirstStep;
        // After bytes reached the client (a: a stream whose wire has an end event).
        QTest::newRow("stream cut mid-answer") << "after" << 200 << noBody << UpstreamError::ClosedMidBody << true << false << "cut"
                                               << int(Failure::CutStream) << Failing::Failure << HealthBook::CutStreamCooldownMs;
        QTest::newRow("body cut mid-answer") << "after" << 200 << noBody << UpstreamError::ClosedMidBody << false << false << "cut"
                                             << int(Failure::Connection) << Failing::Failure << FirstStep;
        QTest::newRow("out of memory mid-answer benches nobody") << "after" << 200 << noBody << UpstreamError::OutOfMemory << true << false
                                                                 << "out_of_memory" << NoFailure << Failing::NotCounted << NoCooldown;
        QTest::newRow("protocol error mid-answer") << "after" << 200 << noBody << UpstreamError::Protocol << true << false << "protocol_error"
                                                   << int(Failure::ServerError) << Failing::Failure << FirstStep;
        // No head in time (a: the key's phase limit, b: the request's shortened budget).
        QTest::newRow("timeout") << "timeout" << 0 << noBody << none << false << false << "timeout" << int(Failure::Timeout) << Failing::NotCounted
                                 << FirstStep;
        QTest::newRow("phase limit benches nobody")
            << "timeout" << 0 << noBody << none << true << false << "phase_limit" << NoFailure << Failing::NotCounted << NoCooldown;
        QTest::newRow("budget cut benches nobody") << "timeout" << 0 << noBody << none << false << true << "budget_cut" << NoFailure
                                                   << Failing::NotCounted << NoCooldown;
        // An answer that ended (a: an error event, b: a stream cut before its end event).
        QTest::newRow("error event") << "completed" << 200 << noBody << none << true << false << "error_event" << int(Failure::ServerError)
                                     << Failing::Failure << FirstStep;
        QTest::newRow("clean cut before the end event") << "completed" << 200 << noBody << none << false << true << "cut" << int(Failure::CutStream)
                                                        << Failing::Failure << HealthBook::CutStreamCooldownMs;
        QTest::newRow("error status passed through")
            << "completed" << 422 << noBody << none << false << false << "passed_through" << NoFailure << Failing::NotCounted << NoCooldown;
        QTest::newRow("served") << "completed" << 200 << noBody << none << false << false << "served" << NoFailure << Failing::Success << NoCooldown;
    }

    void classifies()
    {
        QFETCH(QString, end);
        QFETCH(int, status);
        QFETCH(QByteArray, errorBody);
        QFETCH(UpstreamError, error);
        QFETCH(bool, a);
        QFETCH(bool, b);
        QFETCH(QString, outcome);
        QFETCH(int, failure);
        QFETCH(Failing, failing);
        QFETCH(qint64, cooldownMs);

        FailureClass c;
        if (end == QLatin1String("head"))
            c = classifyErrorHead(status, errorBody);
        else if (end == QLatin1String("before"))
            c = classifyBreakBeforeOutput(error, a, b);
        else if (end == QLatin1String("after"))
            c = classifyBreakAfterOutput(error, a);
        else if (end == QLatin1String("timeout"))
            c = classifyFirstByteTimeout(a, b);
        else
            c = classifyCompleted(a, b, status);

        QCOMPARE(c.outcome, outcome);
        QCOMPARE(c.failure ? int(*c.failure) : NoFailure, failure);
        QCOMPARE(c.failing, failing);

        // What the class costs a sharer with a clean record: the first step of the ladder, the cut
        // stream's 10 minutes, the model's day off, a dead key, or nothing at all.
        ManualClock clock;
        HealthBook book(&clock);
        const qint64 now = clock.nowMs();
        if (!c.failure) {
            QCOMPARE(cooldownMs, NoCooldown);
            return;
        }
        const qint64 until = book.recordFailure(QStringLiteral("a"), QStringLiteral("m"), *c.failure);
        QCOMPARE(until == 0 ? DeadKey : until - now, cooldownMs);
        QCOMPARE(book.of(QStringLiteral("a")).deadKey, cooldownMs == DeadKey);
    }
};

QTEST_GUILESS_MAIN(TestFailureClass)
#include "TestFailureClass.moc"
