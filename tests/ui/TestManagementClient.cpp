// The GUI's one way to the engine: typed values (engine/api/values) read from and written back to
// the management API's JSON without losing a field, and ManagementClient over any transport.
#include "api/values/DryRunPlan.h"
#include "api/values/EngineStatus.h"
#include "api/values/KeyInfo.h"
#include "api/values/SharerRow.h"
#include "common/ManagementClient.h"
#include "common/ManagementTransport.h"
#include "host/Engine.h"
#include "secrets/SecretStore.h"
#include "sharers/SharerOrderModel.h"
#include "sharers/SharersView.h"

#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtTest/QtTest>

using namespace Aile;

namespace {

/// A transport that answers from a script: proves the client and the views need nothing of the
/// embedded engine (issue 23's HTTP transport plugs in the same way).
class ScriptedTransport : public Ui::IManagementTransport
{
public:
    struct Call
    {
        QString method, path;
        QByteArray body;
    };
    QList<Call> calls;
    QHash<QString, QPair<int, QJsonObject>> answers; // by path

    void send(const QString &method, const QString &path, const QByteArray &body, QObject *context, Done done) override
    {
        calls.append({method, path, body});
        const auto answer = answers.value(
            path, {404, QJsonObject{{QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), QStringLiteral("no such call")}}}}});
        ++m_pending;
        // As a transport must: the answer is dropped when its context is gone.
        QTimer::singleShot(0, this, [this, answer, guard = QPointer<QObject>(context), hasContext = context != nullptr, done = std::move(done)] {
            --m_pending;
            if (!hasContext || guard)
                done(answer.first, QJsonDocument(answer.second).toJson());
        });
    }
    int pending() const override { return m_pending; }

private:
    int m_pending = 0;
};

QJsonObject object(const Test::Reply &reply)
{
    return QJsonDocument::fromJson(reply.body).object();
}

Test::Reply manage(Test::TestEngine &engine, const QString &method, const QString &path, const QJsonObject &body = {})
{
    return Test::send(method, engine.baseUrl() + path, body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(),
                      {{"authorization", QByteArray("Bearer ") + Test::AdminToken}, {"content-type", "application/json"}});
}

/// Every field the typed JSON writes has the engine's value, and every field the engine sent that
/// the typed JSON leaves out is a default (false, null, empty): nothing the engine says is lost.
void compareCovered(const QJsonObject &typed, const QJsonObject &raw, const QString &where)
{
    for (auto it = typed.begin(); it != typed.end(); ++it)
        QVERIFY2(raw.value(it.key()) == it.value() || (raw.value(it.key()).isUndefined() && it.key() == QLatin1String("quota")),
                 qPrintable(where + QStringLiteral(": ") + it.key()));
    for (auto it = raw.begin(); it != raw.end(); ++it) {
        if (typed.contains(it.key()))
            continue;
        const QJsonValue v = it.value();
        QVERIFY2(v == QJsonValue(false) || v.isNull() || v == QJsonValue(QString()) || v == QJsonValue(0),
                 qPrintable(where + QStringLiteral(": lost ") + it.key()));
    }
}

} // namespace

class TestManagementClient : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void typedValuesSurviveTheirOwnJson_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("sharer row, every field") << 0;
        QTest::newRow("sharer row, empty") << 1;
        QTest::newRow("key with routes and spend") << 2;
        QTest::newRow("key, empty") << 3;
        QTest::newRow("dry-run plan with route and refusals") << 4;
        QTest::newRow("dry-run plan, empty") << 5;
        QTest::newRow("dry-run ask") << 6;
        QTest::newRow("key routing, every setting and one it does not name") << 7;
        QTest::newRow("key changes and replay ask") << 8;
        QTest::newRow("sharer edit, quotes and a percentage") << 9;
        QTest::newRow("engine status, every field") << 10;
        QTest::newRow("engine status, empty") << 11;
    }

    void typedValuesSurviveTheirOwnJson()
    {
        QFETCH(int, which);
        switch (which) {
        case 0: {
            Api::SharerRow r;
            r.rank = 2;
            r.handle = QStringLiteral("L00000000000000a1");
            r.name = QStringLiteral("openai-one");
            r.provider = QStringLiteral("openai");
            r.model = QStringLiteral("gpt-5.2");
            r.available = true;
            r.tested = true;
            r.deadKey = r.tiedWithPrevious = r.degraded = r.needsKey = true;
            r.health = 0.75;
            r.priority = 1;
            r.weight = 3;
            r.ttfbMs = 420;
            r.inputPrice = 1.25;
            r.outputPrice = 10;
            r.quoteUsd = 0.000123;
            r.quota = {Api::QuotaWindow{QStringLiteral("5h"), QStringLiteral("subscription"), 0.42, false, false,
                                        QStringLiteral("2026-12-01T10:00:00Z"), QStringLiteral("2026-12-01T14:00:00Z"), 18000,
                                        QStringLiteral("*codex*")}};
            r.stats = Api::SharerHealth{true, 140, 30, 0.97, 380, {}};
            r.credentialStore = QStringLiteral("file");
            QVERIFY(Api::SharerRow::fromJson(r.toJson()) == r);
            Api::SharerListing l{true, {{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}}, {r, r}, QStringLiteral("sorted")};
            QVERIFY(Api::SharerListing::fromJson(l.toJson()) == l);
            break;
        }
        case 1: {
            Api::SharerRow r;
            r.testedModels = {QStringLiteral("gpt-5.2"), QStringLiteral("gpt-5.5")};
            r.reason = QStringLiteral("cooling down");
            r.skip = QStringLiteral("cooldown");
            r.blocked = true;
            QVERIFY(Api::SharerRow::fromJson(r.toJson()) == r);
            QVERIFY(Api::SharerRow::fromJson(Api::SharerRow().toJson()) == Api::SharerRow());
            break;
        }
        case 2: {
            Api::KeyInfo k;
            k.id = QStringLiteral("k_0123456789ab");
            k.name = QStringLiteral("laptop");
            k.prefix = QStringLiteral("sk-aile-3f9a…");
            k.createdMs = 1'780'000'000'000;
            k.revoked = true;
            k.routing.maxPricePercent = 80;
            k.routing.sticky = false;
            k.routes = {Api::RouteValue{QStringLiteral("coding"),
                                        QStringLiteral("round-robin"),
                                        QStringLiteral("speed"),
                                        12000,
                                        true,
                                        2.5,
                                        {{QStringLiteral("openai/gpt-5.2"), QStringLiteral("L00000000000000a1"), 0.5, 1.0},
                                         {QStringLiteral("claude/claude-sonnet-5"), {}, {}, {}}}}};
            k.spentTodayUsd = 0.25;
            k.routeSpend = {Api::RouteSpend{
                QStringLiteral("coding"), 0.2, 2.5, {{QStringLiteral("openai/gpt-5.2"), QStringLiteral("L00000000000000a1"), 0.2, 1.0}}}};
            QVERIFY(Api::KeyInfo::fromJson(k.toJson()) == k);
            const Api::CreatedKey created{k, QStringLiteral("sk-aile-plain")};
            QVERIFY(Api::CreatedKey::fromJson(created.toJson()) == created);
            break;
        }
        case 3:
            QVERIFY(Api::KeyInfo::fromJson(Api::KeyInfo().toJson()) == Api::KeyInfo());
            QVERIFY(Api::RouteValue::fromJson(Api::RouteValue().toJson()) == Api::RouteValue());
            break;
        case 4: {
            Api::DryRunPlan p;
            p.model = QStringLiteral("coding");
            p.endpoint = QStringLiteral("/v1/chat/completions");
            Api::Refusal spent{402, QStringLiteral("budget spent"), QStringLiteral("budget_spent"), 3600,
                               QJsonObject{{QStringLiteral("budgetUsdPerDay"), 2.5}}};
            p.chain = {{QStringLiteral("openai/gpt-5.2"), std::nullopt}, {QStringLiteral("claude/claude-sonnet-5"), spent}};
            p.maxAttempts = 3;
            p.sessionAffinity = QStringLiteral("fresh");
            p.sampled = true;
            Api::DryRunTarget t;
            t.target = QStringLiteral("openai/gpt-5.2");
            t.calls = QStringLiteral("openai/gpt-5.2");
            t.removed = {{QStringLiteral("L00000000000000a2"), QStringLiteral("openai-two"), QStringLiteral("above the price ceiling"),
                          QStringLiteral("maxPricePercent")}};
            t.unavailable = {{QStringLiteral("cooldown"), 2}};
            t.sharers = {{1, QStringLiteral("L00000000000000a1"), QStringLiteral("openai-one"), true, 380, true, false, 0.0001, 1.25, 10},
                         {2, QStringLiteral("L00000000000000a3"), QStringLiteral("openai-three"), false, {}, false, true, {}, {}, {}}};
            t.more = 4;
            Api::DryRunTarget refused;
            refused.target = QStringLiteral("claude/claude-sonnet-5");
            refused.refusal = spent;
            p.targets = {t, refused};
            p.note = QStringLiteral("nothing was sent");
            p.route = Api::DryRunRoute{QStringLiteral("coding"), QStringLiteral("round-robin"), QStringLiteral("follow"), 0.2, 12000, 2.5, 1};
            p.firstTarget = t.target;
            p.firstSharer = QStringLiteral("L00000000000000a1");
            p.firstName = QStringLiteral("openai-one");
            p.refusal = spent;
            QVERIFY(Api::DryRunPlan::fromJson(p.toJson()) == p);
            break;
        }
        case 5: QVERIFY(Api::DryRunPlan::fromJson(Api::DryRunPlan().toJson()) == Api::DryRunPlan()); break;
        case 6: {
            Api::DryRunAsk a{QStringLiteral("openai/gpt-5.2"),
                             QStringLiteral("laptop"),
                             QStringLiteral("/v1/messages"),
                             QJsonObject{{QStringLiteral("max_tokens"), 16}},
                             {{QStringLiteral("x-aile-max-price"), QStringLiteral("2")}}};
            QVERIFY(Api::DryRunAsk::fromJson(a.toJson()) == a);
            break;
        }
        case 7: {
            // A stored routing object comes back as it was read: every named setting typed, a
            // setting the struct does not name (or one of another type) kept as it is.
            const QJsonObject stored{{QStringLiteral("maxPricePercent"), 80},
                                     {QStringLiteral("maxPrice"), 3},
                                     {QStringLiteral("minPricePercent"), 20},
                                     {QStringLiteral("maxCostUsd"), 0.5},
                                     {QStringLiteral("spendLimitUsdPerDay"), 25},
                                     {QStringLiteral("provider"), QStringLiteral("openai")},
                                     {QStringLiteral("excludeProviders"), QJsonArray{QStringLiteral("deepseek")}},
                                     {QStringLiteral("dataCollection"), QStringLiteral("deny")},
                                     {QStringLiteral("allowSelfHosted"), false},
                                     {QStringLiteral("onlySharers"), QJsonArray{}},
                                     {QStringLiteral("neverSharers"), QJsonArray{QStringLiteral("L00000000000000a1")}},
                                     {QStringLiteral("prefer"), QStringLiteral("speed")},
                                     {QStringLiteral("demoteFailing"), true},
                                     {QStringLiteral("phaseLimits"), true},
                                     {QStringLiteral("sticky"), false},
                                     {QStringLiteral("verifiedOnly"), true},
                                     {QStringLiteral("sharer"), QStringLiteral("L00000000000000a2")},
                                     {QStringLiteral("bareModelAnyProvider"), true},
                                     {QStringLiteral("bareModelProviders"), QJsonArray{QStringLiteral("openai")}},
                                     {QStringLiteral("pinTtlSeconds"), 900},
                                     {QStringLiteral("sticky2"), QStringLiteral("odd")}};
            const Api::KeyRoutingValue r = Api::KeyRoutingValue::fromJson(stored);
            QCOMPARE(r.toJson(), stored);
            QVERIFY(r.onlySharers == std::optional<QStringList>(QStringList())); // an empty list is not an absent one
            QCOMPARE(r.other, (QJsonObject{{QStringLiteral("pinTtlSeconds"), 900}, {QStringLiteral("sticky2"), QStringLiteral("odd")}}));
            const QJsonObject oddType{{QStringLiteral("sticky"), QStringLiteral("no")}};
            QCOMPARE(Api::KeyRoutingValue::fromJson(oddType).toJson(), oddType);
            QVERIFY(!Api::KeyRoutingValue::fromJson(oddType).sticky.has_value());
            QCOMPARE(Api::KeyRoutingValue().toJson(), QJsonObject());
            break;
        }
        case 8: {
            Api::KeyRoutingValue routing;
            routing.sticky = false;
            const Api::KeyChanges changes{QStringLiteral("laptop"), routing,
                                          QList<Api::RouteValue>{Api::RouteValue{
                                              QStringLiteral("coding"), {}, {}, {}, {}, {}, {{QStringLiteral("openai/gpt-5.2"), {}, {}, {}}}}}};
            QVERIFY(Api::KeyChanges::fromJson(changes.toJson()) == changes);
            Api::KeyChanges routingOnly;
            routingOnly.routing = routing;
            QCOMPARE(routingOnly.toJson(), (QJsonObject{{QStringLiteral("routing"), QJsonObject{{QStringLiteral("sticky"), false}}}}));
            const Api::ReplayAsk withRoute{QStringLiteral("k_1"), 7, std::nullopt, changes.routes->first(), {}, QStringLiteral("all")};
            QVERIFY(Api::ReplayAsk::fromJson(withRoute.toJson()) == withRoute);
            const Api::ReplayAsk byName{QStringLiteral("k_1"), std::nullopt, routing, std::nullopt, QStringLiteral("coding"), {}};
            QVERIFY(Api::ReplayAsk::fromJson(byName.toJson()) == byName);
            QCOMPARE(byName.toJson().value(QLatin1String("route")).toString(), QStringLiteral("coding"));
            break;
        }
        case 9: {
            Api::SharerEdit quoted{QStringLiteral("L00000000000000a1"),
                                   QStringLiteral("team"),
                                   QStringLiteral("openai"),
                                   {},
                                   QStringLiteral("api-key"),
                                   4,
                                   std::nullopt,
                                   QMap<QString, Api::ModelQuote>{{QStringLiteral("gpt-5.2"), {1.25, 10}}},
                                   {QStringLiteral("gpt-5.2")},
                                   QStringLiteral("deny"),
                                   QStringLiteral("env:OPENAI_KEY"),
                                   {}};
            QVERIFY(Api::SharerEdit::fromJson(quoted.toJson()) == quoted);
            Api::SharerEdit percent;
            percent.name = QStringLiteral("cheap");
            percent.percentOfList = 60;
            percent.secret = QStringLiteral("sk-test");
            percent.credential = QStringLiteral("file:");
            QVERIFY(Api::SharerEdit::fromJson(percent.toJson()) == percent);
            QCOMPARE(percent.toJson().value(QLatin1String("price")).toObject(), (QJsonObject{{QStringLiteral("percentOfList"), 60}}));
            QVERIFY(!percent.toJson().contains(QLatin1String("handle")));
            break;
        }
        case 10: {
            Api::SharerStatus sharer;
            sharer.config.handle = QStringLiteral("L00000000000000a1");
            sharer.config.name = QStringLiteral("openai-one");
            sharer.config.provider = QStringLiteral("openai");
            sharer.config.kind = QStringLiteral("subscription");
            sharer.config.percentOfList = 80;
            sharer.config.models = {QStringLiteral("gpt-5.2")};
            sharer.config.credential = QStringLiteral("keychain:aile-sharer-L00000000000000a1");
            sharer.tested = {QStringLiteral("gpt-5.2")};
            sharer.priority = 2;
            sharer.weight = 0;
            sharer.blocked = sharer.needsKey = true;
            sharer.credentialError = QStringLiteral("the keychain is locked");
            Api::KeyInfo key;
            key.id = QStringLiteral("k_0123456789ab");
            key.name = QStringLiteral("laptop");
            key.revoked = true;
            Api::ProviderStatus provider{QStringLiteral("myco"),
                                         QStringLiteral("My company"),
                                         QStringLiteral("http://localhost:8080"),
                                         {QStringLiteral("chat"), QStringLiteral("responses")},
                                         false,
                                         true};
            Api::EngineStatus s;
            s.listening = true;
            s.address = QStringLiteral("127.0.0.1");
            s.port = 2453;
            s.error = QStringLiteral("port 2453 is taken");
            s.sharers = {sharer, Api::SharerStatus()};
            s.keys = {key};
            s.providers = {provider};
            s.keychainProbed = true;
            s.keychainError = QStringLiteral("no keychain answers");
            s.keychainErrorKind = Secrets::SecretError::NoKeychain;
            s.secretsFile = QStringLiteral("secrets.json");
            s.pid = 4242;
            s.program = QStringLiteral("aile");
            s.version = QStringLiteral("1.2.3");
            QVERIFY(Api::EngineStatus::fromJson(s.toJson()) == s);
            QVERIFY(provider.speaks(QStringLiteral("responses")) && !provider.speaks(QStringLiteral("messages")));
            QCOMPARE(s.sharer(QStringLiteral("L00000000000000a1"))->priority, 2);
            QVERIFY(!s.sharer(QStringLiteral("L00000000000000ff")));
            break;
        }
        case 11:
            QVERIFY(Api::EngineStatus::fromJson(Api::EngineStatus().toJson()) == Api::EngineStatus());
            QVERIFY(Api::SharerStatus::fromJson(Api::SharerStatus().toJson()) == Api::SharerStatus());
            break;
        }
    }

    void theEnginesAnswersReadIntoTypedValuesWithoutLosingAField()
    {
        Test::FakeUpstream upstream;
        QVERIFY(upstream.listen());
        Test::TestEngine engine(Test::basicConfig(upstream.baseUrl()));
        QVERIFY(engine.start());

        // A key with a route of two targets, one pinned, with every route field set.
        const QJsonArray keys = object(manage(engine, QStringLiteral("GET"), QStringLiteral("/keys"))).value(QLatin1String("keys")).toArray();
        QCOMPARE(keys.size(), 1);
        const QString id = keys.first().toObject().value(QLatin1String("id")).toString();
        const QJsonObject route{
            {QStringLiteral("name"), QStringLiteral("coding")},
            {QStringLiteral("order"), QStringLiteral("round-robin")},
            {QStringLiteral("prefer"), QStringLiteral("speed")},
            {QStringLiteral("ttftMs"), 12000},
            {QStringLiteral("phaseLimits"), true},
            {QStringLiteral("budgetUsdPerDay"), 2.5},
            {QStringLiteral("targets"), QJsonArray{QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                                                               {QStringLiteral("sharer"), QStringLiteral("L00000000000000a1")},
                                                               {QStringLiteral("maxCostUsd"), 0.5},
                                                               {QStringLiteral("budgetUsdPerDay"), 1}},
                                                   QJsonObject{{QStringLiteral("model"), QStringLiteral("claude/claude-sonnet-5")}}}}};
        const Test::Reply put = manage(
            engine, QStringLiteral("PUT"), QStringLiteral("/keys/") + id,
            QJsonObject{{QStringLiteral("routes"), QJsonArray{route}}, {QStringLiteral("routing"), QJsonObject{{QStringLiteral("sticky"), false}}}});
        QCOMPARE(put.status, 200);
        const QJsonObject keyJson = object(put).value(QLatin1String("key")).toObject();
        const Api::KeyInfo key = Api::KeyInfo::fromJson(keyJson);
        QCOMPARE(key.toJson(), keyJson);
        QCOMPARE(key.routes.size(), 1);
        QCOMPARE(key.routes.first().targets.size(), 2);
        QVERIFY(key.routes.first().targets.first().maxCostUsd == std::optional<double>(0.5));
        QCOMPARE(key.routeSpend.size(), 1);

        // The dry run of the route and of a plain model.
        for (const QString &model : {QStringLiteral("coding"), QStringLiteral("openai/gpt-5.2")}) {
            const Test::Reply dry = manage(engine, QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"),
                                           QJsonObject{{QStringLiteral("model"), model}, {QStringLiteral("key"), id}});
            QCOMPARE(dry.status, 200);
            const Api::DryRunPlan plan = Api::DryRunPlan::fromJson(object(dry));
            QCOMPARE(plan.toJson(), object(dry));
            QVERIFY(!plan.targets.isEmpty());
            QCOMPARE(plan.firstSharer, QStringLiteral("L00000000000000a1"));
            QCOMPARE(plan.route.has_value(), model == QLatin1String("coding"));
        }

        // The listing for a model (routing order) and by handle.
        const Test::Reply listed = manage(engine, QStringLiteral("GET"), QStringLiteral("/sharers?model=openai/gpt-5.2"));
        QCOMPARE(listed.status, 200);
        const Api::SharerListing listing = Api::SharerListing::fromJson(object(listed));
        QVERIFY(!listing.readingOrder);
        QCOMPARE(listing.footer, object(listed).value(QLatin1String("footer")).toString());
        QCOMPARE(listing.rows.size(), 1);
        QCOMPARE(listing.rows.first().rank, 1);
        QVERIFY(listing.rows.first().tested == std::optional<bool>(true));
        QVERIFY(listing.rows.first().quoteUsd.has_value());
        QCOMPARE(listing.rows.first().credentialStore, QStringLiteral("env"));
        const QJsonArray rawRows = object(listed).value(QLatin1String("data")).toArray();
        for (int i = 0; i < listing.rows.size(); ++i)
            compareCovered(listing.rows.at(i).toJson(), rawRows.at(i).toObject(), QStringLiteral("row %1").arg(i));
        QVERIFY(Api::SharerListing::fromJson(listing.toJson()) == listing);

        // The engine's status: its sharers, keys and providers typed, nothing the engine said lost.
        const Test::Reply statusReply = manage(engine, QStringLiteral("GET"), QStringLiteral("/admin/status"));
        QCOMPARE(statusReply.status, 200);
        const Api::EngineStatus status = Api::EngineStatus::fromJson(object(statusReply));
        QCOMPARE(status.toJson(), object(statusReply));
        QVERIFY(status.sharer(QStringLiteral("L00000000000000a1")));
        QVERIFY(status.sharer(QStringLiteral("L00000000000000a1"))->credentialAvailable);
        QCOMPARE(status.keys.size(), 1);
        QCOMPARE(status.keys.first().id, id);
        QVERIFY(!status.keys.first().routes.isEmpty());
        QVERIFY(!status.providers.isEmpty());
        QVERIFY(!object(statusReply).value(QLatin1String("keys")).toArray().first().toObject().contains(QLatin1String("hash")));
    }

    void theClientCallsThroughAnyTransportAndHandsBackTypedValues()
    {
        auto *transport = new ScriptedTransport;
        Api::SharerRow row;
        row.rank = 1;
        row.handle = QStringLiteral("L00000000000000a1");
        row.name = QStringLiteral("openai-one");
        row.available = true;
        transport->answers.insert(QStringLiteral("/sharers?model=openai/gpt-5.2&verified=1"),
                                  {200, Api::SharerListing{false, {}, {row}, QStringLiteral("routing order")}.toJson()});
        Ui::ManagementClient client{std::unique_ptr<Ui::IManagementTransport>(transport)};

        Ui::SharerQuery query;
        query.model = QStringLiteral("openai/gpt-5.2");
        query.verified = true;
        std::optional<Ui::Reply<Api::SharerListing>> got;
        client.sharers(query, this, [&](const Ui::Reply<Api::SharerListing> &reply) { got = reply; });
        QCOMPARE(client.pending(), 1);
        QTRY_VERIFY(got.has_value());
        QVERIFY(got->ok());
        QVERIFY(got->value.rows == QList<Api::SharerRow>{row});
        QCOMPARE(transport->calls.first().method, QStringLiteral("GET"));

        // An error answer carries the engine's own message, never a half-read value.
        std::optional<Ui::Reply<Api::KeyInfo>> missing;
        client.key(QStringLiteral("nobody"), this, [&](const Ui::Reply<Api::KeyInfo> &reply) { missing = reply; });
        QTRY_VERIFY(missing.has_value());
        QCOMPARE(missing->status, 404);
        QCOMPARE(missing->error, QStringLiteral("no such call"));
        QCOMPARE(transport->calls.last().path, QStringLiteral("/keys/nobody"));

        // The body of a write is the typed value's JSON.
        client.saveRoutes(QStringLiteral("k_1"),
                          {Api::RouteValue{QStringLiteral("r"), {}, {}, {}, {}, {}, {{QStringLiteral("openai/gpt-5.2"), {}, {}, {}}}}}, this,
                          [](const Ui::Reply<Api::KeyInfo> &) {});
        QCOMPARE(transport->calls.last().method, QStringLiteral("PUT"));
        QCOMPARE(QJsonDocument::fromJson(transport->calls.last().body).object(),
                 QJsonObject({{QStringLiteral("routes"),
                               QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("r")},
                                                      {QStringLiteral("targets"),
                                                       QJsonArray{QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}}}}}}}}));

        // An answer whose context is gone is dropped.
        bool called = false;
        {
            QObject context;
            client.keys(&context, [&](const Ui::Reply<QList<Api::KeyInfo>> &) { called = true; });
        }
        QTRY_COMPARE(client.pending(), 0);
        QVERIFY(!called);
    }

    void theSharersPageFillsFromTheClientWhateverItsTransport()
    {
        auto *transport = new ScriptedTransport;
        Api::SharerRow row;
        row.rank = 1;
        row.handle = QStringLiteral("L00000000000000a1");
        row.name = QStringLiteral("openai-one");
        row.provider = QStringLiteral("openai");
        row.available = true;
        row.quoteUsd = 0.0002;
        transport->answers.insert(QStringLiteral("/sharers"), {200, Api::SharerListing{false, {}, {row}, QStringLiteral("by handle")}.toJson()});
        Ui::ManagementClient client{std::unique_ptr<Ui::IManagementTransport>(transport)};
        Ui::SharersView view;
        QSignalSpy listed(&view, &Ui::SharersView::listed);
        view.setClient(&client);
        view.refresh();
        QTRY_COMPARE(listed.count(), 1);
        QCOMPARE(view.model()->rowCount(), 1);
        QCOMPARE(view.model()->index(0, Ui::SharerOrderModel::Name).data().toString(), QStringLiteral("openai-one"));
        QCOMPARE(view.footer(), QStringLiteral("by handle"));
    }

    void theKeychainBannerReadsTheStatusCodeNotTheWords()
    {
        // The secret store's words change (a translation, a detail); the banner follows the code.
        Ui::SharersView view;
        Api::EngineStatus status;
        status.keychainProbed = true;
        status.keychainAvailable = false;
        status.keychainError = QStringLiteral("the Secret Service is not on the session bus (org.freedesktop.secrets)");
        status.keychainErrorKind = Secrets::SecretError::NoKeychain;
        view.setStatus(status);
        QVERIFY2(view.keychainBanner().startsWith(QLatin1String("No keychain answers on this system.")), qPrintable(view.keychainBanner()));

        status.keychainError = Secrets::SecretStore::noKeychainMessage();
        status.keychainErrorKind = Secrets::SecretError::AccessDenied;
        view.setStatus(status);
        QVERIFY2(view.keychainBanner().startsWith(QLatin1String("The keychain did not answer:")), qPrintable(view.keychainBanner()));
    }
};

QTEST_MAIN(TestManagementClient)
#include "TestManagementClient.moc"
