// Issue 3: the sharers listing is the routing order (API and CLI identical), sharer CRUD,
// model tests and probes, dead keys and what restores them.
#include "engine/routing/RoutingFixture.h"

#include "api/ManagementApi.h"

#include <QtCore/QProcess>
#include <QtTest/QSignalSpy>

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString Cheap = QStringLiteral("L00000000000000a1");
const QString Dear = QStringLiteral("L00000000000000a2");
QJsonObject percent(int p)
{
    return QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), p}}}};
}
} // namespace

class TestSharersApi : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

    Reply admin(const QString &method, const QString &path, const QByteArray &body = {})
    {
        return send(method, f.engine->baseUrl() + path, body, {{"authorization", QByteArray("Bearer ") + AdminToken}});
    }
    QStringList listed(const QString &query)
    {
        QStringList out;
        for (const QJsonValue &v : admin(QStringLiteral("GET"), QStringLiteral("/sharers?") + query).json().value(QLatin1String("data")).toArray())
            out << v.toObject().value(QLatin1String("handle")).toString()
                       + (v.toObject().value(QLatin1String("available")).toBool() ? QString() : QStringLiteral("!"));
        return out;
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(f.start(QJsonArray{sharer(Dear, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(100)),
                                   sharer(Cheap, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(50))}));
    }

    void theListingIsTheRoutingOrder()
    {
        const Reply r = admin(QStringLiteral("GET"), QStringLiteral("/sharers?model=openai/gpt-5.2"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QLatin1String("order")).toString(), QStringLiteral("routing"));
        QVERIFY(r.json().value(QLatin1String("footer")).toString().contains(QLatin1String("top row is where the next request")));
        QCOMPARE(listed(QStringLiteral("model=openai/gpt-5.2")), (QStringList{Cheap, Dear}));
        // The top row is where the next request goes.
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).header("x-aile-sharer"), Cheap.toLatin1());
    }

    void filtersAreAppliedByTheEngineAndEchoed()
    {
        const Reply r = admin(QStringLiteral("GET"), QStringLiteral("/sharers?model=openai/gpt-5.2&max-price=60%25&verified=0"));
        QCOMPARE(r.json().value(QLatin1String("filters")).toObject().value(QLatin1String("max-price")).toString(), QStringLiteral("60%"));
        // The dear one is over 60% of list: shown, but unavailable, with the reason.
        QCOMPARE(listed(QStringLiteral("model=openai/gpt-5.2&max-price=60%25")), (QStringList{Cheap, Dear + QLatin1Char('!')}));
        QCOMPARE(listed(QStringLiteral("model=openai/gpt-5.2&min-price=80%25")), (QStringList{Dear, Cheap + QLatin1Char('!')}));
        // The same filters as headers route the same way.
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2"), {{"x-aile-min-price", "80%"}}).header("x-aile-sharer"), Dear.toLatin1());
        const Reply floor = f.chat(QStringLiteral("openai/gpt-5.2"), {{"x-aile-min-price", "120%"}});
        QCOMPARE(floor.status, 503);
        QVERIFY(errorMessage(floor).startsWith(QLatin1String("every sharer online for openai/gpt-5.2 is priced more than")));
        QCOMPARE(floor.json().value(QLatin1String("error")).toObject().value(QLatin1String("refusedBy")).toString(),
                 QStringLiteral("x-aile-min-price"));
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2"), {{"x-aile-max-price", "cheap"}}).status, 400);
    }

    void aCoolingSharerIsShownUnavailable()
    {
        f.engine->context().health->recordFailure(Cheap, QStringLiteral("gpt-5.2"), Health::Failure::ServerError);
        QCOMPARE(listed(QStringLiteral("model=openai/gpt-5.2")), (QStringList{Dear, Cheap + QLatin1Char('!')}));
    }

    void sortGivesAReadingOrderAndSaysSo()
    {
        const Reply r = admin(QStringLiteral("GET"), QStringLiteral("/sharers?model=openai/gpt-5.2&sort=name"));
        QCOMPARE(r.json().value(QLatin1String("order")).toString(), QStringLiteral("reading"));
        QVERIFY(r.json().value(QLatin1String("footer")).toString().contains(QLatin1String("not the routing order")));
    }

    void theCliShowsTheSameView()
    {
        QProcess cli;
        cli.start(QStringLiteral(AILE_BIN),
                  {QStringLiteral("sharers"), QStringLiteral("--model"), QStringLiteral("openai/gpt-5.2"), QStringLiteral("--url"),
                   f.engine->baseUrl(), QStringLiteral("--admin-token-file"), adminTokenFile(), QStringLiteral("--json")});
        QTRY_VERIFY_WITH_TIMEOUT(cli.state() == QProcess::NotRunning, 20000);
        QCOMPARE(cli.exitCode(), 0);
        const QJsonObject fromCli = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        const Reply fromApi = admin(QStringLiteral("GET"), QStringLiteral("/sharers?model=openai/gpt-5.2"));
        QCOMPARE(fromCli.value(QLatin1String("data")), fromApi.json().value(QLatin1String("data")));
        QProcess table;
        table.start(QStringLiteral(AILE_BIN), {QStringLiteral("sharers"), QStringLiteral("--model"), QStringLiteral("openai/gpt-5.2"),
                                               QStringLiteral("--url"), f.engine->baseUrl(), QStringLiteral("--admin-token-file"), adminTokenFile()});
        QTRY_VERIFY_WITH_TIMEOUT(table.state() == QProcess::NotRunning, 20000);
        const QString text = QString::fromUtf8(table.readAllStandardOutput());
        QVERIFY2(text.indexOf(Cheap) < text.indexOf(Dear), qPrintable(text));
        QVERIFY(text.contains(QLatin1String("routing order")));
    }

    void addEditAndRemoveASharer()
    {
        qputenv("AILE_T_NEW", "new-secret");
        const QByteArray add = QJsonDocument(QJsonObject{{QStringLiteral("handle"), QStringLiteral("L00000000000000b1")},
                                                         {QStringLiteral("name"), QStringLiteral("added")},
                                                         {QStringLiteral("provider"), QStringLiteral("openai")},
                                                         {QStringLiteral("baseUrl"), f.upstream->baseUrl()},
                                                         {QStringLiteral("credential"), QStringLiteral("env:AILE_T_NEW")},
                                                         {QStringLiteral("models"), QJsonArray{QStringLiteral("gpt-5.2")}},
                                                         {QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 10}}}})
                                   .toJson();
        Reply r = admin(QStringLiteral("POST"), QStringLiteral("/sharers"), add);
        QCOMPARE(r.status, 200);
        QVERIFY(r.json().value(QLatin1String("credentialAvailable")).toBool());
        QCOMPARE(listed(QStringLiteral("model=openai/gpt-5.2")).first(), QStringLiteral("L00000000000000b1"));
        QCOMPARE(admin(QStringLiteral("POST"), QStringLiteral("/sharers"), add).status, 409);
        r = admin(QStringLiteral("PUT"), QStringLiteral("/sharers/L00000000000000B1"), "{\"price\":{\"percentOfList\":200}}");
        QCOMPARE(r.status, 200);
        QCOMPARE(listed(QStringLiteral("model=openai/gpt-5.2")).last(), QStringLiteral("L00000000000000b1"));
        // Stored without the secret, and survives a restart.
        QVERIFY(!admin(QStringLiteral("GET"), QStringLiteral("/sharers/L00000000000000b1")).body.contains("new-secret"));
        QVERIFY(f.engine->restart());
        QCOMPARE(listed(QStringLiteral("model=openai/gpt-5.2")).last(), QStringLiteral("L00000000000000b1"));
        QCOMPARE(admin(QStringLiteral("DELETE"), QStringLiteral("/sharers/L00000000000000b1")).status, 200);
        QCOMPARE(listed(QStringLiteral("model=openai/gpt-5.2")).size(), 2);
        QCOMPARE(admin(QStringLiteral("PUT"), QStringLiteral("/sharers/L00000000000000b1"), "{}").status, 404);
        QCOMPARE(admin(QStringLiteral("POST"), QStringLiteral("/sharers"), "{\"provider\":\"openai\",\"credential\":\"sk-live-plain\"}").status, 400);
    }

    void aPassingModelTestListsTheModelAndRestoresADeadKey()
    {
        // "A model is listed in GET /v1/models only after some sharer passed a test of it"
        Reply models = send(QStringLiteral("GET"), f.engine->baseUrl() + QStringLiteral("/v1/models"), {}, f.auth());
        QVERIFY(!models.body.contains("openai/gpt-5.2"));
        // … "an untested model still serves when named"
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).status, 200);
        f.engine->context().health->recordFailure(Cheap, QStringLiteral("gpt-5.2"), Health::Failure::AuthRefused);
        const Reply t = admin(QStringLiteral("POST"), QStringLiteral("/sharers/%1/test").arg(Cheap), "{\"model\":\"gpt-5.2\"}");
        QCOMPARE(t.status, 200);
        QVERIFY(t.json().value(QLatin1String("ok")).toBool());
        QCOMPARE(f.upstream->received().last().json().value(QLatin1String("max_tokens")).toInt(), 1);
        QVERIFY(!f.engine->context().health->of(Cheap).deadKey);
        models = send(QStringLiteral("GET"), f.engine->baseUrl() + QStringLiteral("/v1/models"), {}, f.auth());
        QVERIFY(models.body.contains("openai/gpt-5.2"));
        // A failing test says why.
        f.upstream->enqueueFor(Cheap.toLatin1(), FakeUpstream::error(401, QStringLiteral("bad key")));
        const Reply bad = admin(QStringLiteral("POST"), QStringLiteral("/sharers/%1/test").arg(Cheap), "{\"model\":\"gpt-5.2\"}");
        QVERIFY(!bad.json().value(QLatin1String("ok")).toBool());
        QVERIFY(f.engine->context().health->of(Cheap).deadKey);
    }

    void aProbeRecordsWhetherTheCredentialAnswered()
    {
        f.upstream->enqueueFor(Cheap.toLatin1(), FakeUpstream::error(401, QStringLiteral("bad key")));
        Reply p = admin(QStringLiteral("POST"), QStringLiteral("/sharers/%1/probe").arg(Cheap));
        QVERIFY(!p.json().value(QLatin1String("ok")).toBool());
        QCOMPARE(f.upstream->received().last().method, QByteArray("GET"));
        QCOMPARE(f.upstream->received().last().path, QByteArray("/v1/models"));
        // Only a probe refused it, so a passing probe restores it.
        QVERIFY(f.engine->context().health->of(Cheap).deadKey);
        QCOMPARE(listed(QStringLiteral("model=openai/gpt-5.2")), (QStringList{Dear, Cheap}));
        p = admin(QStringLiteral("POST"), QStringLiteral("/sharers/%1/probe").arg(Cheap));
        QVERIFY(p.json().value(QLatin1String("ok")).toBool());
        QVERIFY(!f.engine->context().health->of(Cheap).deadKey);
    }

    void configurationExportsWithoutSecretsAndImportsElsewhere()
    {
        // "Configuration exports and imports as JSON without secrets."
        const Reply exported = admin(QStringLiteral("GET"), QStringLiteral("/admin/config"));
        QCOMPARE(exported.status, 200);
        QCOMPARE(exported.json().value(QLatin1String("sharers")).toArray().size(), 2);
        QVERIFY(!exported.body.contains(TestKey));                                          // the key itself
        QVERIFY(!exported.body.contains(Keys::hashKey(QLatin1String(TestKey)).toLatin1())); // nor its hash
        QVERIFY(!exported.body.contains(AdminToken));                                       // nor the admin token
        for (const QJsonValue &v : exported.json().value(QLatin1String("sharers")).toArray())
            QVERIFY(v.toObject().value(QLatin1String("credential")).toString().startsWith(QLatin1String("env:"))); // references only
        QCOMPARE(exported.json().value(QLatin1String("keys")).toArray().first().toObject().value(QLatin1String("name")).toString(),
                 QStringLiteral("test"));
        // Onto another engine: the sharers arrive in the same routing order.
        RoutingFixture other;
        QVERIFY(other.start(QJsonArray{}));
        const Reply imported = send(QStringLiteral("POST"), other.engine->baseUrl() + QStringLiteral("/admin/config"), exported.body,
                                    {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(imported.status, 200);
        const Reply list = send(QStringLiteral("GET"), other.engine->baseUrl() + QStringLiteral("/sharers?model=openai/gpt-5.2"), {},
                                {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(list.json().value(QLatin1String("data")).toArray().first().toObject().value(QLatin1String("handle")).toString(), Cheap);
        QCOMPARE(list.json().value(QLatin1String("data")).toArray().size(), 2);
        const Reply bad = send(QStringLiteral("POST"), other.engine->baseUrl() + QStringLiteral("/admin/config"), "{\"sharer\": []}",
                               {{"authorization", QByteArray("Bearer ") + AdminToken}});
        QCOMPARE(bad.status, 400);
    }

    void probesRunOnTheirInterval()
    {
        RoutingFixture g;
        QVERIFY(g.start(QJsonArray{sharer(Cheap, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")})}, {},
                        QJsonObject{{QStringLiteral("probeIntervalMs"), 300'000}}));
        g.clock.advance(299'000);
        QTest::qWait(20);
        QCOMPARE(g.upstream->received().size(), 0);
        g.clock.advance(2'000);
        QTRY_COMPARE(g.upstream->received().size(), 1);
        QCOMPARE(g.upstream->received().first().path, QByteArray("/v1/models"));
    }

    void eachRowSaysWhereItsCredentialLives()
    {
        // The fixture's sharers read environment variables; a file: reference says file even
        // before the user opted in to the file (its secret is then missing, and the row unavailable).
        const QByteArray filed = QJsonDocument(QJsonObject{{QStringLiteral("handle"), QStringLiteral("L00000000000000f1")},
                                                           {QStringLiteral("name"), QStringLiteral("filed")},
                                                           {QStringLiteral("provider"), QStringLiteral("openai")},
                                                           {QStringLiteral("baseUrl"), f.upstream->baseUrl()},
                                                           {QStringLiteral("credential"), QStringLiteral("file:aile-f1")},
                                                           {QStringLiteral("models"), QJsonArray{QStringLiteral("gpt-5.2")}}})
                                     .toJson();
        QCOMPARE(admin(QStringLiteral("POST"), QStringLiteral("/sharers"), filed).status, 200);
        for (const QString &query : {QStringLiteral("model=openai/gpt-5.2"), QStringLiteral("provider=openai")}) {
            const QJsonArray rows = admin(QStringLiteral("GET"), QStringLiteral("/sharers?") + query).json().value(QLatin1String("data")).toArray();
            QCOMPARE(rows.size(), 3);
            for (const QJsonValue &v : rows) {
                const QJsonObject row = v.toObject();
                const bool isFiled = row.value(QLatin1String("handle")).toString() == QLatin1String("L00000000000000f1");
                QCOMPARE(row.value(QLatin1String("credentialStore")).toString(), isFiled ? QStringLiteral("file") : QStringLiteral("env"));
                QVERIFY(!row.contains(QLatin1String("credential"))); // never the reference's name in a listing
            }
        }
        QCOMPARE(Api::credentialStoreOf(QStringLiteral("keychain:aile-sharer-x")), QStringLiteral("keychain"));
        QCOMPARE(Api::credentialStoreOf(QString()), QStringLiteral("none"));
    }

    void theStatusSaysWhetherAKeychainAnswersAndListsTheProviders()
    {
        QSignalSpy statuses(&f.engine->engine(), &Engine::statusChanged);
        auto probed = [&] {
            if (statuses.isEmpty())
                f.engine->engine().requestStatus();
            return !statuses.isEmpty() && statuses.last().first().value<Api::EngineStatus>().keychainProbed;
        };
        QTRY_VERIFY_WITH_TIMEOUT(probed(), 40000);
        const Api::EngineStatus s = statuses.last().first().value<Api::EngineStatus>();
        if (qEnvironmentVariableIsSet("AILE_TEST_SECRET_SERVICE")) {
            QVERIFY2(s.keychainAvailable, qPrintable(s.keychainError));
            QVERIFY(s.keychainError.isEmpty());
        } else if (!s.keychainAvailable) {
            QVERIFY(!s.keychainError.isEmpty()); // why, in plain words
        }
        QVERIFY(s.secretsFile.isEmpty()); // not opted in
        QStringList ids;
        for (const Api::ProviderStatus &p : s.providers)
            ids << p.id;
        for (const char *id : {"claude", "openai", "codex", "openrouter", "gemini", "deepseek", "local"})
            QVERIFY2(ids.contains(QLatin1String(id)), id);
    }
};

QTEST_GUILESS_MAIN(TestSharersApi)
#include "TestSharersApi.moc"
