// Issue 17, quota windows from the real signals (docs/subscriptions.md): a 429 from a spent
// subscription window holds that sharer out until the reset it gave (no backoff guessed) and the
// request fails over at once; with the subscription ranked above the API key, traffic goes to the
// key while the window is out and back at its reset; a pinned conversation moves only then.
#include "SubscriptionFixture.h"

using namespace Aile;
using namespace Aile::Test;

namespace {
using Headers = QList<QPair<QByteArray, QByteArray>>;
constexpr qint64 Minute = 60 * 1000;
} // namespace

class TestQuotaWindows : public QObject
{
    Q_OBJECT
private:
    using F = SubscriptionFixture;

    struct Tool
    {
        QString provider;
        QString model;
        QString path;
        QString subBase; // the subscription's base URL under the fake's
        QString keyBase;
        QByteArray account; // what the fake's windows are kept by
    };
    static Tool claude()
    {
        return {QStringLiteral("claude"), QStringLiteral("claude-sonnet-5"), QStringLiteral("/v1/messages"), {}, {}, F::ClaudeLogin};
    }
    static Tool codex()
    {
        return {QStringLiteral("codex"), QStringLiteral("gpt-5.5"), QStringLiteral("/v1/responses"), QStringLiteral("/backend-api/codex"),
                QStringLiteral("/v1"),   F::ChatGptAccount};
    }

    static bool start(F &f, const Tool &t)
    {
        auto upstream = std::make_unique<FakeUpstream>(&f.clock);
        if (!upstream->listen())
            return false;
        const QString base = upstream->baseUrl();
        f.upstream = std::move(upstream);
        const QStringList models{t.model};
        const QJsonArray sharers{F::clientLoginSharer(F::Sub, t.provider, models, base + t.subBase),
                                 sharer(F::Key, t.provider, base + t.keyBase, models)};
        f.engine = std::make_unique<TestEngine>(configWith(sharers, {}, QJsonObject{{QStringLiteral("probeIntervalMs"), 1e12}}), &f.clock);
        if (!f.engine->start())
            return false;
        f.subs.attach(*f.upstream);
        return true;
    }
    static Reply turn(F &f, const Tool &t, const Headers &more = {})
    {
        Headers h = t.provider == QLatin1String("claude") ? F::claudeCodeLogin() : F::codexLogin();
        h += more;
        return f.postAs(t.path, t.provider == QLatin1String("claude") ? F::messagesBody(t.model) : F::responsesBody(t.model), h);
    }
    static QJsonObject rowOf(const QJsonArray &rows, const QString &handle)
    {
        for (const QJsonValue &v : rows)
            if (v.toObject().value(QLatin1String("sharer")).toString() == handle)
                return v.toObject();
        return {};
    }
    static void addTools()
    {
        QTest::addColumn<bool>("isCodex");
        QTest::newRow("Claude Code, Claude plan") << false;
        QTest::newRow("Codex CLI, ChatGPT plan") << true;
    }

private Q_SLOTS:
    void aSpentWindowSendsTrafficToTheApiKeyAndBackAtItsReset_data() { addTools(); }
    void aSpentWindowSendsTrafficToTheApiKeyAndBackAtItsReset()
    {
        QFETCH(bool, isCodex);
        const Tool t = isCodex ? codex() : claude();
        F f;
        QVERIFY(start(f, t));
        Reply r = turn(f, t);
        QCOMPARE(r.status, 200);
        QCOMPARE(F::servedBy(r), F::Sub.toLatin1());

        // The window runs out, resetting in two hours: the refusal fails over at once.
        const qint64 reset = f.clock.nowMs() + 2 * 60 * Minute;
        f.subs.exhaust(t.account, reset);
        r = turn(f, t);
        QCOMPARE(r.status, 200);
        QCOMPARE(F::servedBy(r), F::Key.toLatin1());
        QCOMPARE(r.header("x-aile-attempts"), QByteArray("2"));
        const QJsonObject refused = rowOf(f.lastAttempts(), F::Sub);
        QCOMPARE(refused.value(QLatin1String("status")).toInt(), 429);
        QVERIFY2(refused.value(QLatin1String("reason")).toString().contains(QLatin1String("subscription window spent until")),
                 qPrintable(refused.value(QLatin1String("reason")).toString()));
        // No backoff guessed: the health ladder is untouched, nothing is cooling.
        QCOMPARE(f.engine->context().health->of(F::Sub).ladderStep, 0);
        QCOMPARE(f.engine->context().health->coolingUntil(F::Sub, t.model), 0);

        // Every next request goes straight to the API key while the window is out, long after
        // the snapshot went stale (10 minutes): the refusal's reset holds it.
        for (const qint64 later : {1 * Minute, 30 * Minute, 119 * Minute}) {
            f.clock.advance(reset - 2 * 60 * Minute + later - f.clock.nowMs());
            const int dialled = int(f.upstream->received().size());
            r = turn(f, t);
            QCOMPARE(F::servedBy(r), F::Key.toLatin1());
            QCOMPARE(int(f.upstream->received().size()), dialled + 1);
            const QJsonObject skipped = rowOf(f.lastAttempts(), F::Sub);
            QCOMPARE(skipped.value(QLatin1String("skip")).toString(), QStringLiteral("quota_exhausted"));
            QVERIFY(!skipped.value(QLatin1String("dispatched")).toBool(true));
        }

        // The first request after the reset goes back to the subscription, with no manual step.
        f.clock.advance(reset + 1000 - f.clock.nowMs());
        r = turn(f, t);
        QCOMPARE(r.status, 200);
        QCOMPARE(F::servedBy(r), F::Sub.toLatin1());
        QCOMPARE(r.header("x-aile-attempts"), QByteArray("1"));
    }

    void theRefusalsResetIsUsedNotABackoff()
    {
        // A window that reopens in 2 s: the ladder's first step (5 s and more) would still bench it.
        const Tool t = claude();
        F f;
        QVERIFY(start(f, t));
        f.subs.exhaust(t.account, f.clock.nowMs() + 2000);
        QCOMPARE(F::servedBy(turn(f, t)), F::Key.toLatin1());
        f.clock.advance(1000);
        QCOMPARE(F::servedBy(turn(f, t)), F::Key.toLatin1());
        QCOMPARE(rowOf(f.lastAttempts(), F::Sub).value(QLatin1String("skip")).toString(), QStringLiteral("quota_exhausted"));
        f.clock.advance(1500);
        QCOMPARE(F::servedBy(turn(f, t)), F::Sub.toLatin1());
    }

    void everyWindowSpentIs429AtTheReset()
    {
        // Only the subscription: nothing to fail over to. The client is told when to come back.
        F f;
        auto upstream = std::make_unique<FakeUpstream>(&f.clock);
        QVERIFY(upstream->listen());
        f.upstream = std::move(upstream);
        f.engine = std::make_unique<TestEngine>(
            configWith(QJsonArray{F::clientLoginSharer(F::Sub, QStringLiteral("claude"), {QStringLiteral("claude-sonnet-5")}, f.upstream->baseUrl())},
                       {}, QJsonObject{{QStringLiteral("probeIntervalMs"), 1e12}}),
            &f.clock);
        QVERIFY(f.engine->start());
        f.subs.attach(*f.upstream);
        f.subs.exhaust(F::ClaudeLogin, f.clock.nowMs() + 3600 * 1000);
        Reply r = turn(f, claude());
        QCOMPARE(r.status, 429);
        QCOMPARE(r.header("retry-after"), QByteArray("3600"));
        f.clock.advance(20 * Minute);
        const int dialled = int(f.upstream->received().size());
        r = turn(f, claude());
        QCOMPARE(r.status, 429);
        QCOMPARE(r.header("retry-after"), QByteArray("2400"));
        QCOMPARE(int(f.upstream->received().size()), dialled); // not asked again before its reset
        QVERIFY2(r.json()
                     .value(QLatin1String("error"))
                     .toObject()
                     .value(QLatin1String("message"))
                     .toString()
                     .contains(QLatin1String("subscription quota")),
                 r.body.constData());
    }

    void aPinnedConversationMovesOnlyWhenTheWindowIsOut()
    {
        const Tool t = claude();
        F f;
        QVERIFY(start(f, t));
        const Headers session{{"x-claude-code-session-id", "5b0c7a52-0d7e-4c39-9a43-1f6f2d0e9b11"}};
        QCOMPARE(F::servedBy(turn(f, t, session)), F::Sub.toLatin1());
        Reply r = turn(f, t, session);
        QCOMPARE(F::servedBy(r), F::Sub.toLatin1());
        QCOMPARE(r.header("x-aile-session-affinity"), QByteArray("pinned"));
        f.subs.exhaust(t.account, f.clock.nowMs() + 3600 * 1000);
        r = turn(f, t, session);
        QCOMPARE(F::servedBy(r), F::Key.toLatin1());
        QCOMPARE(r.header("x-aile-session-affinity"), QByteArray("moved: quota_exhausted"));
        QCOMPARE(f.lastTrace().value(QLatin1String("affinity")).toString(), QStringLiteral("moved: quota_exhausted"));
    }

    void theServingSharersWindowsGoBackToTheClient_data() { addTools(); }
    void theServingSharersWindowsGoBackToTheClient()
    {
        QFETCH(bool, isCodex);
        const Tool t = isCodex ? codex() : claude();
        F f;
        QVERIFY(start(f, t));
        f.subs.setUsed(0.42, 0.3);
        Reply r = turn(f, t);
        QCOMPARE(F::servedBy(r), F::Sub.toLatin1());
        if (isCodex) {
            QCOMPARE(r.header("x-codex-primary-used-percent"), QByteArray("42.0"));
            QCOMPARE(r.header("x-codex-secondary-window-minutes"), QByteArray("10080"));
        } else {
            QCOMPARE(r.header("anthropic-ratelimit-unified-5h-utilization"), QByteArray("0.42"));
            QCOMPARE(r.header("anthropic-ratelimit-unified-7d-utilization"), QByteArray("0.3"));
        }
        // The windows are the sharer's, in the listing the tray and the Sharers view read.
        const QJsonArray rows = f.admin(QStringLiteral("GET"), QStringLiteral("/sharers")).json().value(QLatin1String("data")).toArray();
        QJsonArray windows;
        for (const QJsonValue &v : rows)
            if (v.toObject().value(QLatin1String("handle")).toString() == F::Sub)
                windows = v.toObject().value(QLatin1String("quota")).toArray();
        QCOMPARE(windows.size(), 2);
        QCOMPARE(windows.first().toObject().value(QLatin1String("used")).toDouble(), 0.42);
        QCOMPARE(windows.first().toObject().value(QLatin1String("lengthSeconds")).toInt(), 5 * 3600);
    }
};

QTEST_GUILESS_MAIN(TestQuotaWindows)
#include "TestQuotaWindows.moc"
