// docs/rules/routing-and-failover.md: "Two independent bounds on your wait", "What fails over", "A slow stream is held open",
// "Whose fault is a timeout", "Cooldowns are jittered"; docs/routing.md "Failover" (what moves to the
// next candidate and what does not). Real engine, fake upstream, one ManualClock.
#include "RoutingFixture.h"

#include <QtNetwork/QTcpServer>

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1");
const QString B = QStringLiteral("L00000000000000a2");
const QString Model = QStringLiteral("openai/gpt-5.2");

// Two openai sharers; A is cheaper, so A is dialled first.
QJsonArray twoSharers(const QString &baseA = {})
{
    QJsonObject a{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 50}}}};
    if (!baseA.isEmpty())
        a.insert(QStringLiteral("baseUrl"), baseA);
    return QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, a),
                      sharer(B, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")})};
}

QString outcomeOf(const QJsonArray &attempts, int i)
{
    return attempts.at(i).toObject().value(QLatin1String("outcome")).toString();
}
} // namespace

class TestFailover : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void failsOverOn_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("name");
        // "A rate limit, a provider's overload (529), any other server error … move on to the next sharer."
        QTest::newRow("429 rate limit") << 429 << "";
        QTest::newRow("529 overloaded") << 529 << "";
        QTest::newRow("500") << 500 << "";
        QTest::newRow("502") << 502 << "";
        QTest::newRow("503") << 503 << "";
        // A refused credential: a dead key, and the next sharer serves.
        QTest::newRow("401") << 401 << "";
    }

    void failsOverOn()
    {
        QFETCH(int, status);
        RoutingFixture f;
        QVERIFY(f.start(twoSharers()));
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(status, QStringLiteral("upstream said %1").arg(status)));
        const Reply r = f.chat(Model);
        QCOMPARE(r.status, 200);
        QCOMPARE(f.dialled(), (QStringList{A, B}));
        QCOMPARE(r.header("x-aile-attempts"), QByteArray("2"));
        QCOMPARE(r.header("x-aile-sharer"), B.toLatin1());
        const QJsonArray attempts = f.lastAttempts();
        QCOMPARE(attempts.size(), 2);
        QCOMPARE(outcomeOf(attempts, 0), QStringLiteral("failed_over"));
        QCOMPARE(attempts.at(0).toObject().value(QLatin1String("status")).toInt(), status);
        QCOMPARE(outcomeOf(attempts, 1), QStringLiteral("served"));
    }

    void failsOverOnConnectionAndTlsFailures_data()
    {
        QTest::addColumn<QString>("scheme");
        QTest::addColumn<QString>("outcome");
        QTest::newRow("connection refused") << "http"
                                            << "connect_failed";
        // "… and a broken TLS path all move on to the next sharer."
        QTest::newRow("broken TLS") << "https"
                                    << "tls_failed";
    }

    void failsOverOnConnectionAndTlsFailures()
    {
        QFETCH(QString, scheme);
        QFETCH(QString, outcome);
        RoutingFixture f;
        QString base;
        std::unique_ptr<FakeUpstream> plain;
        if (scheme == QLatin1String("http")) {
            QTcpServer closed;
            QVERIFY(closed.listen(QHostAddress::LocalHost));
            base = QStringLiteral("http://127.0.0.1:%1").arg(closed.serverPort());
            closed.close(); // nothing listens there now
        } else {
            // An https sharer whose host speaks plain HTTP: the handshake fails.
            plain = std::make_unique<FakeUpstream>();
            QVERIFY(plain->listen());
            base = QStringLiteral("https://127.0.0.1:%1").arg(plain->port());
        }
        QVERIFY(f.start(twoSharers(base)));
        const Reply r = f.chat(Model);
        QCOMPARE(r.status, 200);
        QCOMPARE(f.dialled(), QStringList{B});
        const QJsonArray attempts = f.lastAttempts();
        QCOMPARE(attempts.size(), 2);
        QVERIFY2(outcomeOf(attempts, 0).startsWith(outcome)
                     || (scheme == QLatin1String("https") && outcomeOf(attempts, 0).startsWith(QLatin1String("closed"))),
                 qPrintable(outcomeOf(attempts, 0)));
    }

    void aFourHundredDoesNotFailOver()
    {
        // "A request the provider rejects as malformed (a 400) does not: another sharer would refuse it the same way."
        RoutingFixture f;
        QVERIFY(f.start(twoSharers()));
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(400, QStringLiteral("messages: malformed")));
        const Reply r = f.chat(Model);
        QCOMPARE(r.status, 400);
        QVERIFY(r.body.contains("messages: malformed"));
        QCOMPARE(f.dialled(), QStringList{A});
        QCOMPARE(f.spentToday(), 0.0);
    }

    void atMostFourDispatchedDials()
    {
        // "Aile dials up to four sharers."
        RoutingFixture f;
        QJsonArray sharers;
        for (int i = 1; i <= 6; ++i) {
            const QString h = QStringLiteral("L00000000000000b%1").arg(i);
            sharers.append(sharer(h, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")},
                                  QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 10 * i}}}}));
        }
        QVERIFY(f.start(sharers));
        for (int i = 1; i <= 6; ++i)
            f.upstream->enqueueFor(QStringLiteral("L00000000000000b%1").arg(i).toLatin1(), FakeUpstream::error(500, QStringLiteral("down")));
        const Reply r = f.chat(Model);
        QCOMPARE(r.status, 503);
        QCOMPARE(f.dialled().size(), 4);
        QCOMPARE(r.header("x-aile-attempts"), QByteArray("4"));
        QVERIFY(errorMessage(r).contains(QLatin1String("4 tried")));
    }

    void refusalsDoNotEatTheDialBudget()
    {
        // "When refusals shared the dial budget, a pool whose first four entries were skipped returned 503
        //  to a caller while a healthy fifth sharer sat untried."
        RoutingFixture f;
        QJsonArray sharers;
        for (int i = 1; i <= 5; ++i) {
            const QString h = QStringLiteral("L00000000000000b%1").arg(i);
            sharers.append(
                sharer(h, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")},
                       QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 10 * i}}}, {QStringLiteral("slots"), 1}}));
        }
        QVERIFY(f.start(sharers));
        // Four requests that never get an answer fill the four cheapest sharers' only slot.
        QList<QNetworkReply *> hanging;
        for (int i = 1; i <= 4; ++i) {
            Script hang;
            hang.hangForever = true;
            f.upstream->enqueueFor(QStringLiteral("L00000000000000b%1").arg(i).toLatin1(), hang);
            hanging << f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model), f.auth());
            QTRY_COMPARE(f.upstream->received().size(), i);
        }
        const Reply r = f.chat(Model);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), QByteArray("L00000000000000b5"));
        QCOMPARE(r.header("x-aile-attempts"), QByteArray("1"));
        const QJsonArray attempts = f.lastAttempts();
        QCOMPARE(attempts.size(), 5);
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(outcomeOf(attempts, i), QStringLiteral("refused"));
            QVERIFY(attempts.at(i).toObject().value(QLatin1String("reason")).toString().contains(QLatin1String("slots in use")));
            QVERIFY(!attempts.at(i).toObject().value(QLatin1String("dispatched")).toBool());
        }
        for (QNetworkReply *h : hanging)
            h->abort();
    }

    void theFirstAttemptIsNeverShortened()
    {
        // "The first attempt is never shortened. … The budget therefore only squeezes later attempts"
        RoutingFixture f;
        QVERIFY(f.start(twoSharers()));
        Script hang;
        hang.hangForever = true;
        f.upstream->enqueueFor(A.toLatin1(), hang);
        QNetworkReply *reply = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model), f.auth());
        QTRY_COMPARE(f.upstream->received().size(), 1);
        f.clock.advance(119'000);
        QTest::qWait(20);
        QVERIFY(!reply->isFinished());
        QCOMPARE(f.upstream->received().size(), 1);
        f.clock.advance(1'500);
        const Reply r = AsyncClient::wait(reply);
        // The whole budget went to the first attempt: nothing is left for a second.
        QCOMPARE(r.status, 503);
        QCOMPARE(f.dialled(), QStringList{A});
        QCOMPARE(outcomeOf(f.lastAttempts(), 0), QStringLiteral("timeout"));
    }

    void laterAttemptsGetWhatIsLeftAndAreNotBenchedForIt()
    {
        RoutingFixture f;
        QVERIFY(f.start(twoSharers()));
        Script slowError = FakeUpstream::error(500, QStringLiteral("slow failure"));
        slowError.headDelayMs = 100'000;
        f.upstream->enqueueFor(A.toLatin1(), slowError);
        Script hang;
        hang.hangForever = true;
        f.upstream->enqueueFor(B.toLatin1(), hang);
        QNetworkReply *reply = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model), f.auth());
        QTRY_COMPARE(f.upstream->received().size(), 1);
        f.clock.advance(100'000);
        QTRY_COMPARE(f.upstream->received().size(), 2); // B dialled with 20 s left
        f.clock.advance(19'000);
        QTest::qWait(20);
        QVERIFY(!reply->isFinished());
        f.clock.advance(1'500);
        const Reply r = AsyncClient::wait(reply);
        QCOMPARE(r.status, 503);
        const QJsonArray attempts = f.lastAttempts();
        QCOMPARE(outcomeOf(attempts, 1), QStringLiteral("budget_cut"));
        // "A sharer cut short by Aile's own shortened budget is not benched for it."
        QCOMPARE(f.engine->context().health->coolingUntil(B, QStringLiteral("gpt-5.2")), 0);
        QCOMPARE(f.engine->context().health->of(B).ladderStep, 0);
        QCOMPARE(f.engine->context().health->of(A).ladderStep, 1); // A's own 500 does bench it
        // "The slowness still feeds sharer selection": B's 20 s counts against it in the tie draw.
        QCOMPARE(f.engine->context().health->of(B).ttfbSamples, 1);
    }

    void idleTimeoutRearmsAfterTheHead()
    {
        // "Once the provider's response head arrives, a rearming idle timeout governs instead: 10 minutes of silence"
        RoutingFixture f;
        QVERIFY(f.start(twoSharers()));
        Script slow = FakeUpstream::chatStream({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        for (int i = 1; i < slow.events.size(); ++i)
            slow.events[i].delayMs = 9 * 60'000; // a long answer with long pauses, never 10 minutes of silence
        f.upstream->enqueueFor(A.toLatin1(), slow);
        QNetworkReply *reply =
            f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model, true), f.auth());
        QTRY_COMPARE(f.upstream->received().size(), 1);
        for (int i = 0; i < slow.events.size(); ++i) {
            QTest::qWait(10);
            f.clock.advance(9 * 60'000);
        }
        const Reply ok = AsyncClient::wait(reply);
        QCOMPARE(ok.status, 200);
        QVERIFY(ok.body.endsWith("data: [DONE]\n\n"));

        Script silent = FakeUpstream::chatStream({QStringLiteral("a")});
        silent.events[2].delayMs = 11 * 60'000;
        f.upstream->enqueueFor(A.toLatin1(), silent);
        reply = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model, true), f.auth());
        QTRY_COMPARE(f.upstream->received().size(), 2);
        QTest::qWait(20);
        f.clock.advance(10 * 60'000 + 1'000);
        const Reply cut = AsyncClient::wait(reply);
        QCOMPARE(cut.status, 200);
        QVERIFY(cut.body.contains("said nothing for 600 s"));
        QCOMPARE(outcomeOf(f.lastAttempts(), 0), QStringLiteral("cut"));
        // After the first byte reached the client nothing fails over.
        QCOMPARE(f.dialled(), (QStringList{A, A}));
    }

    void connectAndTlsAreBoundedAtTwelveSeconds()
    {
        // "getting a connection up is bounded separately, at 12 seconds for connect and TLS"
        QTcpServer silent; // accepts, never speaks TLS
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        RoutingFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("https://127.0.0.1:%1").arg(silent.serverPort()))));
        QNetworkReply *reply = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model), f.auth());
        QTRY_VERIFY(silent.hasPendingConnections());
        f.clock.advance(11'000);
        QTest::qWait(20);
        QVERIFY(!reply->isFinished());
        f.clock.advance(1'500);
        const Reply r = AsyncClient::wait(reply);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), B.toLatin1());
        QCOMPARE(outcomeOf(f.lastAttempts(), 0), QStringLiteral("connect_timeout"));
    }

    void aSlowStreamIsHeldOpen_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("succeeds");
        QTest::addColumn<QByteArray>("errorFrame");
        QTest::newRow("chat, answer comes") << "/v1/chat/completions" << true << QByteArray();
        QTest::newRow("chat, failure as an error frame") << "/v1/chat/completions" << false << QByteArray("data: {\"error\":{");
        QTest::newRow("responses, failure as an error event") << "/v1/responses" << false << QByteArray("event: error\ndata: {\"code\"");
        QTest::newRow("messages, failure as event: error") << "/v1/messages" << false << QByteArray("event: error\ndata: {\"error\":{");
    }

    void aSlowStreamIsHeldOpen()
    {
        // "When a streaming request has no response head after 25 seconds, Aile commits it to 200 and sends
        //  keepalives … such a reply carries x-aile-edge-hold instead of x-aile-attempts, the sharer and the
        //  price. It keeps the provider and model … A failure after that point arrives as the SDK's own error frame"
        QFETCH(QString, path);
        QFETCH(bool, succeeds);
        QFETCH(QByteArray, errorFrame);
        const QString provider = path == QLatin1String("/v1/messages") ? QStringLiteral("claude") : QStringLiteral("openai");
        const QString model = provider == QLatin1String("claude") ? QStringLiteral("claude-sonnet-5") : QStringLiteral("gpt-5.2");
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, provider, {}, {model})}));
        Script late =
            succeeds ? FakeUpstream::chatStream() : FakeUpstream::error(500, QStringLiteral("gave up"), provider == QLatin1String("claude"));
        late.headDelayMs = 40'000;
        f.upstream->enqueueFor(A.toLatin1(), late);
        QNetworkReply *reply =
            f.client.post(f.engine->baseUrl() + path, RoutingFixture::chatBody(provider + QLatin1Char('/') + model, true), f.auth());
        QTRY_COMPARE(f.upstream->received().size(), 1);
        f.clock.advance(25'500);
        QTRY_VERIFY(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200);
        QVERIFY(reply->hasRawHeader("x-aile-edge-hold"));
        QVERIFY(!reply->hasRawHeader("x-aile-attempts"));
        QVERIFY(!reply->hasRawHeader("x-aile-sharer"));
        QVERIFY(!reply->hasRawHeader("x-aile-price"));
        QCOMPARE(reply->rawHeader("x-aile-model"), (provider + QLatin1Char('/') + model).toUtf8());
        f.clock.advance(15'000);
        const Reply r = AsyncClient::wait(reply);
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.startsWith(": keepalive\n\n"));
        if (succeeds)
            QVERIFY(r.body.endsWith("data: [DONE]\n\n"));
        else
            QVERIFY2(r.body.contains(errorFrame), r.body.constData());
    }

    void retryAfterBenchesTheSharerUntilThen()
    {
        RoutingFixture f;
        QVERIFY(f.start(twoSharers()));
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(429, QStringLiteral("slow down"), false, 30));
        QCOMPARE(f.chat(Model).header("x-aile-sharer"), B.toLatin1());
        // A is cooling: refused before any dial, free of charge, shown in the trace.
        QCOMPARE(f.chat(Model).header("x-aile-sharer"), B.toLatin1());
        const QJsonArray attempts = f.lastAttempts();
        QCOMPARE(outcomeOf(attempts, 0), QStringLiteral("refused"));
        QVERIFY(attempts.at(0).toObject().value(QLatin1String("reason")).toString().contains(QLatin1String("cooling")));
        f.clock.advance(31'000);
        QCOMPARE(f.chat(Model).header("x-aile-sharer"), A.toLatin1());
    }

    void everySharerCoolingIs429WithTheEarliestEnd()
    {
        RoutingFixture f;
        QVERIFY(f.start(twoSharers()));
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(429, QStringLiteral("slow down"), false, 60));
        f.upstream->enqueueFor(B.toLatin1(), FakeUpstream::error(429, QStringLiteral("slow down"), false, 90));
        const Reply first = f.chat(Model);
        QCOMPARE(first.status, 429);
        QCOMPARE(first.header("retry-after"), QByteArray("60"));
        const Reply second = f.chat(Model);
        QCOMPARE(second.status, 429);
        QCOMPARE(second.header("retry-after"), QByteArray("60"));
        QCOMPARE(f.dialled().size(), 2);
    }

    void aCutStreamCoolsItsAccountForTenMinutes()
    {
        // "a stream that ends cleanly before the provider's own end event … cools that account for ten minutes … Billing is unchanged."
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("claude"), {}, {QStringLiteral("claude-sonnet-5")},
                                          QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 50}}}}),
                                   sharer(B, QStringLiteral("claude"), {}, {QStringLiteral("claude-sonnet-5")})}));
        Script cut = FakeUpstream::messagesStream();
        cut.events.removeLast(); // no message_stop
        f.upstream->enqueueFor(A.toLatin1(), cut);
        const Reply r = f.post(QStringLiteral("/v1/messages"), RoutingFixture::chatBody(QStringLiteral("claude/claude-sonnet-5"), true));
        QCOMPARE(r.status, 200);
        QCOMPARE(outcomeOf(f.lastAttempts(), 0), QStringLiteral("cut"));
        QVERIFY(f.spentToday() > 0);
        QCOMPARE(f.post(QStringLiteral("/v1/messages"), RoutingFixture::chatBody(QStringLiteral("claude/claude-sonnet-5"))).header("x-aile-sharer"),
                 B.toLatin1());
        f.clock.advance(10 * 60'000 + 1'000);
        QCOMPARE(f.post(QStringLiteral("/v1/messages"), RoutingFixture::chatBody(QStringLiteral("claude/claude-sonnet-5"))).header("x-aile-sharer"),
                 A.toLatin1());
    }

    void limitZeroTakesThatModelOffThatAccount()
    {
        // "Google's "limit: 0" refusal on an API key fails over and takes that one model off that account … its other models keep serving."
        RoutingFixture f;
        const QStringList models{QStringLiteral("gemini-3.1-pro"), QStringLiteral("gemini-3.5-flash")};
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("gemini"), {}, models,
                                          QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 50}}}}),
                                   sharer(B, QStringLiteral("gemini"), {}, models)}));
        f.upstream->enqueueFor(A.toLatin1(),
                               FakeUpstream::error(429, QStringLiteral("Quota exceeded for metric: generate_content_free_tier_requests, limit: 0")));
        QCOMPARE(f.chat(QStringLiteral("gemini/gemini-3.1-pro")).header("x-aile-sharer"), B.toLatin1());
        QCOMPARE(f.chat(QStringLiteral("gemini/gemini-3.1-pro")).header("x-aile-sharer"), B.toLatin1());
        QCOMPARE(f.chat(QStringLiteral("gemini/gemini-3.5-flash")).header("x-aile-sharer"), A.toLatin1());
    }

    void aDeadKeySortsLastAndAServeRestoresIt()
    {
        // "An API-key account the provider refused outright … sorts after every other candidate and leaves the
        //  chat catalogue. It is demoted, never removed, and a successful serve … restores it"
        RoutingFixture f;
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")},
                                          QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 50}}},
                                                      {QStringLiteral("tested"), QJsonArray{QStringLiteral("gpt-5.2")}}}),
                                   sharer(B, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.5")},
                                          QJsonObject{{QStringLiteral("tested"), QJsonArray{QStringLiteral("gpt-5.5")}}}),
                                   sharer(QStringLiteral("L00000000000000a3"), QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")})}));
        f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(401, QStringLiteral("invalid api key")));
        QCOMPARE(f.chat(Model).header("x-aile-sharer"), QByteArray("L00000000000000a3"));
        // Demoted: the dearer sharer goes first now.
        QCOMPARE(f.chat(Model).header("x-aile-sharer"), QByteArray("L00000000000000a3"));
        const Reply models = send(QStringLiteral("GET"), f.engine->baseUrl() + QStringLiteral("/v1/models"), {}, f.auth());
        QVERIFY(!models.body.contains("openai/gpt-5.2"));
        QVERIFY(models.body.contains("openai/gpt-5.5"));
        // Never removed: when the others fail, it still serves, and serving restores it.
        f.upstream->enqueueFor("L00000000000000a3", FakeUpstream::error(500, QStringLiteral("down")));
        QCOMPARE(f.chat(Model).header("x-aile-sharer"), A.toLatin1());
        f.clock.advance(60'000);
        QCOMPARE(f.chat(Model).header("x-aile-sharer"), A.toLatin1());
    }

    void aClientDisconnectIsNotRetriedAndNotCounted()
    {
        // "La déconnexion de votre client. La requête s'arrête, et rien n'est relancé à votre place."
        RoutingFixture f;
        QVERIFY(f.start(twoSharers()));
        Script hang;
        hang.hangForever = true;
        f.upstream->enqueueFor(A.toLatin1(), hang);
        QNetworkReply *reply = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model), f.auth());
        QTRY_COMPARE(f.upstream->received().size(), 1);
        reply->abort();
        QTRY_COMPARE(f.upstream->disconnects(), 1);
        QCOMPARE(f.dialled(), QStringList{A});
        QCOMPARE(outcomeOf(f.lastAttempts(), 0), QStringLiteral("client_gone"));
        QCOMPARE(f.engine->context().health->coolingUntil(A, QStringLiteral("gpt-5.2")), 0);
        QCOMPARE(f.engine->context().health->of(A).outcomes, 0);
    }

    void aFailureAfterTheFirstByteIsNotRetried()
    {
        // "Un échec après l'envoi du premier octet d'une réponse … la requête n'est pas relancée chez un autre fournisseur."
        RoutingFixture f;
        QVERIFY(f.start(twoSharers()));
        Script broken = FakeUpstream::chatStream();
        broken.events.resize(2);
        broken.cutBeforeEnd = true; // the connection drops inside the body
        f.upstream->enqueueFor(A.toLatin1(), broken);
        const Reply r = f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Model, true));
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.contains("broke mid-answer"));
        QCOMPARE(f.dialled(), QStringList{A});
    }
};

QTEST_GUILESS_MAIN(TestFailover)
#include "TestFailover.moc"
