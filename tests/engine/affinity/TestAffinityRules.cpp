// SPEC §10 and docs/affinity.md: the rules of session affinity, one by one, through the
// real engine on a ManualClock.
#include "AffinityFixture.h"

#include "http/HttpHeaders.h"
#include "routing/SessionEvidence.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QByteArray A = "L00000000000000a1";
const QByteArray B = "L00000000000000b1";
const QString Model = QStringLiteral("openai/gpt-5.2");

QJsonArray twoSharers(const QString &provider, const QString &model, const QJsonObject &extra = {})
{
    return QJsonArray{sharer(QString::fromLatin1(A), provider, {}, {model}, extra), sharer(QString::fromLatin1(B), provider, {}, {model}, extra)};
}

// One turn of a chat conversation opened by `opening`, in session `session` (none when empty).
Turn chatTurn(AffinityFixture &f, const QString &session, const QString &opening, const HeaderList &extra = {}, const QJsonObject &more = {})
{
    QJsonObject body{{QStringLiteral("model"), Model},
                     {QStringLiteral("messages"),
                      QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), opening}}}}};
    for (auto it = more.begin(); it != more.end(); ++it)
        body.insert(it.key(), it.value());
    HeaderList h = extra;
    if (!session.isEmpty())
        h.append({"x-aile-session", session.toUtf8()});
    return f.send(QStringLiteral("/v1/chat/completions"), body, {}, h);
}

QString handle(const QByteArray &h)
{
    return QString::fromLatin1(h);
}

// Claude Code's recorded conversation sent through a key's route "cc" (claude, then openrouter)
// with a first-token limit of 5 s: the same turns, with the route's name as the model.
const QByteArray R = "L00000000000000e1";
bool startWithFirstTokenRoute(AffinityFixture &f)
{
    const QJsonObject subscription{{QStringLiteral("kind"), QStringLiteral("subscription")}, {QStringLiteral("slots"), 1}};
    QJsonArray sharers = twoSharers(QStringLiteral("claude"), QStringLiteral("claude-sonnet-5"), subscription);
    sharers.append(sharer(handle(R), QStringLiteral("openrouter"), {}, {QStringLiteral("anthropic/claude-sonnet-5")}));
    if (!f.start(sharers))
        return false;
    const QJsonArray targets{QJsonObject{{QStringLiteral("model"), QStringLiteral("claude/claude-sonnet-5")}},
                             QJsonObject{{QStringLiteral("model"), QStringLiteral("openrouter/anthropic/claude-sonnet-5")}}};
    const QJsonObject routes{{QStringLiteral("routes"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("cc")},
                                                                               {QStringLiteral("ttftMs"), 5000},
                                                                               {QStringLiteral("targets"), targets}}}}};
    return send(QStringLiteral("PUT"), f.engine->baseUrl() + QStringLiteral("/keys/") + f.engine->context().keys.first().id,
                QJsonDocument(routes).toJson(), {{"authorization", QByteArray("Bearer ") + AdminToken}})
               .status
           == 200;
}
QJsonObject throughRoute(QJsonObject body)
{
    body.insert(QStringLiteral("model"), QStringLiteral("cc"));
    return body;
}
} // namespace

class TestAffinityRules : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // A conversation that names nothing is known by its opening: the system prompt, the first user
    // message and the first answer. What comes after changes no digest of it, but every answer's
    // tool calls still pin (routing/SessionEvidence.cpp reads the later turns' evidence, not their text).
    void onlyTheOpeningsTextNamesAConversation_data()
    {
        QTest::addColumn<int>("wire");
        QTest::newRow("chat completions") << int(Wire::Endpoint::ChatCompletions);
        QTest::newRow("messages") << int(Wire::Endpoint::Messages);
    }
    void onlyTheOpeningsTextNamesAConversation()
    {
        QFETCH(int, wire);
        const auto endpoint = Wire::Endpoint(wire);
        const bool chat = endpoint == Wire::Endpoint::ChatCompletions;
        auto message = [](const QString &role, const QJsonValue &content) {
            return QJsonObject{{QStringLiteral("role"), role}, {QStringLiteral("content"), content}};
        };
        // An answer that calls a tool, in the wire's own shape.
        auto toolAnswer = [&](const QString &text, const QString &id) {
            if (chat) {
                QJsonObject m = message(QStringLiteral("assistant"), text);
                m.insert(QStringLiteral("tool_calls"),
                         QJsonArray{QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("type"), QStringLiteral("function")}}});
                return m;
            }
            return message(QStringLiteral("assistant"),
                           QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}},
                                      QJsonObject{{QStringLiteral("type"), QStringLiteral("tool_use")}, {QStringLiteral("id"), id}}});
        };
        auto evidence = [&](const QString &firstAnswer, const QString &laterText, const QString &laterToolId) {
            QJsonArray messages{message(QStringLiteral("user"), QStringLiteral("open the file")), message(QStringLiteral("assistant"), firstAnswer),
                                message(QStringLiteral("user"), laterText)};
            messages.append(laterToolId.isEmpty() ? message(QStringLiteral("assistant"), laterText) : toolAnswer(laterText, laterToolId));
            messages.append(message(QStringLiteral("user"), QStringLiteral("go on")));
            const QJsonObject body{{QStringLiteral("model"), QStringLiteral("m")}, {QStringLiteral("messages"), messages}};
            return Routing::readSessionEvidence(endpoint, Http::HttpHeaders{}, body, Routing::ClientKind::Unknown, QStringLiteral("key-1"),
                                                QStringLiteral("m"));
        };
        const Routing::SessionEvidence base = evidence(QStringLiteral("here it is"), QStringLiteral("later"), {});
        QCOMPARE(base.opening.size(), 16);
        QVERIFY(base.toolCall.isEmpty());
        QCOMPARE(evidence(QStringLiteral("here it is"), QStringLiteral("other later text"), {}).opening, base.opening);
        QVERIFY(evidence(QStringLiteral("another first answer"), QStringLiteral("later"), {}).opening != base.opening);
        const Routing::SessionEvidence tool = evidence(QStringLiteral("here it is"), QStringLiteral("later"), QStringLiteral("call_Xy7Qw2Lm9Pz4"));
        QCOMPARE(tool.opening, base.opening);
        QCOMPARE(tool.toolCall, Routing::answerPinKey(QStringLiteral("key-1"), 'u', QStringLiteral("call_Xy7Qw2Lm9Pz4")));
    }

    void severalConversationsInOneSessionKeepTheirOwnAccount()
    {
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        const Turn c1 = chatTurn(f, QStringLiteral("s-1"), QStringLiteral("conversation one"));
        QCOMPARE(c1.verdict(), QByteArray("fresh"));
        const QByteArray x = c1.sharer(), y = otherOf(x, A, B);
        // A new conversation starts where the session last was.
        const Turn c2 = chatTurn(f, QStringLiteral("s-1"), QStringLiteral("conversation two"));
        QCOMPARE(c2.sharer(), x);
        QCOMPARE(c2.verdict(), QByteArray("pinned"));
        // Its account cools down: the second conversation moves, and says why.
        f.engine->context().health->recordFailure(handle(x), QStringLiteral("gpt-5.2"), Health::Failure::ServerError);
        const Turn moved = chatTurn(f, QStringLiteral("s-1"), QStringLiteral("conversation two"));
        QCOMPARE(moved.sharer(), y);
        QCOMPARE(moved.verdict(), QByteArray("moved: cooling"));
        f.engine->context().health->reset();
        // Each keeps its own: the one that finished elsewhere does not move the other.
        QCOMPARE(chatTurn(f, QStringLiteral("s-1"), QStringLiteral("conversation one")).sharer(), x);
        const Turn back = chatTurn(f, QStringLiteral("s-1"), QStringLiteral("conversation two"));
        QCOMPARE(back.sharer(), y);
        QCOMPARE(back.verdict(), QByteArray("pinned"));
        QCOMPARE(f.lastTrace().value(QLatin1String("pin")).toObject().value(QLatin1String("foundBy")).toString(), QStringLiteral("conversation"));
        // A third starts where the session last was: y.
        QCOMPARE(chatTurn(f, QStringLiteral("s-1"), QStringLiteral("conversation three")).sharer(), y);
        // Another session is its own.
        QCOMPARE(chatTurn(f, QStringLiteral("s-2"), QStringLiteral("conversation one")).verdict(), QByteArray("fresh"));
    }

    void aPromptCacheKeyPinsEachConversationNotAll()
    {
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        const QJsonObject key{{QStringLiteral("prompt_cache_key"), QStringLiteral("feature-summaries")}};
        const Turn one = chatTurn(f, {}, QStringLiteral("summarise report 1"), {}, key);
        QCOMPARE(one.verdict(), QByteArray("fresh"));
        f.setPercent(handle(otherOf(one.sharer(), A, B)), 90);
        const Turn again = chatTurn(f, {}, QStringLiteral("summarise report 1"), {}, key);
        QCOMPARE(again.sharer(), one.sharer());
        QCOMPARE(again.verdict(), QByteArray("pinned"));
        // Another conversation under the same key is not pulled onto that account.
        const Turn other = chatTurn(f, {}, QStringLiteral("summarise report 2"), {}, key);
        QCOMPARE(other.verdict(), QByteArray("fresh"));
        QCOMPARE(other.sharer(), otherOf(one.sharer(), A, B)); // the cheaper one, as without affinity
    }

    void theQuoteMayBeAtMostTheToleranceAboveTheFirstChoice()
    {
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        const QByteArray x = chatTurn(f, QStringLiteral("s"), QStringLiteral("hello")).sharer();
        const QString y = handle(otherOf(x, A, B));
        f.setPercent(y, 84); // 100 ≤ 1.2 × 84
        QCOMPARE(chatTurn(f, QStringLiteral("s"), QStringLiteral("hello")).verdict(), QByteArray("pinned"));
        f.setPercent(y, 83); // 100 > 1.2 × 83
        const Turn moved = chatTurn(f, QStringLiteral("s"), QStringLiteral("hello"));
        QCOMPARE(moved.verdict(), QByteArray("moved: price"));
        QCOMPARE(moved.sharer(), y.toLatin1());
        QCOMPARE(f.lastTrace().value(QLatin1String("affinity")).toString(), QStringLiteral("moved: price"));

        // The tolerance is a setting.
        AffinityFixture g;
        QVERIFY(g.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2")), {},
                        QJsonObject{{QStringLiteral("affinityPriceTolerance"), 1.5}}));
        const QByteArray gx = chatTurn(g, QStringLiteral("s"), QStringLiteral("hello")).sharer();
        g.setPercent(handle(otherOf(gx, A, B)), 70);
        QCOMPARE(chatTurn(g, QStringLiteral("s"), QStringLiteral("hello")).sharer(), gx);
    }

    void pinsExpireFiveMinutesAfterTheirLastHit()
    {
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        const QByteArray x = chatTurn(f, QStringLiteral("s"), QStringLiteral("hello")).sharer();
        f.setPercent(handle(otherOf(x, A, B)), 90);
        // Each hit restarts the timer.
        for (int i = 0; i < 3; ++i) {
            f.clock.advance(4 * 60'000);
            QCOMPARE(chatTurn(f, QStringLiteral("s"), QStringLiteral("hello")).verdict(), QByteArray("pinned"));
        }
        f.clock.advance(5 * 60'000 + 1);
        const Turn t = chatTurn(f, QStringLiteral("s"), QStringLiteral("hello"));
        QCOMPARE(t.verdict(), QByteArray("fresh"));
        QCOMPARE(t.sharer(), otherOf(x, A, B));

        // The engine's time to live is a setting.
        AffinityFixture g;
        QVERIFY(g.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2")), {}, QJsonObject{{QStringLiteral("pinTtlSeconds"), 60}}));
        chatTurn(g, QStringLiteral("s"), QStringLiteral("hello"));
        g.clock.advance(61'000);
        QCOMPARE(chatTurn(g, QStringLiteral("s"), QStringLiteral("hello")).verdict(), QByteArray("fresh"));
    }

    void aFailingAccountLosesThePin()
    {
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        const QByteArray x = chatTurn(f, QStringLiteral("s"), QStringLiteral("hello")).sharer();
        const QByteArray y = otherOf(x, A, B);
        f.upstream->enqueueFor(x, FakeUpstream::error(500, QStringLiteral("overloaded")));
        const Turn failed = chatTurn(f, QStringLiteral("s"), QStringLiteral("hello"));
        QCOMPARE(failed.reply.status, 200);
        QCOMPARE(failed.sharer(), y);
        QCOMPARE(failed.verdict(), QByteArray("moved: failed"));
        // The pin followed the account that served; x is not sent the conversation again.
        f.engine->context().health->reset();
        f.setPercent(handle(x), 90);
        const Turn next = chatTurn(f, QStringLiteral("s"), QStringLiteral("hello"));
        QCOMPARE(next.sharer(), y);
        QCOMPARE(next.verdict(), QByteArray("pinned"));
    }

    void aStreamPinsOnlyOnceItEndedCleanly()
    {
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("claude"), QStringLiteral("claude-sonnet-5"))));
        const Recorded cc = Recorded::load(QStringLiteral("claude-code.json"));
        // The stream stops before message_stop: a cut, not a clean end.
        Script cut = scriptFor(cc.answer(0));
        cut.events.removeLast();
        f.upstream->enqueue(cut);
        const Turn t = f.send(cc.path, cc.body(0), cc.headers);
        QCOMPARE(t.reply.status, 200);
        QCOMPARE(f.lastAttempts().last().toObject().value(QLatin1String("outcome")).toString(), QStringLiteral("cut"));
        QCOMPARE(f.pins().size(), 0);
        f.engine->context().health->reset();
        QCOMPARE(f.play(cc, 0).verdict(), QByteArray("fresh"));
        QVERIFY(f.pins().size() > 0);
    }

    void aBusySubscriptionAccountIsWaitedForOnAStream()
    {
        // Claude Code's next turn while a call still holds the account (slots 1): waited for up to 10 s.
        AffinityFixture f;
        const QJsonObject subscription{{QStringLiteral("kind"), QStringLiteral("subscription")}, {QStringLiteral("slots"), 1}};
        QVERIFY(f.start(twoSharers(QStringLiteral("claude"), QStringLiteral("claude-sonnet-5"), subscription)));
        const Recorded cc = Recorded::load(QStringLiteral("claude-code.json"));
        const QByteArray x = f.play(cc, 0).sharer();
        // Turn 2 holds x for 7 s.
        Script slow = scriptFor(cc.answer(1));
        slow.headDelayMs = 7'000;
        f.upstream->enqueue(slow);
        QNetworkReply *holder = f.postAsync(cc, cc.body(1));
        QTRY_COMPARE(f.upstream->received().size(), 2);
        // Turn 3 comes meanwhile (a background call, in real life): it waits for x.
        f.upstream->enqueue(scriptFor(cc.answer(2)));
        QNetworkReply *turn = f.postAsync(cc, cc.body(2));
        QTRY_COMPARE(f.pins().waiting(handle(x)), 1);
        f.clock.advance(5'000);
        QCOMPARE(f.upstream->received().size(), 2);
        f.clock.advance(2'000); // the holder finishes: its slot frees, the waiting turn goes
        const Reply held = AsyncClient::wait(holder);
        QCOMPARE(held.status, 200);
        const Reply r = AsyncClient::wait(turn);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), x);
        QCOMPARE(r.header("x-aile-session-affinity"), QByteArray("pinned"));
        QCOMPARE(f.pins().waiting(handle(x)), 0);
    }

    void aBusyAccountIsLeftAfterItsWait()
    {
        AffinityFixture f;
        const QJsonObject subscription{{QStringLiteral("kind"), QStringLiteral("subscription")}, {QStringLiteral("slots"), 1}};
        QVERIFY(f.start(twoSharers(QStringLiteral("claude"), QStringLiteral("claude-sonnet-5"), subscription)));
        const Recorded cc = Recorded::load(QStringLiteral("claude-code.json"));
        const QByteArray x = f.play(cc, 0).sharer();
        Script hang = scriptFor(cc.answer(1));
        hang.headDelayMs = 60'000;
        f.upstream->enqueue(hang);
        QNetworkReply *holder = f.postAsync(cc, cc.body(1));
        QTRY_COMPARE(f.upstream->received().size(), 2);
        f.upstream->enqueue(scriptFor(cc.answer(2)));
        QNetworkReply *turn = f.postAsync(cc, cc.body(2));
        QTRY_COMPARE(f.pins().waiting(handle(x)), 1);
        f.clock.advance(9'999);
        QCOMPARE(f.upstream->received().size(), 2);
        f.clock.advance(1);
        const Reply r = AsyncClient::wait(turn);
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), otherOf(x, A, B));
        QCOMPARE(r.header("x-aile-session-affinity"), QByteArray("moved: busy"));
        f.clock.advance(60'000);
        QCOMPARE(AsyncClient::wait(holder).status, 200);
    }

    void noBusyAccountIsWaitedForUnderARoutesFirstTokenLimit()
    {
        AffinityFixture f;
        QVERIFY(startWithFirstTokenRoute(f));
        const Recorded cc = Recorded::load(QStringLiteral("claude-code.json"));
        f.upstream->enqueue(scriptFor(cc.answer(0)));
        const QByteArray x = f.send(cc.path, throughRoute(cc.body(0)), cc.headers).sharer();
        QVERIFY(x == A || x == B);
        // Turn 2 holds x; turn 3 does not wait for it, as it would without the limit.
        Script slow = scriptFor(cc.answer(1));
        slow.headDelayMs = 3'000;
        f.upstream->enqueueFor(x, slow);
        QNetworkReply *holder = f.postAsync(cc, throughRoute(cc.body(1)));
        QTRY_COMPARE(f.upstream->received().size(), 2);
        f.upstream->enqueue(scriptFor(cc.answer(2)));
        const Turn turn = f.send(cc.path, throughRoute(cc.body(2)), cc.headers);
        QCOMPARE(turn.reply.status, 200);
        QCOMPARE(turn.sharer(), otherOf(x, A, B));
        QCOMPARE(turn.verdict(), QByteArray("moved: busy"));
        QCOMPARE(f.pins().waiting(handle(x)), 0);
        f.clock.advance(3'000);
        QCOMPARE(AsyncClient::wait(holder).status, 200);
    }

    void anAttemptDroppedAtTheFirstTokenLimitLosesThePin()
    {
        AffinityFixture f;
        QVERIFY(startWithFirstTokenRoute(f));
        const Recorded cc = Recorded::load(QStringLiteral("claude-code.json"));
        f.upstream->enqueue(scriptFor(cc.answer(0)));
        const QByteArray x = f.send(cc.path, throughRoute(cc.body(0)), cc.headers).sharer();
        f.upstream->enqueue(scriptFor(cc.answer(1)));
        QCOMPARE(f.send(cc.path, throughRoute(cc.body(1)), cc.headers).verdict(), QByteArray("pinned"));
        // Turn 3: x says nothing for the limit, and the route's next target fails too.
        Script hang;
        hang.hangForever = true;
        f.upstream->enqueueFor(x, hang);
        f.upstream->enqueueFor(R, FakeUpstream::error(500, QStringLiteral("down"), true));
        QNetworkReply *dropped = f.postAsync(cc, throughRoute(cc.body(2)));
        QTRY_COMPARE(f.upstream->received().size(), 3);
        f.clock.advance(5'000);
        QCOMPARE(AsyncClient::wait(dropped).status, 503);
        QCOMPARE(f.lastTrace().value(QLatin1String("attemptRows")).toArray().first().toObject().value(QLatin1String("outcome")).toString(),
                 QStringLiteral("ttft_dropped"));
        // The conversation is no longer pinned to x, though x was not marked down.
        QCOMPARE(f.engine->context().health->coolingUntil(handle(x), QStringLiteral("claude-sonnet-5")), 0);
        f.upstream->enqueue(scriptFor(cc.answer(2)));
        QCOMPARE(f.send(cc.path, throughRoute(cc.body(2)), cc.headers).verdict(), QByteArray("fresh"));
    }

    void otherBusySharersAreWaitedForOneSecond()
    {
        // An API-key sharer (not a subscription) holding the conversation: 1 s, stream or not.
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"), QJsonObject{{QStringLiteral("slots"), 1}})));
        const QByteArray x = chatTurn(f, QStringLiteral("s"), QStringLiteral("hello")).sharer();
        Script hang = FakeUpstream::chatCompletion();
        hang.headDelayMs = 30'000;
        f.upstream->enqueue(hang);
        const QByteArray body =
            compact(QJsonObject{{QStringLiteral("model"), Model},
                                {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                    {QStringLiteral("content"), QStringLiteral("hello")}}}}});
        const HeaderList h{{"authorization", QByteArray("Bearer ") + TestKey}, {"x-aile-session", "s"}};
        QNetworkReply *holder = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), body, h);
        QTRY_COMPARE(f.upstream->received().size(), 2);
        QNetworkReply *turn = f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), body, h);
        QTRY_COMPARE(f.pins().waiting(handle(x)), 1);
        f.clock.advance(999);
        QCOMPARE(f.upstream->received().size(), 2);
        f.clock.advance(1);
        const Reply r = AsyncClient::wait(turn);
        QCOMPARE(r.header("x-aile-sharer"), otherOf(x, A, B));
        QCOMPARE(r.header("x-aile-session-affinity"), QByteArray("moved: busy"));
        f.clock.advance(30'000);
        QCOMPARE(AsyncClient::wait(holder).status, 200);
    }

    void aNewSubagentConversationNeverWaitsBehindItsParent()
    {
        AffinityFixture f;
        const QJsonObject subscription{{QStringLiteral("kind"), QStringLiteral("subscription")}, {QStringLiteral("slots"), 1}};
        QVERIFY(f.start(twoSharers(QStringLiteral("claude"), QStringLiteral("claude-sonnet-5"), subscription)));
        const Recorded cc = Recorded::load(QStringLiteral("claude-code.json"));
        const QByteArray x = f.play(cc, 0).sharer();
        // The parent's next turn holds x.
        Script hang = scriptFor(cc.answer(1));
        hang.headDelayMs = 30'000;
        f.upstream->enqueue(hang);
        QNetworkReply *parent = f.postAsync(cc, cc.body(1));
        QTRY_COMPARE(f.upstream->received().size(), 2);
        // A subagent starts: same session, its own agent id. It goes elsewhere at once.
        const QJsonObject sub = cc.raw.value(QLatin1String("subagent")).toObject();
        f.upstream->enqueue(scriptFor(sub.value(QLatin1String("answer"))));
        const Turn t =
            f.send(cc.path, sub.value(QLatin1String("body")).toObject(), Recorded::headersOf(sub.value(QLatin1String("headers")).toObject()));
        QCOMPARE(t.reply.status, 200);
        QCOMPARE(t.sharer(), otherOf(x, A, B));
        QCOMPARE(t.verdict(), QByteArray("moved: busy"));
        QCOMPARE(f.lastTrace().value(QLatin1String("pin")).toObject().value(QLatin1String("by")).toArray().first().toString(),
                 QStringLiteral("thread"));
        f.clock.advance(30'000);
        QCOMPARE(AsyncClient::wait(parent).status, 200);
    }

    void aNamedSharerOrAnOrderSkipsAffinity()
    {
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        const QByteArray x = chatTurn(f, QStringLiteral("s"), QStringLiteral("hello")).sharer();
        f.setPercent(handle(otherOf(x, A, B)), 90);
        QCOMPARE(chatTurn(f, QStringLiteral("s"), QStringLiteral("hello"), {{"x-aile-sharer", otherOf(x, A, B)}}).verdict(),
                 QByteArray("skipped: sharer named"));
        const QJsonObject order{{QStringLiteral("provider"), QJsonObject{{QStringLiteral("order"), QJsonArray{QStringLiteral("openai")}}}}};
        const Turn ordered = chatTurn(f, QStringLiteral("s"), QStringLiteral("hello"), {}, order);
        QCOMPARE(ordered.verdict(), QByteArray("skipped: order"));
        QCOMPARE(ordered.sharer(), otherOf(x, A, B)); // the price order, not the pin
        const QJsonObject sort{{QStringLiteral("provider"), QJsonObject{{QStringLiteral("sort"), QStringLiteral("latency")}}}};
        QCOMPARE(chatTurn(f, QStringLiteral("s"), QStringLiteral("hello"), {}, sort).verdict(), QByteArray("skipped: sort"));
        // The pin itself is untouched.
        QCOMPARE(chatTurn(f, QStringLiteral("s"), QStringLiteral("hello")).sharer(), x);
    }

    void stickyOffStopsPinsButTheSessionIdStillGoesUpstream()
    {
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("claude"), QStringLiteral("claude-sonnet-5")), QJsonObject{{QStringLiteral("sticky"), false}}));
        const Recorded cc = Recorded::load(QStringLiteral("claude-code.json"));
        const Turn t1 = f.play(cc, 0);
        QCOMPARE(t1.verdict(), QByteArray("off"));
        QCOMPARE(f.pins().size(), 0);
        f.setPercent(handle(otherOf(t1.sharer(), A, B)), 90);
        const Turn t2 = f.play(cc, 1);
        QCOMPARE(t2.verdict(), QByteArray("off"));
        QCOMPARE(t2.sharer(), otherOf(t1.sharer(), A, B)); // priced afresh
        const ReceivedRequest &sent = f.upstream->received().last();
        QVERIFY(!sent.headers.value("x-claude-code-session-id").isEmpty());
        QVERIFY(sent.json().value(QLatin1String("metadata")).toObject().contains(QLatin1String("user_id")));
    }

    void aSessionDrawsItsTiesTheSameWayEveryTime()
    {
        // With a session id the tie draw hashes it; without, it is random.
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2")), QJsonObject{{QStringLiteral("sticky"), false}}));
        QSet<QByteArray> bySession;
        for (int s = 0; s < 16; ++s) {
            const QString session = QStringLiteral("session-%1").arg(s);
            const QByteArray first = chatTurn(f, session, QStringLiteral("hello")).sharer();
            for (int i = 0; i < 4; ++i)
                QCOMPARE(chatTurn(f, session, QStringLiteral("hello")).sharer(), first);
            bySession.insert(first);
        }
        QCOMPARE(bySession.size(), 2); // different sessions still spread over the tie
        QSet<QByteArray> random;
        for (int i = 0; i < 30; ++i)
            random.insert(chatTurn(f, {}, QStringLiteral("hello")).sharer());
        QCOMPARE(random.size(), 2);
    }

    void everyAnswerCarriesTheVerdict()
    {
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        const QByteArray x = chatTurn(f, QStringLiteral("s"), QStringLiteral("hello")).sharer();
        // Both accounts fail: the error answer still says what happened to the pin.
        f.upstream->enqueueFor(A, FakeUpstream::error(500, QStringLiteral("down")));
        f.upstream->enqueueFor(B, FakeUpstream::error(500, QStringLiteral("down")));
        const Turn failed = chatTurn(f, QStringLiteral("s"), QStringLiteral("hello"));
        QCOMPARE(failed.reply.status, 503);
        QCOMPARE(failed.verdict(), QByteArray("moved: failed"));
        QCOMPARE(failed.sharer(), QByteArray()); // nobody served
        Q_UNUSED(x);
        // A refusal before any dial too.
        const Turn refused =
            f.send(QStringLiteral("/v1/chat/completions"),
                   QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/no-such-model")}, {QStringLiteral("messages"), QJsonArray{}}}, {});
        QVERIFY(refused.reply.status >= 400);
        QCOMPARE(refused.verdict(), QByteArray("fresh"));
    }
};

QTEST_GUILESS_MAIN(TestAffinityRules)
#include "TestAffinityRules.moc"
