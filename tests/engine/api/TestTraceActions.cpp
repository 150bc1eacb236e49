// From a trace to a fix (docs/management-api.md, "Trace actions"): POST /traces/{id}/actions acts
// on one sharer of a trace's attempt rows (clear its cooldown, mark its dead key fixed and probe
// it, re-test the model) and records the action itself as a trace of client "aile-action".
#include "RoutingFixture.h"

#include "health/HealthBook.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1");
const QString B = QStringLiteral("L00000000000000b1");
const QString Model = QStringLiteral("gpt-5.2");

QJsonObject openaiSharer(const QString &handle)
{
    return sharer(handle, QStringLiteral("openai"), {}, {Model});
}
} // namespace

class TestTraceActions : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

    Reply act(const QString &traceId, const QJsonObject &body)
    {
        return f.admin(QStringLiteral("POST"), QStringLiteral("/traces/%1/actions").arg(traceId), body);
    }

    // The action's own trace, the newest one.
    void expectRecorded(const QString &traceId, const QString &action, const QString &reasonPart)
    {
        const QJsonObject t = f.lastTrace();
        QCOMPARE(t.value(QLatin1String("client")).toString(), QStringLiteral("aile-action"));
        QCOMPARE(t.value(QLatin1String("endpoint")).toString(), QStringLiteral("/traces/%1/actions").arg(traceId));
        QVERIFY(t.value(QLatin1String("id")).toString().startsWith(QLatin1String("act_")));
        const QJsonObject row = t.value(QLatin1String("attemptRows")).toArray().first().toObject();
        QCOMPARE(row.value(QLatin1String("outcome")).toString(), action);
        QCOMPARE(row.value(QLatin1String("sharer")).toString(), A);
        QVERIFY2(row.value(QLatin1String("reason")).toString().contains(reasonPart), qPrintable(row.value(QLatin1String("reason")).toString()));
    }

private Q_SLOTS:
    void clearsTheCooldownOfARowThatWasPassedOver()
    {
        QVERIFY(f.start(QJsonArray{openaiSharer(A), openaiSharer(B)}));
        Health::HealthBook *health = f.engine->context().health;
        health->recordFailure(A, Model, Health::Failure::ServerError);
        QVERIFY(health->coolingUntil(A, Model) > 0);
        const Reply served = f.chat(QStringLiteral("openai/gpt-5.2"));
        QCOMPARE(served.header("x-aile-sharer"), B.toLatin1());
        const QString traceId = QString::fromLatin1(served.header("x-aile-request-id"));
        bool rowOfA = false;
        for (const QJsonValue &v : f.lastAttempts())
            rowOfA |= v.toObject().value(QLatin1String("sharer")).toString() == A
                      && v.toObject().value(QLatin1String("skip")).toString() == QLatin1String("cooldown");
        QVERIFY(rowOfA);

        const Reply r = act(traceId, {{QStringLiteral("action"), QStringLiteral("clear-cooldown")}, {QStringLiteral("sharer"), A}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QLatin1String("ok")).toBool(), true);
        QCOMPARE(r.json().value(QLatin1String("cleared")).toBool(), true);
        QCOMPARE(health->coolingUntil(A, Model), 0);
        expectRecorded(traceId, QStringLiteral("clear-cooldown"), QStringLiteral("back in selection"));
    }

    void marksADeadKeyFixedAndProbesIt()
    {
        QVERIFY(f.start(QJsonArray{openaiSharer(A)}));
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(401, QStringLiteral("invalid api key")));
        const Reply failed = f.chat(QStringLiteral("openai/gpt-5.2"));
        QVERIFY(failed.status >= 400);
        const QString traceId = QString::fromLatin1(failed.header("x-aile-request-id"));
        Health::HealthBook *health = f.engine->context().health;
        QVERIFY(health->of(A).deadKey);

        const Reply r = act(traceId, {{QStringLiteral("action"), QStringLiteral("mark-fixed")}, {QStringLiteral("sharer"), A}});
        QCOMPARE(r.status, 200);
        QVERIFY2(r.json().value(QLatin1String("ok")).toBool(), r.body.constData());
        QVERIFY(!health->of(A).deadKey);
        QVERIFY(r.json().value(QLatin1String("probe")).toObject().value(QLatin1String("ok")).toBool());
        expectRecorded(traceId, QStringLiteral("mark-fixed"), QStringLiteral("probe passed"));

        // Re-testing the model of the same row: one minimal request, a pass.
        const Reply t = act(traceId, {{QStringLiteral("action"), QStringLiteral("retest")}, {QStringLiteral("sharer"), A}});
        QCOMPARE(t.status, 200);
        QVERIFY2(t.json().value(QLatin1String("ok")).toBool(), t.body.constData());
        expectRecorded(traceId, QStringLiteral("retest"), QStringLiteral("test of gpt-5.2"));
    }

    // "Why this sharer?" needs the plan's facts: the dialled row keeps its tier, rank, tie group
    // and whether a draw ordered it (Routing::planFacts).
    void aDialledRowKeepsWhatThePlanKnew()
    {
        QJsonObject top = openaiSharer(A);
        top.insert(QStringLiteral("priority"), 5);
        QVERIFY(f.start(QJsonArray{top, openaiSharer(B), openaiSharer(QStringLiteral("L00000000000000c1"))}));
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).header("x-aile-sharer"), A.toLatin1());
        const QJsonObject plan = f.lastAttempts().first().toObject().value(QLatin1String("plan")).toObject();
        QCOMPARE(plan.value(QLatin1String("tier")).toInt(), 5);
        QCOMPARE(plan.value(QLatin1String("rank")).toInt(), 1);
        QCOMPARE(plan.value(QLatin1String("of")).toInt(), 3);
        QVERIFY(plan.value(QLatin1String("tieGroup")).toArray().isEmpty()); // alone in its tier
        QCOMPARE(plan.value(QLatin1String("drawn")).toBool(), false);

        // Two in the same tier and price: a tie group, ordered by a draw.
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(500, QStringLiteral("broke")));
        f.chat(QStringLiteral("openai/gpt-5.2"));
        const QJsonArray rows = f.lastAttempts();
        const QJsonObject second = rows.at(1).toObject().value(QLatin1String("plan")).toObject();
        QCOMPARE(second.value(QLatin1String("tier")).toInt(), 0);
        QCOMPARE(second.value(QLatin1String("rank")).toInt(), 2);
        QCOMPARE(second.value(QLatin1String("tieGroup")).toArray().size(), 1);
        QCOMPARE(second.value(QLatin1String("drawn")).toBool(), true);
    }

    void refusesWhatItCannotDo_data()
    {
        QTest::addColumn<QString>("trace"); // "last": the chat's trace
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        QTest::newRow("an unknown action") << "last"
                                           << QJsonObject{{QStringLiteral("action"), QStringLiteral("reboot")}, {QStringLiteral("sharer"), A}} << 400
                                           << "unknown action";
        QTest::newRow("a sharer the trace does not name")
            << "last" << QJsonObject{{QStringLiteral("action"), QStringLiteral("clear-cooldown")}, {QStringLiteral("sharer"), B}} << 400
            << "has no attempt row";
        QTest::newRow("an unknown trace") << "req_0000000000000000"
                                          << QJsonObject{{QStringLiteral("action"), QStringLiteral("clear-cooldown")}, {QStringLiteral("sharer"), A}}
                                          << 404 << "no trace";
    }

    void refusesWhatItCannotDo()
    {
        QFETCH(QString, trace);
        QFETCH(QJsonObject, body);
        QFETCH(int, status);
        QFETCH(QString, message);
        QVERIFY(f.start(QJsonArray{openaiSharer(A)}));
        const Reply served = f.chat(QStringLiteral("openai/gpt-5.2"));
        const QString id = trace == QLatin1String("last") ? QString::fromLatin1(served.header("x-aile-request-id")) : trace;
        const Reply r = act(id, body);
        QCOMPARE(r.status, status);
        QVERIFY2(errorMessage(r).contains(message), qPrintable(errorMessage(r)));
        QCOMPARE(f.lastTrace().value(QLatin1String("client")).toString() == QLatin1String("aile-action"), false); // nothing recorded
    }
};

QTEST_GUILESS_MAIN(TestTraceActions)
#include "TestTraceActions.moc"
