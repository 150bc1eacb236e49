// Issue 19 (docs/routing.md "Removal reasons"): a sharer left out by a list is named with what
// made the list (a route target's pin, the key's allowed sharers, the key's one sharer, or
// x-aile-sharer) in the dry run, the trace and the 503 text.
#include "RoutingFixture.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1"); // openai gpt-5.2, cheapest
const QString C = QStringLiteral("L00000000000000c1"); // openai gpt-5.2, dearer
const QString X = QStringLiteral("L00000000000000f1"); // openai, gpt-5.5 only: never serves gpt-5.2
QJsonObject percent(int p)
{
    return QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), p}}}};
}
} // namespace

class TestRemovalReasons : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

    QString keyId() const { return f.engine->context().keys.first().id; }

    // Sets up the list of one kind that allows only `allowed`; returns the model to send and the
    // headers to send it with.
    QString allowOnly(const QString &kind, const QString &allowed, QList<QPair<QByteArray, QByteArray>> *headers)
    {
        if (kind == QLatin1String("route target pin")) {
            const QJsonArray routes{QJsonObject{
                {QStringLiteral("name"), QStringLiteral("coding")},
                {QStringLiteral("targets"),
                 QJsonArray{QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}, {QStringLiteral("sharer"), allowed}}}}}};
            [&] { QCOMPARE(f.admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + keyId(), {{QStringLiteral("routes"), routes}}).status, 200); }();
            return QStringLiteral("coding");
        }
        if (kind == QLatin1String("header"))
            headers->append({"x-aile-sharer", allowed.toLatin1()});
        else {
            const QJsonObject routing = kind == QLatin1String("key list") ? QJsonObject{{QStringLiteral("onlySharers"), QJsonArray{allowed}}}
                                                                          : QJsonObject{{QStringLiteral("sharer"), allowed}};
            [&] {
                QCOMPARE(f.admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + keyId(), {{QStringLiteral("routing"), routing}}).status, 200);
            }();
        }
        return QStringLiteral("openai/gpt-5.2");
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(50)),
                                   sharer(C, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(80)),
                                   sharer(X, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.5")}, percent(50))}));
    }

    void theReasonNamesWhatRemovedTheSharer_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("reason"); // C's removal reason
        QTest::addColumn<QString>("refusedBy");
        QTest::addColumn<QString>("unavailable"); // the 503 when the one allowed sharer does not serve the model
        QTest::newRow("a route target's pin") << QStringLiteral("route target pin")
                                              << QStringLiteral("not %1, the sharer route coding target openai/gpt-5.2 is pinned to").arg(A)
                                              << QStringLiteral("route target pin")
                                              << QStringLiteral(
                                                     "route coding target openai/gpt-5.2 is pinned to sharer %1, which has no machine online "
                                                     "and sharing openai/gpt-5.2 right now")
                                                     .arg(X);
        QTest::newRow("the key's allowed sharers") << QStringLiteral("key list") << QStringLiteral("not among this API key's allowed sharers")
                                                   << QStringLiteral("x-aile-sharer")
                                                   << QStringLiteral("none of this API key's allowed sharers (%1) has a machine online").arg(X);
        QTest::newRow("the key's one sharer") << QStringLiteral("key sharer") << QStringLiteral("not %1, this API key's one sharer").arg(A)
                                              << QStringLiteral("x-aile-sharer")
                                              << QStringLiteral("this API key's one sharer (%1) has no machine online").arg(X);
        QTest::newRow("x-aile-sharer") << QStringLiteral("header") << QStringLiteral("not among the sharers x-aile-sharer allows")
                                       << QStringLiteral("x-aile-sharer")
                                       << QStringLiteral("none of the sharers x-aile-sharer allows (%1) has a machine online").arg(X);
    }

    void theReasonNamesWhatRemovedTheSharer()
    {
        QFETCH(QString, kind);
        QFETCH(QString, reason);
        QFETCH(QString, refusedBy);
        QFETCH(QString, unavailable);
        QList<QPair<QByteArray, QByteArray>> headers;
        const QString model = allowOnly(kind, A, &headers);

        // The dry run names C as removed, and why.
        QJsonObject given;
        for (const auto &[name, value] : headers)
            given.insert(QString::fromLatin1(name), QString::fromLatin1(value));
        const Reply dry = f.admin(QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"),
                                  {{QStringLiteral("key"), keyId()}, {QStringLiteral("model"), model}, {QStringLiteral("headers"), given}});
        QCOMPARE(dry.status, 200);
        const QJsonArray removed = dry.json().value(QLatin1String("targets")).toArray().first().toObject().value(QLatin1String("removed")).toArray();
        QCOMPARE(removed.size(), 1);
        QCOMPARE(removed.first().toObject().value(QLatin1String("handle")).toString(), C);
        QCOMPARE(removed.first().toObject().value(QLatin1String("reason")).toString(), reason);
        QCOMPARE(removed.first().toObject().value(QLatin1String("refusedBy")).toString(), refusedBy);

        // The request is served by A; its trace has C's row with the same reason.
        const Reply served = f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(model), headers);
        QCOMPARE(served.status, 200);
        QCOMPARE(served.header("x-aile-sharer"), A.toLatin1());
        bool named = false;
        for (const QJsonValue &v : f.lastAttempts())
            named =
                named
                || (v.toObject().value(QLatin1String("sharer")).toString() == C && v.toObject().value(QLatin1String("reason")).toString() == reason);
        QVERIFY2(named, qPrintable(QString::fromUtf8(QJsonDocument(f.lastAttempts()).toJson())));

        // Allowing only X, which does not share gpt-5.2: the 503 names the same list.
        headers.clear();
        const QString again = allowOnly(kind, X, &headers);
        const Reply refused = f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(again), headers);
        QCOMPARE(refused.status, 503);
        QVERIFY2(errorMessage(refused).contains(unavailable), qPrintable(errorMessage(refused)));
        // A route's refusal carries the target's refusal as its code.
        const QJsonObject error = refused.json().value(QLatin1String("error")).toObject();
        QCOMPARE(error.value(QLatin1String(kind == QLatin1String("route target pin") ? "code" : "refusedBy")).toString(), refusedBy);
        QVERIFY(f.upstream->received().size() == 1);
    }
};

QTEST_GUILESS_MAIN(TestRemovalReasons)
#include "TestRemovalReasons.moc"
