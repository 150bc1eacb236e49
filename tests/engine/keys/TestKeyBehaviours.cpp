// Issue 5 (docs/keys.md "Every routing setting": speed first, failing sharers, spend limits): a key's
// prefer-speed order, moving failing sharers back, and its daily spend limit. And (issue 16,
// docs/performance.md "Change 4 (dispatch)") the key book is indexed and a key's settings parsed
// once: a key edited, added, moved or revoked between two requests binds the second.
#include "KeysFixture.h"

#include <QtNetwork/QTcpSocket>

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString A = QStringLiteral("L00000000000000a1"); // cheapest, slow
const QString B = QStringLiteral("L00000000000000a2"); // fast
const QString C = QStringLiteral("L00000000000000a3"); // dearest, no samples
const QString Gpt = QStringLiteral("openai/gpt-5.2");
constexpr qint64 Minute = 60 * 1000;
} // namespace

class TestKeyBehaviours : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

    QString firstDialled(const QList<QPair<QByteArray, QByteArray>> &headers = {})
    {
        const qsizetype before = f.upstream->received().size();
        const Reply r = f.chat(Gpt, headers);
        if (f.upstream->received().size() <= before)
            return QStringLiteral("status %1").arg(r.status);
        return QString::fromLatin1(FakeUpstream::credentialOf(f.upstream->received().at(before)));
    }
    void samples(const QString &handle, qint64 ttfbMs, int n)
    {
        for (int i = 0; i < n; ++i)
            f.engine->context().health->recordSuccess(handle, ttfbMs);
    }

private Q_SLOTS:
    void init()
    {
        const QStringList models{QStringLiteral("gpt-5.2"), QStringLiteral("text-embedding-3-small")};
        QVERIFY(f.start(QJsonArray{sharer(A, QStringLiteral("openai"), {}, models, atPercent(40)),
                                   sharer(B, QStringLiteral("openai"), {}, models, atPercent(60)),
                                   sharer(C, QStringLiteral("openai"), {}, models, atPercent(90))}));
    }
    void cleanup() { setKeyRouting(f, {}); }

    void speedFirstOrdersBy500msBandsThenPrice()
    {
        samples(A, 2100, 3);         // band 4
        samples(B, 120, 3);          // band 0
        samples(C, 90, 2);           // too few samples: middling (the median band, 4), after the cheaper A
        QCOMPARE(firstDialled(), A); // price first by default
        QVERIFY(!f.lastTrace().contains(QLatin1String("orderedBy")));
        setKeyRouting(f, {{QStringLiteral("prefer"), QStringLiteral("speed")}});
        QCOMPARE(firstDialled(), B);
        // A request ordered this way is marked on its usage row.
        QCOMPARE(f.lastTrace().value(QLatin1String("orderedBy")).toString(), QStringLiteral("speed"));
        const Reply listing = send(QStringLiteral("GET"), f.engine->baseUrl() + QStringLiteral("/sharers?model=openai/gpt-5.2"), {},
                                   {{"authorization", QByteArray("Bearer ") + AdminToken}});
        Q_UNUSED(listing); // the listing has no key: price order
        // Within a band, price decides: B and A in one band → A first.
        samples(B, 2300, 20);
        QCOMPARE(firstDialled(), A);
        // Not on the non-chat endpoints.
        samples(B, 10, 40);
        const Reply r =
            f.post(QStringLiteral("/v1/embeddings"), bodyOf(QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/text-embedding-3-small")},
                                                                        {QStringLiteral("input"), QStringLiteral("x")}}));
        QCOMPARE(r.header("x-aile-sharer"), A.toLatin1());
        QCOMPARE(firstDialled(), B);
    }

    void aSharerFailing3TimesIn5MinutesGoesLastFor10Minutes()
    {
        setKeyRouting(f, {{QStringLiteral("demoteFailing"), true}});
        for (int i = 0; i < 3; ++i) {
            f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(500, QStringLiteral("boom")));
            QCOMPARE(f.chat(Gpt).header("x-aile-sharer"), B.toLatin1());
            f.clock.advance(2 * Minute); // past A's cooldown, inside the 5-minute window
        }
        // Demoted: B goes first now, though A is cheaper and no longer cooling.
        QCOMPARE(firstDialled(), B);
        // Never removed: as the only sharer left it still serves.
        QCOMPARE(firstDialled({{"x-aile-sharer", A.toLatin1()}}), A);
        // That success cleared it: A is first again.
        QCOMPARE(firstDialled(), A);
        // Three failures again, then 10 minutes: back in price order.
        for (int i = 0; i < 3; ++i) {
            f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(503, QStringLiteral("busy")));
            QCOMPARE(f.chat(Gpt).status, 200);
            f.clock.advance(2 * Minute);
        }
        QCOMPARE(firstDialled(), B);
        f.clock.advance(9 * Minute);
        QCOMPARE(firstDialled(), A);
    }

    void onlyTheSharersOwnFailuresCountAndOnlyForThatKey()
    {
        // An error the request caused (400, passed through) is not the sharer's failure.
        setKeyRouting(f, {{QStringLiteral("demoteFailing"), true}});
        for (int i = 0; i < 3; ++i) {
            f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(400, QStringLiteral("bad request")));
            QCOMPARE(f.chat(Gpt).status, 400);
        }
        QCOMPARE(firstDialled(), A);
        // Failures 6 minutes apart never make 3 in 5 minutes.
        for (int i = 0; i < 3; ++i) {
            f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(500, QStringLiteral("boom")));
            QCOMPARE(f.chat(Gpt).header("x-aile-sharer"), B.toLatin1());
            f.clock.advance(3 * Minute);
        }
        QCOMPARE(firstDialled(), A);
        // A key without the setting keeps price order whatever happens.
        setKeyRouting(f, {});
        for (int i = 0; i < 3; ++i) {
            f.upstream->enqueueFor(A.toLatin1(), FakeUpstream::error(500, QStringLiteral("boom")));
            QCOMPARE(f.chat(Gpt).status, 200);
            f.clock.advance(2 * Minute);
        }
        // Not demoted for this key. (A is still behind B for a while, but as every key sees it:
        // its breaker tripped and it is on probation, Degraded in docs/rules/tiers-quota-health.md's sense.)
        QVERIFY(!f.engine->context().failing.demoted(f.engine->context().keys.first().id, QStringLiteral("openai"), A, f.clock.nowMs()));
        f.clock.advance(10 * Minute);
        QCOMPARE(firstDialled(), A);
    }

    void theSpendLimitIsCheckedOnceBeforeTheFirstAttempt()
    {
        // One answer bills (12 × $1.75 + 5 × $14) / 1e6 × 40% = $0.0000364.
        setKeyRouting(f, {{QStringLiteral("spendLimitUsdPerDay"), 0.00005}});
        QCOMPARE(f.chat(Gpt).status, 200);
        QVERIFY(ledgerToday(f).first > 0);
        QCOMPARE(f.chat(Gpt).status, 200); // 0.0000364 < 0.00005: still under
        QVERIFY(ledgerToday(f).first >= 0.00005);
        const Reply r = f.chat(Gpt);
        QCOMPARE(r.status, 403);
        QCOMPARE(r.json().value(QLatin1String("error")).toObject().value(QLatin1String("code")).toString(), QStringLiteral("budget_exceeded"));
        QVERIFY2(errorMessage(r).contains(QLatin1String("daily spend limit")), qPrintable(errorMessage(r)));
        QCOMPARE(f.upstream->received().size(), 2);
        // The next UTC day starts afresh.
        f.clock.advance(24 * 60 * Minute);
        QCOMPARE(f.chat(Gpt).status, 200);
    }

    void aKeyEditedBetweenTwoRequestsRoutesTheSecondByItsNewSettings_data()
    {
        QTest::addColumn<QJsonObject>("routing");
        QTest::addColumn<QString>("first");
        QTest::newRow("never the cheapest") << QJsonObject{{QStringLiteral("neverSharers"), QJsonArray{A}}} << B;
        QTest::newRow("one sharer") << QJsonObject{{QStringLiteral("sharer"), C}} << C;
        QTest::newRow("only the two dearest") << QJsonObject{{QStringLiteral("onlySharers"), QJsonArray{C, B}}} << B;
    }
    void aKeyEditedBetweenTwoRequestsRoutesTheSecondByItsNewSettings()
    {
        QFETCH(QJsonObject, routing);
        QFETCH(QString, first);
        QCOMPARE(firstDialled(), A); // the cheapest, and the key's settings are now parsed and kept
        setKeyRouting(f, routing);
        QCOMPARE(firstDialled(), first);
        setKeyRouting(f, {});
        QCOMPARE(firstDialled(), A);
    }

    void aKeyAddedMovedOrRevokedBetweenTwoRequestsBindsTheSecond()
    {
        const QByteArray plain = "sk-aile-" + QByteArray(40, '7');
        QList<Keys::ApiKey> &keys = f.engine->context().keys;
        auto statusWith = [&](const QByteArray &key) {
            return AsyncClient::wait(f.client.post(f.engine->baseUrl() + QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(Gpt),
                                                   {{"authorization", "Bearer " + key}}))
                .status;
        };
        QCOMPARE(statusWith(plain), 401);
        keys.append(Keys::ApiKey::fromPlain(QStringLiteral("second"), QString::fromLatin1(plain), 0));
        QCOMPARE(statusWith(plain), 200);
        QCOMPARE(statusWith(TestKey), 200);
        keys.move(keys.size() - 1, 0); // every key at another place than the index last saw it
        QCOMPARE(statusWith(plain), 200);
        QCOMPARE(statusWith(TestKey), 200);
        keys.first().revoked = true;
        QCOMPARE(statusWith(plain), 401);
        QCOMPARE(statusWith(TestKey), 200);
        keys.first().revoked = false;
        QCOMPARE(statusWith(plain), 200);
        keys.removeFirst();
        QCOMPARE(statusWith(plain), 401);
        QCOMPARE(statusWith(TestKey), 200);
    }

    // A connection remembers the hash of the key it presented last (docs/performance.md "Change
    // 16 (admit)"). On one keep-alive connection, keys presented in turn are each bound as themselves: a key
    // of the same length that differs in its last character is unknown, another key is its own (it
    // still passes once the first is revoked), and a revoked key is refused on the connection that
    // presented it before.
    void oneConnectionPresentingKeysInTurnBindsEachAsItself()
    {
        const QByteArray first(TestKey);
        QByteArray unknown = first;
        unknown.back() = unknown.back() == 'f' ? 'e' : 'f';
        QByteArray second = first;
        second.replace(8, 4, "2nd-");
        QList<Keys::ApiKey> &keys = f.engine->context().keys;
        keys.append(Keys::ApiKey::fromPlain(QStringLiteral("second"), QString::fromLatin1(second), 0));
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, f.engine->port());
        QVERIFY(client.waitForConnected(2000));
        const QByteArray body = RoutingFixture::chatBody(Gpt);
        QByteArray pending;
        auto statusWith = [&](const QByteArray &key) -> int {
            client.write("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(f.engine->port())
                         + "\r\nAuthorization: Bearer " + key
                         + "\r\ncontent-type: application/json\r\ncontent-length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            // One whole answer (its Content-Length), read from the same connection every time.
            qsizetype headEnd = -1;
            if (!QTest::qWaitFor([&] { return (pending += client.readAll(), headEnd = pending.indexOf("\r\n\r\n")) >= 0; }, 5000))
                return -1;
            const QByteArray head = pending.left(headEnd).toLower();
            const qsizetype at = head.indexOf("content-length: ");
            const qsizetype length = at < 0 ? 0 : head.mid(at + 16, head.indexOf("\r\n", at) - at - 16).toLongLong();
            if (!QTest::qWaitFor([&] { return (pending += client.readAll()).size() >= headEnd + 4 + length; }, 5000))
                return -1;
            const int status = head.mid(9, 3).toInt();
            pending.remove(0, headEnd + 4 + length);
            return status;
        };
        QCOMPARE(statusWith(first), 200);
        QCOMPARE(statusWith(unknown), 401);
        QCOMPARE(statusWith(first), 200);
        QCOMPARE(statusWith(second), 200);
        keys.first().revoked = true;
        QCOMPARE(statusWith(first), 401);
        QCOMPARE(statusWith(second), 200);
        keys.first().revoked = false;
        QCOMPARE(statusWith(first), 200);
        QCOMPARE(client.state(), QAbstractSocket::ConnectedState); // all of it on the one connection
        keys.removeLast();
        QCOMPARE(statusWith(second), 401);
    }
};

QTEST_GUILESS_MAIN(TestKeyBehaviours)
#include "TestKeyBehaviours.moc"
