// A team server as a sharer of a desktop engine (docs/team.md "A team server as a sharer"): a real
// second engine (the node) holds the account; the desktop engine dials it with one of its keys,
// orders it by the node's own quote against a local account, names the node's sharer on the
// attempt row and books the node's price. Silent for 75 s on the desktop's ManualClock → out of
// selection; back on its next ping answer.
#include "health/NodeBook.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtTest/QtTest>

using namespace Aile;
using namespace Aile::Test;

namespace {

const QString Node = QStringLiteral("L00000000000000d1");   // the desktop's node-backed sharer
const QString Local = QStringLiteral("L00000000000000a1");  // the desktop's own claude account
const QString Remote = QStringLiteral("L00000000000000b1"); // the node's claude account
const QString Model = QStringLiteral("claude/claude-sonnet-5");

const QList<QPair<QByteArray, QByteArray>> Admin{{"authorization", QByteArray("Bearer ") + AdminToken}, {"content-type", "application/json"}};

QJsonObject percent(int p)
{
    return QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), p}}}};
}

QByteArray messages()
{
    return QJsonDocument(QJsonObject{{QStringLiteral("model"), Model},
                                     {QStringLiteral("max_tokens"), 1000},
                                     {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                         {QStringLiteral("content"), QStringLiteral("hi")}}}}})
        .toJson(QJsonDocument::Compact);
}

} // namespace

class TestNodeSharer : public QObject
{
    Q_OBJECT

    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<FakeUpstream> m_upstream;
    std::unique_ptr<TestEngine> m_node;
    std::unique_ptr<TestEngine> m_desktop;

    // The node at nodePercent of list, the desktop's own account at localPercent; the desktop has
    // heard the node's first ping answer when this returns true.
    bool startPair(int nodePercent, int localPercent, const QJsonObject &keyRouting = {})
    {
        m_clock = std::make_unique<ManualClock>();
        m_upstream = std::make_unique<FakeUpstream>();
        if (!m_upstream->listen())
            return false;
        QJsonObject tested = percent(nodePercent);
        tested.insert(QStringLiteral("tested"), QJsonArray{QStringLiteral("claude-sonnet-5")});
        m_node = std::make_unique<TestEngine>(
            configWith(QJsonArray{sharer(Remote, QStringLiteral("claude"), m_upstream->baseUrl(), {QStringLiteral("claude-sonnet-5")}, tested)}));
        if (!m_node->start())
            return false;
        // The node's key, as the desktop's secret for its node-backed sharer.
        qputenv("AILE_T_NODE_KEY", TestKey);
        const QJsonObject nodeSharer{{QStringLiteral("credential"), QStringLiteral("env:AILE_T_NODE_KEY")}};
        m_desktop = std::make_unique<TestEngine>(configWith(QJsonArray{sharer(Local, QStringLiteral("claude"), m_upstream->baseUrl(),
                                                                              {QStringLiteral("claude-sonnet-5")}, percent(localPercent)),
                                                                       sharer(Node, QStringLiteral("aile"), m_node->baseUrl(), {}, nodeSharer)},
                                                            keyRouting),
                                                 m_clock.get());
        if (!m_desktop->start())
            return false;
        return waitHeard();
    }
    bool waitHeard()
    {
        const Health::NodeBook *book = m_desktop->context().nodes;
        for (int i = 0; i < 200 && !book->silence(Node, m_clock->nowMs()).isEmpty(); ++i)
            QTest::qWait(10); // the ping is real HTTP between two engines: wait for its answer, not for time
        return book->silence(Node, m_clock->nowMs()).isEmpty();
    }
    Reply ask(const QList<QPair<QByteArray, QByteArray>> &extra = {})
    {
        QList<QPair<QByteArray, QByteArray>> h{{"x-api-key", TestKey}, {"anthropic-version", "2023-06-01"}};
        h += extra;
        return send(QStringLiteral("POST"), m_desktop->baseUrl() + QStringLiteral("/v1/messages"), messages(), h);
    }
    QJsonObject dryRunTarget()
    {
        return send(QStringLiteral("POST"), m_desktop->baseUrl() + QStringLiteral("/keys/route-dry-run"),
                    QJsonDocument(QJsonObject{{QStringLiteral("model"), Model}, {QStringLiteral("endpoint"), QStringLiteral("/v1/messages")}})
                        .toJson(),
                    Admin)
            .json()
            .value(QLatin1String("targets"))
            .toArray()
            .first()
            .toObject();
    }
    // The desktop's stored trace of a request, once written.
    QJsonObject trace(const QByteArray &id)
    {
        for (int i = 0; i < 200; ++i) {
            const QJsonArray rows = send(QStringLiteral("GET"), m_desktop->baseUrl() + QStringLiteral("/keys/usage/requests"), {}, Admin)
                                        .json()
                                        .value(QLatin1String("data"))
                                        .toArray();
            for (const QJsonValue &v : rows)
                if (v.toObject().value(QLatin1String("id")).toString().toLatin1() == id)
                    return v.toObject();
            QTest::qWait(10);
        }
        return {};
    }
    double listIn() const { return *m_desktop->context().catalog.model(QStringLiteral("claude"), QStringLiteral("claude-sonnet-5"))->input; }
    double listOut() const { return *m_desktop->context().catalog.model(QStringLiteral("claude"), QStringLiteral("claude-sonnet-5"))->output; }

private Q_SLOTS:
    void cleanup()
    {
        m_desktop.reset();
        m_node.reset();
        m_upstream.reset();
    }

    void theCheaperOfNodeAndLocalAccountServes_data()
    {
        QTest::addColumn<int>("nodePercent");
        QTest::addColumn<int>("localPercent");
        QTest::addColumn<bool>("throughNode");
        QTest::newRow("node cheaper") << 50 << 80 << true;
        QTest::newRow("local account cheaper") << 90 << 60 << false;
    }
    void theCheaperOfNodeAndLocalAccountServes()
    {
        QFETCH(int, nodePercent);
        QFETCH(int, localPercent);
        QFETCH(bool, throughNode);
        QVERIFY(startPair(nodePercent, localPercent));
        // The dry run orders both by price: the node at what it quotes, the local account at its sheet.
        const QJsonArray order = dryRunTarget().value(QLatin1String("sharers")).toArray();
        QCOMPARE(order.size(), 2);
        QCOMPARE(order.at(0).toObject().value(QLatin1String("handle")).toString(), throughNode ? Node : Local);
        const QJsonObject nodeRow = order.at(throughNode ? 0 : 1).toObject();
        QVERIFY(qAbs(nodeRow.value(QLatin1String("inputPrice")).toDouble() - listIn() * nodePercent / 100) < 1e-9);

        // The desktop's own model list has what the node serves (its local account has passed no test).
        const QJsonArray models =
            send(QStringLiteral("GET"), m_desktop->baseUrl() + QStringLiteral("/v1/models"), {}, {{"authorization", QByteArray("Bearer ") + TestKey}})
                .json()
                .value(QLatin1String("data"))
                .toArray();
        QCOMPARE(models.size(), 1);
        QCOMPARE(models.first().toObject().value(QLatin1String("id")).toString(), Model);
        QCOMPARE(models.first().toObject().value(QLatin1String("owned_by")).toString(), QStringLiteral("aile-node"));

        const Reply r = ask();
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), (throughNode ? Node : Local).toLatin1());
        QVERIFY(r.json().value(QLatin1String("content")).isArray()); // the Messages answer, relayed
        // The provider was dialled once, by the node's account or the local one.
        QCOMPARE(m_upstream->received().size(), 1);
        QCOMPARE(FakeUpstream::credentialOf(m_upstream->received().first()), (throughNode ? Remote : Local).toLatin1());
        QCOMPARE(m_upstream->received().first().json().value(QLatin1String("model")).toString(), QStringLiteral("claude-sonnet-5"));

        const QJsonObject t = trace(r.header("x-aile-request-id"));
        QVERIFY(!t.isEmpty());
        const QJsonObject row = t.value(QLatin1String("attemptRows")).toArray().first().toObject();
        const double in = listIn() * (throughNode ? nodePercent : localPercent) / 100;
        const double out = listOut() * (throughNode ? nodePercent : localPercent) / 100;
        if (throughNode) {
            // The attempt names the node's sharer and price, as the node's answer headers gave them.
            QCOMPARE(row.value(QLatin1String("nodeSharer")).toString(), Remote);
            QCOMPARE(row.value(QLatin1String("nodePrice")).toString(), QStringLiteral("%1/%2").arg(in, 0, 'f', 4).arg(out, 0, 'f', 4));
            QCOMPARE(row.value(QLatin1String("model")).toString(), Model);
        } else {
            QVERIFY(!row.contains(QLatin1String("nodeSharer")));
        }
        // Charged at that price for the usage the answer reported (12 in, 5 out): the node's own ledger books the same.
        QVERIFY(qAbs(t.value(QLatin1String("costUsd")).toDouble() - (12 * in + 5 * out) / 1e6) < 1e-8);
    }

    void capacityAndOneMachinePins_data()
    {
        QTest::addColumn<int>("nodePercent");
        QTest::addColumn<int>("localPercent");
        QTest::addColumn<QJsonObject>("keyRouting");
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("sharer"); // who served, or the error message's start
        const QJsonObject none;
        QTest::newRow("capacity node: the dearer node serves")
            << 90 << 60 << none << QByteArray("x-aile-capacity") << QByteArray("node") << 200 << Node;
        QTest::newRow("capacity nodeless: the dearer local account serves")
            << 50 << 80 << none << QByteArray("x-aile-capacity") << QByteArray("nodeless") << 200 << Local;
        QTest::newRow("the key's capacity nodeless")
            << 50 << 80 << QJsonObject{{QStringLiteral("capacity"), QStringLiteral("nodeless")}} << QByteArray() << QByteArray() << 200 << Local;
        QTest::newRow("a header cannot widen the key's capacity")
            << 50 << 80 << QJsonObject{{QStringLiteral("capacity"), QStringLiteral("nodeless")}} << QByteArray("x-aile-capacity")
            << QByteArray("node") << 400 << QStringLiteral("x-aile-capacity: node cannot widen this API key, whose capacity is nodeless");
        QTest::newRow("node and nodeless at once") << 50 << 80 << none << QByteArray("x-aile-capacity") << QByteArray("node, nodeless") << 400
                                                   << QStringLiteral("x-aile-capacity names both node and nodeless");
        QTest::newRow("capacity nonsense") << 50 << 80 << none << QByteArray("x-aile-capacity") << QByteArray("moon") << 400
                                           << QStringLiteral("x-aile-capacity takes local, node or nodeless, not \"moon\"");
        QTest::newRow("x-aile-node pins the dearer node") << 90 << 60 << none << QByteArray("x-aile-node") << Node.toLatin1() << 200 << Node;
        QTest::newRow("x-aile-sharer naming the node pins it too")
            << 90 << 60 << none << QByteArray("x-aile-sharer") << Node.toLatin1() << 200 << Node;
        QTest::newRow("the key's one machine") << 90 << 60 << QJsonObject{{QStringLiteral("node"), Node}} << QByteArray() << QByteArray() << 200
                                               << Node;
        QTest::newRow("x-aile-node naming a direct sharer") << 90 << 60 << none << QByteArray("x-aile-node") << Local.toLatin1() << 503
                                                            << QStringLiteral("every sharer online for claude/claude-sonnet-5 is");
        QTest::newRow("x-aile-node not a handle") << 90 << 60 << none << QByteArray("x-aile-node") << QByteArray("team-1") << 400
                                                  << QStringLiteral("x-aile-node: \"team-1\" is not a node-backed sharer's handle");
        QTest::newRow("x-aile-node cannot move the key's node")
            << 90 << 60 << QJsonObject{{QStringLiteral("node"), Node}} << QByteArray("x-aile-node") << QByteArray("L00000000000000d2") << 400
            << QStringLiteral("x-aile-node names l00000000000000d2, but this API key is pinned to node");
    }
    void capacityAndOneMachinePins()
    {
        QFETCH(int, nodePercent);
        QFETCH(int, localPercent);
        QFETCH(QJsonObject, keyRouting);
        QFETCH(QByteArray, header);
        QFETCH(QByteArray, value);
        QFETCH(int, status);
        QFETCH(QString, sharer);
        QVERIFY(startPair(nodePercent, localPercent, keyRouting));
        const Reply r = header.isEmpty() ? ask() : ask({{header, value}});
        QCOMPARE(r.status, status);
        if (status == 200) {
            QCOMPARE(r.header("x-aile-sharer"), sharer.toLatin1());
            if (header == "x-aile-node" || keyRouting.contains(QLatin1String("node")))
                QCOMPARE(r.header("x-aile-session-affinity"), QByteArray("skipped: machine named")); // a named machine keeps no pin
            return;
        }
        // Refused in the Messages wire's own error shape, naming the lever.
        QCOMPARE(r.json().value(QLatin1String("type")).toString(), QStringLiteral("error"));
        const QString message = r.json().value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
        QVERIFY2(message.startsWith(sharer, Qt::CaseInsensitive), qPrintable(message));
        if (status == 503)
            QCOMPARE(r.json().value(QLatin1String("error")).toObject().value(QLatin1String("refusedBy")).toString(), QStringLiteral("x-aile-node"));
        QVERIFY(m_upstream->received().isEmpty());
    }

    void everyWireTheNodeServesGoesThroughIt()
    {
        // The node also has an OpenAI account: the Chat Completions wire goes through the node too.
        QVERIFY(startPair(50, 80));
        QJsonObject tested = percent(100);
        tested.insert(QStringLiteral("tested"), QJsonArray{QStringLiteral("gpt-5.2")});
        const QString openai = QStringLiteral("L00000000000000b2");
        QJsonObject body = sharer(openai, QStringLiteral("openai"), m_upstream->baseUrl(), {QStringLiteral("gpt-5.2")}, tested);
        QCOMPARE(send(QStringLiteral("POST"), m_node->baseUrl() + QStringLiteral("/sharers"), QJsonDocument(body).toJson(), Admin).status, 200);
        m_clock->advance(30'000); // the next ping reads the node's new listing
        const Health::NodeBook *book = m_desktop->context().nodes;
        for (int i = 0; i < 200 && !book->offer(Node, QStringLiteral("openai"), {QStringLiteral("gpt-5.2")}); ++i)
            QTest::qWait(10);
        const Health::NodeModel *listed = book->offer(Node, QStringLiteral("openai"), {QStringLiteral("gpt-5.2")});
        QVERIFY(listed);
        QVERIFY(listed->wires.contains(QStringLiteral("chat")) && listed->wires.contains(QStringLiteral("responses")));
        const Reply r = send(QStringLiteral("POST"), m_desktop->baseUrl() + QStringLiteral("/v1/chat/completions"),
                             R"({"model": "openai/gpt-5.2", "messages": [{"role": "user", "content": "hi"}]})",
                             {{"authorization", QByteArray("Bearer ") + TestKey}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("x-aile-sharer"), Node.toLatin1());
        QCOMPARE(FakeUpstream::credentialOf(m_upstream->received().last()), openai.toLatin1());
        QCOMPARE(m_upstream->received().last().path, QByteArray("/v1/chat/completions"));
    }

    void aTeamServerSharerNeedsItsBaseUrl()
    {
        QVERIFY(startPair(50, 80));
        const Reply r = send(QStringLiteral("POST"), m_desktop->baseUrl() + QStringLiteral("/sharers"),
                             R"({"name": "team", "provider": "aile", "credential": "env:AILE_T_NODE_KEY"})", Admin);
        QCOMPARE(r.status, 400);
        QVERIFY2(r.body.contains("of provider aile (a team server) needs its \\\"baseUrl\\\""), r.body.constData());
    }

    void aSilentNodeLeavesSelectionAndComesBackOnItsNextAnswer()
    {
        QVERIFY(startPair(50, 80));
        QCOMPARE(ask().header("x-aile-sharer"), Node.toLatin1()); // heard from now: its answer is a message
        const quint16 port = m_node->port();
        m_node->engine().stop();

        // Two pings go unanswered; at 74 s it is still selectable, at 75 s it is not.
        m_clock->advance(30'000);
        m_clock->advance(30'000);
        m_clock->advance(14'000);
        QCOMPARE(dryRunTarget().value(QLatin1String("sharers")).toArray().first().toObject().value(QLatin1String("handle")).toString(), Node);
        m_clock->advance(1'000);
        const QJsonObject target = dryRunTarget();
        QCOMPARE(target.value(QLatin1String("sharers")).toArray().size(), 1);
        const QJsonObject removed = target.value(QLatin1String("removed")).toArray().first().toObject();
        QCOMPARE(removed.value(QLatin1String("handle")).toString(), Node);
        QVERIFY2(removed.value(QLatin1String("reason")).toString().startsWith(QLatin1String("silent node: not heard from for 75 s")),
                 qPrintable(removed.value(QLatin1String("reason")).toString()));
        // The sharers listing reads the same gate: the node's row is unavailable, with the reason.
        bool listed = false;
        for (const QJsonValue &v : send(QStringLiteral("GET"), m_desktop->baseUrl() + QStringLiteral("/sharers?model=") + Model, {}, Admin)
                                       .json()
                                       .value(QLatin1String("data"))
                                       .toArray()) {
            const QJsonObject row = v.toObject();
            if (row.value(QLatin1String("handle")).toString() != Node)
                continue;
            listed = true;
            QVERIFY(!row.value(QLatin1String("available")).toBool());
            QCOMPARE(row.value(QLatin1String("skip")).toString(), QStringLiteral("silent_node"));
        }
        QVERIFY(listed);
        QCOMPARE(ask().header("x-aile-sharer"), Local.toLatin1()); // the local account serves meanwhile
        // Only a node would do: refused in the Messages wire's shape, naming the silent node.
        const Reply refused = ask({{"x-aile-capacity", "node"}});
        QCOMPARE(refused.status, 503);
        QCOMPARE(refused.json().value(QLatin1String("type")).toString(), QStringLiteral("error"));
        QVERIFY2(refused.json()
                     .value(QLatin1String("error"))
                     .toObject()
                     .value(QLatin1String("message"))
                     .toString()
                     .contains(Node + QStringLiteral(") is a silent node")),
                 refused.body.constData());

        // The node starts again where it was; the next ping's answer brings it back.
        QVERIFY(m_node->restartOnPort(port));
        m_clock->advance(15'000); // 90 s: the third ping
        QVERIFY(waitHeard());
        QCOMPARE(ask().header("x-aile-sharer"), Node.toLatin1());
    }
};

QTEST_MAIN(TestNodeSharer)
#include "TestNodeSharer.moc"
