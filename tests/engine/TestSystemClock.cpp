// SystemClock's deadlines wait in place (Clock.h): they fire in the order of their due times,
// mixed with scheduled functions; arming again moves one, stopping or destroying one cancels it,
// and a deadline's function may arm it again or delete it. Real time, but only order and counts
// are asserted (delays far apart), never a duration.
#include "core/Clock.h"

#include <QtTest/QtTest>

#include <memory>

using namespace Aile;

class TestSystemClock : public QObject
{
    Q_OBJECT

private:
    SystemClock m_clock;

private Q_SLOTS:
    void deadlinesAndScheduledFunctionsFireInDueOrder()
    {
        QStringList fired;
        Deadline a, b, c;
        a.start(&m_clock, 300, nullptr, [&] { fired << "a300"; });
        m_clock.schedule(150, nullptr, [&] { fired << "s150"; });
        b.start(&m_clock, 100, nullptr, [&] { fired << "b100"; });
        c.start(&m_clock, 200, nullptr, [&] { fired << "c200"; });
        m_clock.schedule(0, nullptr, [&] { fired << "s0"; });
        QCOMPARE(m_clock.armedDeadlines(), 3);
        QTRY_COMPARE(fired.size(), 5);
        QCOMPARE(fired, (QStringList{"s0", "b100", "s150", "c200", "a300"}));
        QCOMPARE(m_clock.armedDeadlines(), 0);
        QVERIFY(!a.isActive() && !b.isActive() && !c.isActive());
    }

    void armingAgainMovesADeadline()
    {
        QStringList fired;
        Deadline a, b;
        a.start(&m_clock, 50, nullptr, [&] { fired << "a first"; });
        b.start(&m_clock, 150, nullptr, [&] { fired << "b"; });
        a.start(&m_clock, 300, nullptr, [&] { fired << "a moved"; }); // later, with a new function
        QCOMPARE(m_clock.armedDeadlines(), 2);
        QTRY_COMPARE(fired.size(), 2);
        QCOMPARE(fired, (QStringList{"b", "a moved"}));
        b.start(&m_clock, 0, nullptr, [&] { fired << "b again"; }); // and again once it fired
        QTRY_COMPARE(fired.size(), 3);
        QCOMPARE(fired.last(), QStringLiteral("b again"));
    }

    void stoppedOrDestroyedDeadlinesNeverFire()
    {
        QStringList fired;
        Deadline stopped, last;
        auto destroyed = std::make_unique<Deadline>();
        QObject *context = new QObject;
        Deadline withContext;
        stopped.start(&m_clock, 0, nullptr, [&] { fired << "stopped"; });
        destroyed->start(&m_clock, 0, nullptr, [&] { fired << "destroyed"; });
        withContext.start(&m_clock, 0, context, [&] { fired << "context gone"; });
        last.start(&m_clock, 100, nullptr, [&] { fired << "last"; });
        stopped.stop();
        destroyed.reset();
        delete context;
        QCOMPARE(m_clock.armedDeadlines(), 2); // the one with a context is skipped when due
        QTRY_COMPARE(fired, QStringList{"last"});
        QCOMPARE(m_clock.armedDeadlines(), 0);
    }

    // The request path's pattern: an idle deadline that arms itself again, and one whose function
    // deletes the object that holds it (ASan builds read freed memory otherwise).
    void aDeadlineMayArmItselfAgainOrBeDeletedByItsFunction()
    {
        QStringList fired;
        Deadline again;
        int rounds = 0;
        std::function<void()> tick = [&] {
            fired << QStringLiteral("again %1").arg(++rounds);
            if (rounds < 3)
                again.start(&m_clock, 10, nullptr, tick);
        };
        again.start(&m_clock, 0, nullptr, tick);
        auto owner = std::make_unique<Deadline>();
        owner->start(&m_clock, 5, nullptr, [&] {
            owner.reset();
            fired << "owner deleted";
        });
        Deadline after;
        after.start(&m_clock, 200, nullptr, [&] { fired << "after"; });
        QTRY_VERIFY(fired.contains("after"));
        QCOMPARE(fired.count(QStringLiteral("owner deleted")), 1);
        QCOMPARE(rounds, 3);
        QCOMPARE(fired.last(), QStringLiteral("after"));
        QVERIFY(!owner);
    }

    // Many deadlines armed, moved and stopped at random keep the heap whole: each armed one
    // fires exactly once, none of the stopped ones does, and nothing is left armed.
    void manyDeadlinesEachFireOnceUnlessStopped()
    {
        constexpr int N = 300;
        std::vector<std::unique_ptr<Deadline>> deadlines;
        std::vector<int> fires(N, 0);
        QRandomGenerator random(16);
        for (int i = 0; i < N; ++i) {
            deadlines.push_back(std::make_unique<Deadline>());
            deadlines.back()->start(&m_clock, random.bounded(40), nullptr, [&fires, i] { ++fires[i]; });
        }
        std::vector<bool> stopped(N, false);
        for (int i = 0; i < N; ++i) {
            const int what = random.bounded(3);
            if (what == 0) {
                deadlines[i]->stop();
                stopped[i] = true;
            } else if (what == 1) {
                deadlines[i]->start(&m_clock, random.bounded(40), nullptr, [&fires, i] { ++fires[i]; });
            }
        }
        const int expected = int(std::count(stopped.begin(), stopped.end(), false));
        QCOMPARE(m_clock.armedDeadlines(), expected);
        QTRY_COMPARE(m_clock.armedDeadlines(), 0);
        for (int i = 0; i < N; ++i)
            QCOMPARE(fires[i], stopped[i] ? 0 : 1);
    }
};

QTEST_GUILESS_MAIN(TestSystemClock)
#include "TestSystemClock.moc"
