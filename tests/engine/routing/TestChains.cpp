// Issue 6, docs/routing.md "Fallback chains": a body's `models` replaces `model`, only the
// first three count and at most three attempts are made across them; PUT /v1/routing holds a
// default_model and up to eight fallback_models appended after the request's own.
#include "RoutingFixture.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1"); // gpt-5.2, cheapest
const QString C = QStringLiteral("L00000000000000c1"); // gpt-5.2
const QString D = QStringLiteral("L00000000000000d1"); // gpt-5.2, dearest
const QString B = QStringLiteral("L00000000000000b1"); // gpt-5.5
QJsonObject percent(int p)
{
    return QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), p}}}};
}
QJsonObject models(const QStringList &list)
{
    return QJsonObject{{QStringLiteral("models"), QJsonArray::fromStringList(list)}};
}
} // namespace

class TestChains : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

    Reply chain(const QStringList &list, const QString &model = QStringLiteral("openai/gpt-5.2"))
    {
        return f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(model, false, models(list)));
    }
    Reply routing(const QByteArray &method, const QByteArray &body = {})
    {
        return send(QString::fromLatin1(method), f.engine->baseUrl() + QStringLiteral("/v1/routing"), body,
                    {{"authorization", QByteArray("Bearer ") + AdminToken}});
    }
    QStringList dialled(const QJsonArray &attempts)
    {
        QStringList out;
        for (const QJsonValue &v : attempts)
            if (v.toObject().value(QLatin1String("dispatched")).toBool())
                out << v.toObject().value(QLatin1String("sharer")).toString();
        return out;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(50)),
                                   sharer(C, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(70)),
                                   sharer(D, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(90)),
                                   sharer(B, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.5")}, percent(50))}));
    }

    void modelsReplacesModelAndTheNextModelServesWhenTheFirstCannot()
    {
        // gpt-5.6-sol has no sharer: passed over, and gpt-5.5 serves; the upstream sees its own name.
        const Reply r = chain({QStringLiteral("openai/gpt-5.6-sol"), QStringLiteral("openai/gpt-5.5")});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), B.toLatin1());
        QCOMPARE(f.upstream->received().last().json().value(QLatin1String("model")).toString(), QStringLiteral("gpt-5.5"));
        QVERIFY(!f.upstream->received().last().json().contains(QLatin1String("models")));
    }

    void atMostThreeAttemptsAcrossTheChain()
    {
        for (const QString &h : {A, C, D, B})
            f.upstream->enqueueFor(h.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        const Reply r = chain({QStringLiteral("openai/gpt-5.2"), QStringLiteral("openai/gpt-5.5")});
        QVERIFY2(r.status >= 500, qPrintable(QString::number(r.status)));
        // B, gpt-5.5's sharer, would be the fourth: never dialled.
        QCOMPARE(dialled(f.lastAttempts()), (QStringList{A, C, D}));
        // One model alone keeps the usual four dials between its sharers.
        f.engine->context().health->reset();
        for (const QString &h : {A, C, D})
            f.upstream->enqueueFor(h.toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        QVERIFY(chain({QStringLiteral("openai/gpt-5.2")}).status >= 500);
        QCOMPARE(dialled(f.lastAttempts()).size(), 3);
    }

    void onlyTheFirstThreeModelsCount()
    {
        const Reply r = chain({QStringLiteral("openai/gpt-5.6-sol"), QStringLiteral("openai/gpt-6"), QStringLiteral("openai/gpt-5.6-luna"),
                               QStringLiteral("openai/gpt-5.5")});
        QVERIFY2(r.status >= 400, qPrintable(QString::number(r.status)));
        QVERIFY(f.upstream->received().isEmpty());
    }

    void badChainsAreRefused()
    {
        const Reply r = f.post(QStringLiteral("/v1/chat/completions"),
                               RoutingFixture::chatBody(QStringLiteral("openai/gpt-5.2"), false,
                                                        {{QStringLiteral("models"), QJsonArray{QStringLiteral("openai/gpt-5.2"), 7}}}));
        QCOMPARE(r.status, 400);
        QVERIFY(errorMessage(r).contains(QLatin1String("\"models\" is a list of model names")));
    }

    void phaseLimitsAreAKeySettingAndTheLastAttemptPastOneIs524()
    {
        const QString keyId = f.engine->context().keys.first().id;
        auto setPhaseLimits = [&](bool on) {
            return send(QStringLiteral("PUT"), f.engine->baseUrl() + QStringLiteral("/keys/") + keyId,
                        QJsonDocument(QJsonObject{{QStringLiteral("routing"), QJsonObject{{QStringLiteral("phaseLimits"), on}}}}).toJson(),
                        {{"authorization", QByteArray("Bearer ") + AdminToken}})
                .status;
        };
        QCOMPARE(setPhaseLimits(true), 200);
        // Every gpt-5.5 sharer (one) hangs: a non-streamed answer would get 180 s, but the request's
        // 120 s first-byte budget binds first; past it on the last attempt, 524.
        Script hang;
        hang.hangForever = true;
        f.upstream->enqueueFor(B.toLatin1(), hang);
        QNetworkReply *reply = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"),
                                             RoutingFixture::chatBody(QStringLiteral("openai/gpt-5.5")), f.auth());
        QTRY_COMPARE(f.upstream->inFlight(), 1);
        f.clock.advance(119'000);
        QVERIFY(!reply->isFinished());
        f.clock.advance(1'000);
        const Reply r = AsyncClient::wait(reply);
        QCOMPARE(r.status, 524);
        QVERIFY2(errorMessage(r).contains(QLatin1String("phase limit")), qPrintable(errorMessage(r)));
        f.engine->context().health->reset();
        // A stream gets 30 s to its first byte; the next sharer is tried.
        f.upstream->enqueueFor(A.toLatin1(), hang);
        reply = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"),
                              RoutingFixture::chatBody(QStringLiteral("openai/gpt-5.2"), true), f.auth());
        QTRY_COMPARE(f.upstream->inFlight(), 1);
        f.clock.advance(30'000);
        const Reply streamed = AsyncClient::wait(reply);
        QCOMPARE(streamed.status, 200); // held open with keep-alives after 25 s (x-aile-edge-hold)
        QVERIFY(streamed.body.endsWith("data: [DONE]\n\n"));
        QCOMPARE(f.lastTrace().value(QLatin1String("sharer")).toString(), C);
        const QJsonArray rows = f.lastAttempts();
        QCOMPARE(rows.first().toObject().value(QLatin1String("outcome")).toString(), QStringLiteral("phase_limit"));
        // A is not benched for the key's own limit: it is still first.
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).header("x-aile-sharer"), A.toLatin1());
        // Off again: the default budget applies (the first attempt gets all 120 s).
        QCOMPARE(setPhaseLimits(false), 200);
        QCOMPARE(send(QStringLiteral("PUT"), f.engine->baseUrl() + QStringLiteral("/keys/") + keyId, "{\"routing\": {\"phaseLimits\": 3}}",
                      {{"authorization", QByteArray("Bearer ") + AdminToken}})
                     .status,
                 400);
    }

    void theAccountsDefaultAndFallbacks()
    {
        QCOMPARE(routing("GET").json().value(QLatin1String("default_model")).isNull(), true);
        QCOMPARE(routing("PUT", "{\"default_model\": \"openai/gpt-5.5\", \"fallback_models\": [\"openai/gpt-5.5\"]}").status, 200);
        QCOMPARE(routing("GET").json().value(QLatin1String("default_model")).toString(), QStringLiteral("openai/gpt-5.5"));
        // A request that names no model takes the default.
        const QJsonObject noModel{{QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                      {QStringLiteral("content"), QStringLiteral("hi")}}}}};
        Reply r = f.post(QStringLiteral("/v1/chat/completions"), QJsonDocument(noModel).toJson());
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), B.toLatin1());
        // A model nobody serves falls back to the account's fallbacks.
        r = f.chat(QStringLiteral("openai/gpt-5.6-sol"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), B.toLatin1());
        // Survives a restart.
        QVERIFY(f.engine->restart());
        QCOMPARE(routing("GET").json().value(QLatin1String("fallback_models")).toArray().size(), 1);
        // Values are checked.
        QCOMPARE(routing("PUT", "{\"fallback_models\": [\"a/1\",\"a/2\",\"a/3\",\"a/4\",\"a/5\",\"a/6\",\"a/7\",\"a/8\",\"a/9\"]}").status, 400);
        r = routing("PUT", "{\"default_model\": \"gpt-5.2\"}");
        QCOMPARE(r.status, 400);
        QVERIFY(errorMessage(r).contains(QLatin1String("provider/model")));
    }
};

QTEST_GUILESS_MAIN(TestChains)
#include "TestChains.moc"
