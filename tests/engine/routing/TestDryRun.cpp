// Issue 6 (docs/keys.md "Named routes", the dry run), the part that stands without routes: POST
// /keys/route-dry-run runs the pipeline a request runs and sends, charges and writes nothing.
#include "RoutingFixture.h"

#include "health/HealthBook.h"

#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>

using namespace Aile;
using namespace Aile::Test;

namespace {
const QString Cheap = QStringLiteral("L00000000000000a1");
const QString Dear = QStringLiteral("L00000000000000a2");
const QString Other = QStringLiteral("L00000000000000a3");
QJsonObject percent(int p)
{
    return QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), p}}}};
}
} // namespace

class TestDryRun : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;

    Reply dryRun(const QJsonObject &request)
    {
        return send(QStringLiteral("POST"), f.engine->baseUrl() + QStringLiteral("/keys/route-dry-run"), QJsonDocument(request).toJson(),
                    {{"authorization", QByteArray("Bearer ") + AdminToken}});
    }
    static QStringList handles(const QJsonObject &target)
    {
        QStringList out;
        for (const QJsonValue &v : target.value(QLatin1String("sharers")).toArray())
            out << v.toObject().value(QLatin1String("handle")).toString();
        return out;
    }
    int tracesStored()
    {
        return send(QStringLiteral("GET"), f.engine->baseUrl() + QStringLiteral("/keys/usage/requests"), {},
                    {{"authorization", QByteArray("Bearer ") + AdminToken}})
            .json()
            .value(QLatin1String("data"))
            .toArray()
            .size();
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(f.start(QJsonArray{sharer(Dear, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(100)),
                                   sharer(Cheap, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(50)),
                                   sharer(Other, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(100))}));
    }

    void itShowsTheOrderAndSendsChargesAndWritesNothing()
    {
        const Reply r = dryRun({{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}});
        QCOMPARE(r.status, 200);
        const QJsonObject target = r.json().value(QLatin1String("targets")).toArray().first().toObject();
        QCOMPARE(target.value(QLatin1String("target")).toString(), QStringLiteral("openai/gpt-5.2"));
        QCOMPARE(handles(target).first(), Cheap);
        QCOMPARE(handles(target).size(), 3);
        const QJsonObject first = target.value(QLatin1String("sharers")).toArray().first().toObject();
        QVERIFY(first.value(QLatin1String("first")).toBool());
        QVERIFY(first.value(QLatin1String("quoteUsd")).toDouble() > 0);
        QVERIFY(!first.value(QLatin1String("tested")).toBool());
        // The two at list price tie: a sampled order, and the one after the first is not tied with it.
        QCOMPARE(r.json().value(QLatin1String("ordering")).toString(), QStringLiteral("sampled"));
        QVERIFY(!target.value(QLatin1String("sharers")).toArray().at(1).toObject().value(QLatin1String("tiedWithFirst")).toBool());
        QVERIFY(target.value(QLatin1String("sharers")).toArray().at(2).toObject().value(QLatin1String("tiedWithFirst")).toBool() == false);
        QVERIFY(f.upstream->received().isEmpty());
        QCOMPARE(tracesStored(), 0);
        QCOMPARE(f.spentToday(), 0.0);
        // The next real request goes where the dry run said.
        QCOMPARE(f.chat(QStringLiteral("openai/gpt-5.2")).header("x-aile-sharer"), Cheap.toLatin1());
    }

    void aFixedOrderSaysSo()
    {
        QCOMPARE(dryRun({{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                         {QStringLiteral("headers"), QJsonObject{{QStringLiteral("x-aile-exclude-sharer"), Other}}}})
                     .json()
                     .value(QLatin1String("ordering"))
                     .toString(),
                 QStringLiteral("fixed"));
    }

    void filtersNameWhatTheyRemovedAndUnavailableOnesAreCounted()
    {
        f.engine->context().health->recordFailure(Other, QStringLiteral("gpt-5.2"), Health::Failure::ServerError);
        const Reply r = dryRun({{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                                {QStringLiteral("headers"), QJsonObject{{QStringLiteral("x-aile-max-price"), QStringLiteral("60%")}}}});
        const QJsonObject target = r.json().value(QLatin1String("targets")).toArray().first().toObject();
        QCOMPARE(handles(target), QStringList{Cheap});
        const QJsonArray removed = target.value(QLatin1String("removed")).toArray();
        QCOMPARE(removed.size(), 1);
        QCOMPARE(removed.first().toObject().value(QLatin1String("handle")).toString(), Dear);
        QCOMPARE(removed.first().toObject().value(QLatin1String("refusedBy")).toString(), QStringLiteral("x-aile-max-price"));
        // Cooling: a count, not a name.
        QCOMPARE(target.value(QLatin1String("unavailable")).toObject().value(QLatin1String("cooldown")).toInt(), 1);
    }

    void aKeysSettingsApplyAndARefusedRequestShowsItsRefusal()
    {
        const QString keyId = f.engine->context().keys.first().id;
        QCOMPARE(
            send(QStringLiteral("PUT"), f.engine->baseUrl() + QStringLiteral("/keys/") + keyId,
                 QJsonDocument(QJsonObject{{QStringLiteral("routing"), QJsonObject{{QStringLiteral("neverSharers"), QJsonArray{Cheap}}}}}).toJson(),
                 {{"authorization", QByteArray("Bearer ") + AdminToken}})
                .status,
            200);
        Reply r = dryRun({{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}, {QStringLiteral("key"), keyId}});
        QCOMPARE(r.json()
                     .value(QLatin1String("targets"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QLatin1String("removed"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QLatin1String("handle"))
                     .toString(),
                 Cheap);
        // A cost cap no sharer fits: the same 402 a real request gets, shown as the refusal.
        r = dryRun({{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                    {QStringLiteral("headers"), QJsonObject{{QStringLiteral("x-aile-max-cost"), QStringLiteral("0.000001")}}}});
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QLatin1String("refusal")).toObject().value(QLatin1String("status")).toInt(), 402);
        QVERIFY(f.upstream->received().isEmpty());
        QCOMPARE(tracesStored(), 0);
    }

    void anyProviderShowsTheProvidersAsTargets()
    {
        const Reply r = dryRun({{QStringLiteral("model"), QStringLiteral("auto/gpt-5.2")}});
        QCOMPARE(r.status, 200);
        QVERIFY(!r.json().value(QLatin1String("targets")).toArray().isEmpty());
        QCOMPARE(r.json().value(QLatin1String("targets")).toArray().first().toObject().value(QLatin1String("target")).toString(),
                 QStringLiteral("openai/gpt-5.2"));
    }

    void anyProviderRunsTheCostCapsBodyChecksPerProvider()
    {
        // n = 2 cannot be bounded by the output cap on any provider: the 400 a named provider gets.
        const Reply r =
            f.post(QStringLiteral("/v1/chat/completions"),
                   RoutingFixture::chatBody(QStringLiteral("auto/gpt-5.2"), false, {{QStringLiteral("n"), 2}}), {{"x-aile-max-cost", "1"}});
        QCOMPARE(r.status, 400);
        QVERIFY2(errorMessage(r).contains(QLatin1String("cannot bound this request")), qPrintable(errorMessage(r)));
        QVERIFY(f.upstream->received().isEmpty());
        QCOMPARE(f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(QStringLiteral("auto/gpt-5.2")), {{"x-aile-max-cost", "1"}})
                     .status,
                 200);
    }

    void aRouteTemplateListsOneTargetPerProviderCheapestFirst()
    {
        auto get = [&](const QString &query) {
            return send(QStringLiteral("GET"), f.engine->baseUrl() + QStringLiteral("/keys/route-template?") + query, {},
                        {{"authorization", QByteArray("Bearer ") + AdminToken}});
        };
        auto models = [](const QJsonArray &a) {
            QStringList out;
            for (const QJsonValue &v : a)
                out << v.toObject().value(QLatin1String("model")).toString();
            return out;
        };
        // claude and openrouter list claude-sonnet-5 at the same list price: both, in catalogue order;
        // the 5.5 names only start the same and are ambiguous, never added.
        Reply r = get(QStringLiteral("model=claude_sonnet_5"));
        QCOMPARE(r.status, 200);
        QCOMPARE(models(r.json().value(QLatin1String("targets")).toArray()),
                 (QStringList{QStringLiteral("claude/claude-sonnet-5"), QStringLiteral("openrouter/anthropic/claude-sonnet-5")}));
        QVERIFY(models(r.json().value(QLatin1String("ambiguous")).toArray()).contains(QStringLiteral("claude/claude-sonnet-5-5")));
        // A cheaper sharer puts its provider first.
        QCOMPARE(send(QStringLiteral("POST"), f.engine->baseUrl() + QStringLiteral("/sharers"),
                      QJsonDocument(sharer(QStringLiteral("L00000000000000b9"), QStringLiteral("openrouter"), f.upstream->baseUrl(),
                                           {QStringLiteral("anthropic/claude-sonnet-5")}, percent(50)))
                          .toJson(),
                      {{"authorization", QByteArray("Bearer ") + AdminToken}})
                     .status,
                 200);
        r = get(QStringLiteral("model=claude-sonnet-5"));
        QCOMPARE(models(r.json().value(QLatin1String("targets")).toArray()).first(), QStringLiteral("openrouter/anthropic/claude-sonnet-5"));
        // With a key, what it would refuse is skipped and named.
        const QString keyId = f.engine->context().keys.first().id;
        QCOMPARE(send(QStringLiteral("PUT"), f.engine->baseUrl() + QStringLiteral("/keys/") + keyId,
                      QJsonDocument(QJsonObject{{QStringLiteral("routing"),
                                                 QJsonObject{{QStringLiteral("excludeProviders"), QJsonArray{QStringLiteral("openrouter")}}}}})
                          .toJson(),
                      {{"authorization", QByteArray("Bearer ") + AdminToken}})
                     .status,
                 200);
        r = get(QStringLiteral("model=claude-sonnet-5&key=") + keyId);
        QCOMPARE(models(r.json().value(QLatin1String("targets")).toArray()), QStringList{QStringLiteral("claude/claude-sonnet-5")});
        QCOMPARE(models(r.json().value(QLatin1String("skipped")).toArray()), QStringList{QStringLiteral("openrouter/anthropic/claude-sonnet-5")});
        QCOMPARE(get(QStringLiteral("model=openai/gpt-5.2")).status, 400);
        QCOMPARE(get(QStringLiteral("model=gpt-5.2&key=nobody")).status, 404);
        QVERIFY(f.upstream->received().isEmpty());
    }

    void badAsksAreRefusedWithTheFix()
    {
        Reply r = dryRun({});
        QCOMPARE(r.status, 400);
        QVERIFY(errorMessage(r).contains(QLatin1String("say which model")));
        r = dryRun({{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}, {QStringLiteral("endpoint"), QStringLiteral("/v1/nope")}});
        QCOMPARE(r.status, 400);
        QCOMPARE(dryRun({{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")}, {QStringLiteral("key"), QStringLiteral("nobody")}}).status,
                 404);
        const QJsonObject huge{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                               {QStringLiteral("body"), QJsonObject{{QStringLiteral("messages"), QString(DryRunSize, QLatin1Char('x'))}}}};
        r = dryRun(huge);
        QCOMPARE(r.status, 413);
        QVERIFY(errorMessage(r).contains(QLatin1String("at most 1 MiB")));
    }

    // Runs the aile CLI against the test engine; returns its standard output (exit code in *code).
    QString runCli(QStringList arguments, int *code)
    {
        arguments << QStringLiteral("--url") << f.engine->baseUrl() << QStringLiteral("--admin-token-file") << adminTokenFile();
        QProcess cli;
        cli.start(QStringLiteral(AILE_BIN), arguments);
        if (!cli.waitForStarted())
            return {};
        QDeadlineTimer deadline(20000);
        while (cli.state() != QProcess::NotRunning && !deadline.hasExpired())
            QTest::qWait(5);
        *code = cli.exitCode();
        return QString::fromUtf8(cli.readAllStandardOutput() + cli.readAllStandardError());
    }

    void theCliShowsTheSameDryRun()
    {
        int code = -1;
        const QString text =
            runCli({QStringLiteral("dry-run"), QStringLiteral("openai/gpt-5.2"), QStringLiteral("--header"), QStringLiteral("x-aile-max-price: 60%")},
                   &code);
        QCOMPARE(code, 0);
        QVERIFY2(text.contains(QStringLiteral("  1 %1").arg(Cheap)) && text.contains(QLatin1String("<- first")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("removed %1").arg(Dear)), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("nothing was sent, charged or written")), qPrintable(text));
        QVERIFY(f.upstream->received().isEmpty());
    }

    void theCliSavesAKeysRoutesAndDryRunsOne()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("routes.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(QJsonArray{QJsonObject{
                                     {QStringLiteral("name"), QStringLiteral("coding")},
                                     {QStringLiteral("budgetUsdPerDay"), 3},
                                     {QStringLiteral("targets"), QJsonArray{QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                                                                                        {QStringLiteral("sharer"), Dear}}}}}})
                       .toJson());
        file.close();
        int code = -1;
        QString text =
            runCli({QStringLiteral("keys"), QStringLiteral("routes"), QStringLiteral("test"), QStringLiteral("--set"), file.fileName()}, &code);
        QCOMPARE(code, 0);
        QVERIFY2(text.contains(QLatin1String("coding  (in order)  today $0.000000 of $3")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("1. openai/gpt-5.2 on %1").arg(Dear)), qPrintable(text));
        text = runCli({QStringLiteral("dry-run"), QStringLiteral("coding"), QStringLiteral("--key"), QStringLiteral("test")}, &code);
        QCOMPARE(code, 0);
        QVERIFY2(text.contains(QLatin1String("route coding (in order)")) && text.contains(QStringLiteral("  1 %1").arg(Dear)), qPrintable(text));
        // A route the engine refuses: its message, and a failing exit code.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(R"([{"name": "r", "targets": [{"model": "auto/gpt-5.2"}]}])");
        file.close();
        text = runCli({QStringLiteral("keys"), QStringLiteral("routes"), QStringLiteral("test"), QStringLiteral("--set"), file.fileName()}, &code);
        QCOMPARE(code, 1);
        QVERIFY2(text.contains(QLatin1String("auto/ cannot be one")), qPrintable(text));
        QVERIFY(f.upstream->received().isEmpty());
    }

private:
    static constexpr int DryRunSize = 1024 * 1024 + 10;
};

QTEST_GUILESS_MAIN(TestDryRun)
#include "TestDryRun.moc"
