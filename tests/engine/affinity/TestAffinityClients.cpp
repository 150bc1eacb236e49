// SPEC §10, docs/affinity.md: multi-turn conversations of the real clients, as they send
// them (recorded bodies in data/), stay on the account that served them, by the closest evidence.
#include "AffinityFixture.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
const QByteArray A = "L00000000000000a1";
const QByteArray B = "L00000000000000b1";

QJsonArray twoSharers(const QString &provider, const QString &model, const QJsonObject &extra = {})
{
    return QJsonArray{sharer(QString::fromLatin1(A), provider, {}, {model}, extra), sharer(QString::fromLatin1(B), provider, {}, {model}, extra)};
}

QJsonObject pinOf(AffinityFixture &f)
{
    return f.lastTrace().value(QLatin1String("pin")).toObject();
}
} // namespace

class TestAffinityClients : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void claudeCodeStaysOnItsAccount()
    {
        // Claude Code: session header, metadata.user_id, thinking signatures and toolu_ ids sent back.
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("claude"), QStringLiteral("claude-sonnet-5"))));
        const Recorded cc = Recorded::load(QStringLiteral("claude-code.json"));
        const Turn t1 = f.play(cc, 0);
        QCOMPARE(t1.reply.status, 200);
        QCOMPARE(t1.verdict(), QByteArray("fresh"));
        const QByteArray first = t1.sharer();
        QJsonObject pin = pinOf(f);
        QCOMPARE(pin.value(QLatin1String("sharer")).toString(), QString::fromLatin1(first));
        QVERIFY(pin.value(QLatin1String("by")).toArray().contains(QStringLiteral("session")));
        QCOMPARE(pin.value(QLatin1String("sessionFrom")).toString(), QStringLiteral("x-claude-code-session-id"));

        // The other account becomes cheaper, within 1.2×: the conversation stays.
        f.setPercent(QString::fromLatin1(otherOf(first, A, B)), 90);
        for (int turn = 1; turn < 3; ++turn) {
            const Turn t = f.play(cc, turn);
            QCOMPARE(t.reply.status, 200);
            QCOMPARE(t.sharer(), first);
            QCOMPARE(t.verdict(), QByteArray("pinned"));
            const QJsonObject trace = f.lastTrace();
            QCOMPARE(trace.value(QLatin1String("affinity")).toString(), QStringLiteral("pinned"));
            // The thinking signature the client sent back decided: the closest evidence.
            QCOMPARE(trace.value(QLatin1String("pin")).toObject().value(QLatin1String("foundBy")).toString(), QStringLiteral("reasoning"));
        }
        // The session id still went to the provider, and no evidence was kept in the clear.
        QCOMPARE(f.upstream->received().last().headers.value("x-claude-code-session-id"),
                 cc.raw.value(QLatin1String("headers")).toObject().value(QLatin1String("x-claude-code-session-id")).toString().toUtf8());
    }

    void theAnswerNamesItsAccountWithoutASession()
    {
        // "It holds when the client names no session": the signature the answer carried is enough.
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("claude"), QStringLiteral("claude-sonnet-5"))));
        const Recorded cc = Recorded::load(QStringLiteral("claude-code.json"));
        const QByteArray first = f.play(cc, 0).sharer();
        f.setPercent(QString::fromLatin1(otherOf(first, A, B)), 90);
        QJsonObject body = cc.body(1);
        body.remove(QStringLiteral("metadata"));
        f.upstream->enqueue(scriptFor(cc.answer(1)));
        const Turn t = f.send(cc.path, body, cc.headers, {}, {{"x-claude-code-session-id", {}}});
        QCOMPARE(t.sharer(), first);
        QCOMPARE(t.verdict(), QByteArray("pinned"));
        QCOMPARE(pinOf(f).value(QLatin1String("foundBy")).toString(), QStringLiteral("reasoning"));
    }

    void codexStaysOnItsAccount()
    {
        // The Codex CLI: session-id and thread-id headers, prompt_cache_key, encrypted_content echoed back.
        AffinityFixture f;
        QVERIFY(f.start(
            twoSharers(QStringLiteral("codex"), QStringLiteral("gpt-5.5"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("subscription")}})));
        const Recorded codex = Recorded::load(QStringLiteral("codex.json"));
        const Turn t1 = f.play(codex, 0);
        QCOMPARE(t1.reply.status, 200);
        QCOMPARE(t1.verdict(), QByteArray("fresh"));
        const QByteArray first = t1.sharer();
        const QJsonArray by = pinOf(f).value(QLatin1String("by")).toArray();
        QVERIFY(by.contains(QStringLiteral("thread")));
        QVERIFY(by.contains(QStringLiteral("tool call")));
        QVERIFY(by.contains(QStringLiteral("reasoning")));
        f.setPercent(QString::fromLatin1(otherOf(first, A, B)), 85);
        for (int turn = 1; turn < 3; ++turn) {
            const Turn t = f.play(codex, turn);
            QCOMPARE(t.reply.status, 200);
            QCOMPARE(t.sharer(), first);
            QCOMPARE(t.verdict(), QByteArray("pinned"));
            QCOMPARE(pinOf(f).value(QLatin1String("foundBy")).toString(), QStringLiteral("reasoning"));
        }
        QCOMPARE(f.upstream->received().last().headers.value("session-id"),
                 codex.raw.value(QLatin1String("headers")).toObject().value(QLatin1String("session-id")).toString().toUtf8());
    }

    void aToolCallIdPinsTheNextTurn()
    {
        // The openai SDK sends no session: the first answer's tool call id comes back and decides.
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        const Recorded sdk = Recorded::load(QStringLiteral("openai-sdk-tools.json"));
        const Turn t1 = f.play(sdk, 0);
        QCOMPARE(t1.verdict(), QByteArray("fresh"));
        QCOMPARE(pinOf(f).value(QLatin1String("by")).toArray(), QJsonArray{QStringLiteral("tool call")});
        f.setPercent(QString::fromLatin1(otherOf(t1.sharer(), A, B)), 90);
        const Turn t2 = f.play(sdk, 1);
        QCOMPARE(t2.sharer(), t1.sharer());
        QCOMPARE(t2.verdict(), QByteArray("pinned"));
        QCOMPARE(pinOf(f).value(QLatin1String("foundBy")).toString(), QStringLiteral("tool call"));
    }

    void aConversationIsRecognisedByItsOpening()
    {
        // No session, no tool: recognised from the second turn, back to its account from the third.
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        const Recorded sdk = Recorded::load(QStringLiteral("openai-sdk-plain.json"));
        // A one-off request whose answer calls no tool is never pinned, however often it comes.
        QCOMPARE(f.play(sdk, 0).verdict(), QByteArray("fresh"));
        QCOMPARE(f.play(sdk, 0).verdict(), QByteArray("fresh"));
        QCOMPARE(f.pins().size(), 0);
        QVERIFY(pinOf(f).isEmpty());

        const Turn t2 = f.play(sdk, 1);
        QCOMPARE(t2.verdict(), QByteArray("fresh"));
        QCOMPARE(pinOf(f).value(QLatin1String("by")).toArray(), QJsonArray{QStringLiteral("opening")});
        f.setPercent(QString::fromLatin1(otherOf(t2.sharer(), A, B)), 90);
        const Turn t3 = f.play(sdk, 2);
        QCOMPARE(t3.sharer(), t2.sharer());
        QCOMPARE(t3.verdict(), QByteArray("pinned"));
        QCOMPARE(pinOf(f).value(QLatin1String("foundBy")).toString(), QStringLiteral("opening"));
    }

    void anthropicSdkThinkingPinsFromTheThirdTurn()
    {
        // @anthropic-ai/sdk with thinking and no metadata: the first answer is a one-off (no tool),
        // the second turn's answer is pinned by its signature, the third goes back to it.
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("claude"), QStringLiteral("claude-sonnet-5"))));
        const Recorded sdk = Recorded::load(QStringLiteral("anthropic-sdk-thinking.json"));
        QCOMPARE(f.play(sdk, 0).verdict(), QByteArray("fresh"));
        QCOMPARE(f.pins().size(), 0);
        const Turn t2 = f.play(sdk, 1);
        QCOMPARE(t2.verdict(), QByteArray("fresh"));
        f.setPercent(QString::fromLatin1(otherOf(t2.sharer(), A, B)), 90);
        const Turn t3 = f.play(sdk, 2);
        QCOMPARE(t3.sharer(), t2.sharer());
        QCOMPARE(t3.verdict(), QByteArray("pinned"));
        QCOMPARE(pinOf(f).value(QLatin1String("foundBy")).toString(), QStringLiteral("reasoning"));
    }

    void aDigestTwoAccountsProducedPinsNothing()
    {
        AffinityFixture f;
        QVERIFY(f.start(twoSharers(QStringLiteral("openai"), QStringLiteral("gpt-5.2"))));
        const Recorded sdk = Recorded::load(QStringLiteral("openai-sdk-tools.json"));
        const QByteArray first = f.play(sdk, 0).sharer();
        // The same tool call id comes from the other account too (a gateway minting ids, a replay).
        f.engine->context().health->recordFailure(QString::fromLatin1(first), QStringLiteral("gpt-5.2"), Health::Failure::ServerError);
        QCOMPARE(f.play(sdk, 0).sharer(), otherOf(first, A, B));
        f.engine->context().health->reset();
        const Turn t2 = f.play(sdk, 1);
        QCOMPARE(t2.verdict(), QByteArray("fresh"));
    }
};

QTEST_GUILESS_MAIN(TestAffinityClients)
#include "TestAffinityClients.moc"
