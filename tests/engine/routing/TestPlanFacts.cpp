// The attempt row's plan facts (Routing::planFacts) are kept and shared between requests, and an
// object with the same facts but the health factor is copied with its health replaced
// (docs/performance.md "Change 13 (plan)"): each row must still say what its own plan knew.
#include "routing/PlanFacts.h"

#include <QtTest/QtTest>

using namespace Aile::Routing;

namespace {

Plan planOf(const QList<Candidate> &candidates, bool sampled)
{
    Plan p;
    Target t;
    t.provider = QStringLiteral("openai");
    t.model = QStringLiteral("gpt-5.2");
    t.candidates = candidates;
    p.targets.append(t);
    p.sampled = sampled;
    return p;
}

Candidate candidate(const QString &handle, double health, int priority = 0)
{
    Candidate c;
    c.handle = handle;
    c.name = handle;
    c.health = health;
    c.priority = priority;
    c.weight = 3;
    c.tested = true;
    return c;
}

// Built afresh, member by member: what every row must equal.
QJsonObject expected(const Candidate &c, int rank, int of, const QStringList &group, bool drawn)
{
    QJsonObject o{{QStringLiteral("tier"), c.priority},
                  {QStringLiteral("weight"), c.weight},
                  {QStringLiteral("health"), c.health},
                  {QStringLiteral("tested"), c.tested},
                  {QStringLiteral("rank"), rank},
                  {QStringLiteral("of"), of},
                  {QStringLiteral("tieGroup"), QJsonArray::fromStringList(group)},
                  {QStringLiteral("drawn"), drawn}};
    if (c.degraded)
        o.insert(QStringLiteral("degraded"), true);
    return o;
}

} // namespace

class TestPlanFacts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachRowSaysItsOwnHealthAndStanding()
    {
        // The same candidate request after request, its health moving as answers come back, then
        // its tier and standing changing: every row equals the facts built afresh.
        const QList<double> healths{1.0, 0.8, 0.8, 0.61, 1.0, 0.25, 0.61};
        for (const double h : healths) {
            const Candidate c = candidate(QStringLiteral("a"), h);
            QCOMPARE(planFacts(planOf({c}, false), 0, 0), expected(c, 1, 1, {}, false));
        }
        Candidate tiered = candidate(QStringLiteral("a"), 0.8, 2);
        QCOMPARE(planFacts(planOf({tiered}, false), 0, 0), expected(tiered, 1, 1, {}, false));
        tiered.degraded = true;
        QCOMPARE(planFacts(planOf({tiered}, false), 0, 0), expected(tiered, 1, 1, {}, false));
        tiered.degraded = false;
        tiered.health = 0.5;
        QCOMPARE(planFacts(planOf({tiered}, false), 0, 0), expected(tiered, 1, 1, {}, false));
    }

    void aTieGroupAndItsDrawAreTheRowsOwn()
    {
        Candidate a = candidate(QStringLiteral("a"), 0.9), b = candidate(QStringLiteral("b"), 0.7);
        b.tiedWithPrevious = true;
        QCOMPARE(planFacts(planOf({a, b}, true), 0, 1), expected(b, 2, 2, {QStringLiteral("a")}, true));
        b.health = 0.4; // the same group, another health
        QCOMPARE(planFacts(planOf({a, b}, true), 0, 1), expected(b, 2, 2, {QStringLiteral("a")}, true));
        b.tiedWithPrevious = false; // no longer tied: no group, no draw
        QCOMPARE(planFacts(planOf({a, b}, true), 0, 1), expected(b, 2, 2, {}, false));
    }
};

QTEST_GUILESS_MAIN(TestPlanFacts)
#include "TestPlanFacts.moc"
