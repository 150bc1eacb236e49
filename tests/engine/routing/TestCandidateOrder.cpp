// docs/rules/routing-and-failover.md "Price is primary": the order candidates are dialled in, through the real engine.
#include "RoutingFixture.h"

#include "health/HealthBook.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
QJsonObject percent(int p, const QJsonObject &more = {})
{
    QJsonObject o = more;
    o.insert(QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), p}});
    return o;
}
const QString Model = QStringLiteral("openai/gpt-5.2");
const QStringList Gpt{QStringLiteral("gpt-5.2")};
} // namespace

class TestCandidateOrder : public QObject
{
    Q_OBJECT
private:
    // Every sharer fails with a 500 so the trace shows the whole order it was dialled in.
    static QStringList dialOrder(RoutingFixture &f, const QStringList &handles)
    {
        f.engine->context().health->reset(); // the failures of the last call bench nobody here
        for (const QString &h : handles)
            f.upstream->enqueueFor(h.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        f.chat(Model);
        QStringList order;
        for (const QJsonValue &v : f.lastAttempts())
            if (v.toObject().value(QLatin1String("dispatched")).toBool())
                order << v.toObject().value(QLatin1String("sharer")).toString();
        return order;
    }

private Q_SLOTS:
    void priceAscending()
    {
        // "The sharer pool is sorted by quoted price ascending."
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(QStringLiteral("L0000000000000100"), QStringLiteral("openai"), {}, Gpt, percent(100)),
                                   sharer(QStringLiteral("L0000000000000050"), QStringLiteral("openai"), {}, Gpt, percent(50)),
                                   sharer(QStringLiteral("L0000000000000080"), QStringLiteral("openai"), {}, Gpt, percent(80))}));
        QCOMPARE(dialOrder(f, {QStringLiteral("L0000000000000050"), QStringLiteral("L0000000000000080"), QStringLiteral("L0000000000000100")}),
                 (QStringList{QStringLiteral("L0000000000000050"), QStringLiteral("L0000000000000080"), QStringLiteral("L0000000000000100")}));
    }

    void unquotableSortsLastNeverFirst()
    {
        // "Un-quotable listings sort last, never first."
        RoutingFixture f;
        const QJsonObject quotesForAnotherModel{
            {QStringLiteral("price"),
             QJsonObject{{QStringLiteral("models"), QJsonObject{{QStringLiteral("gpt-5.5"),
                                                                 QJsonObject{{QStringLiteral("input"), 0.01}, {QStringLiteral("output"), 0.01}}}}}}}};
        QVERIFY(f.start(QJsonArray{sharer(QStringLiteral("L00000000000000f0"), QStringLiteral("openai"), {}, Gpt, quotesForAnotherModel),
                                   sharer(QStringLiteral("L0000000000000100"), QStringLiteral("openai"), {}, Gpt, percent(100))}));
        QCOMPARE(dialOrder(f, {QStringLiteral("L00000000000000f0"), QStringLiteral("L0000000000000100")}),
                 (QStringList{QStringLiteral("L0000000000000100"), QStringLiteral("L00000000000000f0")}));
    }

    void aPassingTestOnlyBreaksATie()
    {
        // "untested capacity still serves when you name it, in price order with everyone else. A passing test only
        //  breaks a tie between sharers at the same price."
        RoutingFixture f;
        const QJsonObject tested{{QStringLiteral("tested"), QJsonArray{QStringLiteral("gpt-5.2")}}};
        QVERIFY(f.start(QJsonArray{sharer(QStringLiteral("L0000000000000001"), QStringLiteral("openai"), {}, Gpt, percent(100, tested)),
                                   sharer(QStringLiteral("L0000000000000002"), QStringLiteral("openai"), {}, Gpt, percent(50)),
                                   sharer(QStringLiteral("L0000000000000003"), QStringLiteral("openai"), {}, Gpt, percent(100))}));
        for (int i = 0; i < 5; ++i) // whatever the draw: the cheap untested one, then the tested one of the tie
            QCOMPARE(dialOrder(f, {QStringLiteral("L0000000000000001"), QStringLiteral("L0000000000000002"), QStringLiteral("L0000000000000003")}),
                     (QStringList{QStringLiteral("L0000000000000002"), QStringLiteral("L0000000000000001"), QStringLiteral("L0000000000000003")}));
    }

    void tiesAreDrawnAndTheDrawSpreadsTraffic()
    {
        // "Only among sharers quoting the exact same price does anything else run: a health-weighted draw"
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(QStringLiteral("L0000000000000001"), QStringLiteral("openai"), {}, Gpt),
                                   sharer(QStringLiteral("L0000000000000002"), QStringLiteral("openai"), {}, Gpt)}));
        constexpr int N = 200;
        int first = 0;
        for (int i = 0; i < N; ++i)
            if (f.chat(Model).header("x-aile-sharer") == "L0000000000000001")
                ++first;
        // Binomial(200, 0.5): sd ≈ 7.1; four sd either side.
        QVERIFY2(first > N / 2 - 29 && first < N / 2 + 29, qPrintable(QString::number(first)));
    }

    void theDrawIsHealthWeighted()
    {
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(QStringLiteral("L0000000000000001"), QStringLiteral("openai"), {}, Gpt),
                                   sharer(QStringLiteral("L0000000000000002"), QStringLiteral("openai"), {}, Gpt)}));
        // Sharer 1 keeps answering slowly: its weight drops, and it loses most ties.
        Health::HealthBook &book = *f.engine->context().health;
        for (int i = 0; i < 10; ++i)
            book.recordSuccess(QStringLiteral("L0000000000000001"), 40'000);
        constexpr int N = 200;
        int slow = 0;
        for (int i = 0; i < N; ++i) {
            book.recordSuccess(QStringLiteral("L0000000000000001"), 40'000); // keep it slow whatever served
            if (f.chat(Model).header("x-aile-sharer") == "L0000000000000001")
                ++slow;
        }
        // Weight 1/(1+4) = 0.2 against 1: an expected share of 1/6 (33 of 200), far below an even split.
        QVERIFY2(slow < 60, qPrintable(QString::number(slow)));
        QVERIFY2(slow > 5, qPrintable(QString::number(slow)));
    }

    void aLiveCooldownIsAVeto()
    {
        // "live cooldown: a veto"
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(QStringLiteral("L0000000000000050"), QStringLiteral("openai"), {}, Gpt, percent(50)),
                                   sharer(QStringLiteral("L0000000000000100"), QStringLiteral("openai"), {}, Gpt, percent(100))}));
        f.engine->context().health->recordFailure(QStringLiteral("L0000000000000050"), QStringLiteral("gpt-5.2"), Health::Failure::ServerError);
        QCOMPARE(f.chat(Model).header("x-aile-sharer"), QByteArray("L0000000000000100"));
    }

    void aRestartReadsEverySharerNeutral()
    {
        // "The last two signals are in-memory averages and are deliberately not persisted. A restart forgets them"
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(QStringLiteral("L0000000000000050"), QStringLiteral("openai"), {}, Gpt, percent(50)),
                                   sharer(QStringLiteral("L0000000000000100"), QStringLiteral("openai"), {}, Gpt, percent(100))}));
        f.upstream->enqueueFor("L0000000000000050", FakeUpstream::error(500, QStringLiteral("down")));
        QCOMPARE(f.chat(Model).header("x-aile-sharer"), QByteArray("L0000000000000100"));
        QCOMPARE(f.chat(Model).header("x-aile-sharer"), QByteArray("L0000000000000100")); // cooling
        QVERIFY(f.engine->restart());
        QCOMPARE(f.chat(Model).header("x-aile-sharer"), QByteArray("L0000000000000050"));
    }

    void theSameSeedDrawsTheSameOrder()
    {
        // The draw is seeded, so tests (and a session, later) are deterministic.
        QStringList runs[2];
        for (int run = 0; run < 2; ++run) {
            RoutingFixture f;
            QVERIFY(f.start(QJsonArray{sharer(QStringLiteral("L0000000000000001"), QStringLiteral("openai"), {}, Gpt),
                                       sharer(QStringLiteral("L0000000000000002"), QStringLiteral("openai"), {}, Gpt),
                                       sharer(QStringLiteral("L0000000000000003"), QStringLiteral("openai"), {}, Gpt)}));
            for (int i = 0; i < 20; ++i)
                runs[run] << QString::fromLatin1(f.chat(Model).header("x-aile-sharer"));
        }
        QCOMPARE(runs[0], runs[1]);
    }
};

QTEST_GUILESS_MAIN(TestCandidateOrder)
#include "TestCandidateOrder.moc"
