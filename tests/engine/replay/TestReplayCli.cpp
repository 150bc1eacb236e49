// `aile replay` (docs/replay.md) as a user runs it: the real aile program against the real engine
// holding a recorded history (requests sent through the fake upstream on a ManualClock). Its
// printed report carries the engine's figures (cost actual and projected, the counts per target
// and sharer, the requests that change most) and it exits 0; a bad argument is refused with a
// clear message and exit 2 before anything is asked, and the engine's refusal is printed with exit 1.
#include "ReplayFixture.h"

#include "host/EngineContext.h"

#include <QtCore/QDateTime>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>

using namespace Aile;
using namespace Aile::Test;

namespace {

constexpr qint64 DayMs = 24LL * 3600 * 1000;

QJsonObject mainRoute(const QString &model)
{
    return QJsonObject{{QStringLiteral("name"), QStringLiteral("main")},
                       {QStringLiteral("targets"), QJsonArray{QJsonObject{{QStringLiteral("model"), model}}}}};
}

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

QString usd(double v)
{
    return QStringLiteral("$%1").arg(v, 0, 'f', 4);
}

} // namespace

class TestReplayCli : public QObject
{
    Q_OBJECT
private:
    RoutingFixture f;
    QTemporaryDir m_dir;

    QString keyId() { return f.engine->context().keys.first().id; }

    /// aile replay with the engine's address and the admin token file; the engine runs on this
    /// thread, so the wait goes through the event loop.
    Run aile(const QStringList &args)
    {
        QProcess p;
        p.start(QStringLiteral(AILE_BIN),
                QStringList{QStringLiteral("replay")} + args
                    + QStringList{QStringLiteral("--url"), f.engine->baseUrl(), QStringLiteral("--admin-token-file"), adminTokenFile()});
        Run r;
        if (!p.waitForStarted())
            return r;
        if (!QTest::qWaitFor([&] { return p.state() == QProcess::NotRunning; }, 60000)) {
            p.kill();
            p.waitForFinished();
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    QString writeJson(const QString &name, const QJsonObject &o)
    {
        QFile file(m_dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(QJsonDocument(o).toJson());
        return file.fileName();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(f.start(ReplaySharers::all()));
        QCOMPARE(f.admin(QStringLiteral("PUT"), QStringLiteral("/keys/") + keyId(),
                         {{QStringLiteral("routes"), QJsonArray{mainRoute(QStringLiteral("openai/gpt-5.2"))}}})
                     .status,
                 200);
        // Two days of the route; requests 20-22 find both gpt-5.2 sharers failing.
        answerWithNamedUsage(*f.upstream, [](const ReceivedRequest &r) -> std::optional<Script> {
            const QString content = r.json().value(QLatin1String("messages")).toArray().first().toObject().value(QLatin1String("content")).toString();
            const int index = content.section(QLatin1Char(':'), 3).toInt();
            if (index >= 20 && index < 23)
                return FakeUpstream::error(503, QStringLiteral("overloaded"));
            return std::nullopt;
        });
        const QList<RecordedAsk> stream = recordedStream(2, 40, {QStringLiteral("main")});
        QVERIFY(sendStream(f, stream, (f.clock.nowMs() / DayMs + 1) * DayMs + 60 * 1000));
    }

    void theReportPrintsTheEnginesFigures()
    {
        // The route edited to gpt-5.5, as a file: what the engine answers over the API is what is printed.
        const QJsonObject edited = mainRoute(QStringLiteral("openai/gpt-5.5"));
        const QString body = writeJson(QStringLiteral("route.json"), edited);
        const Reply api = f.admin(QStringLiteral("POST"), QStringLiteral("/keys/route-replay"),
                                  {{QStringLiteral("key"), QStringLiteral("test")}, {QStringLiteral("days"), 3}, {QStringLiteral("route"), edited}});
        QCOMPARE(api.status, 200);
        const QJsonObject r = api.json();
        const double actual = r.value(QLatin1String("actual")).toObject().value(QLatin1String("costUsd")).toDouble();
        const double projected = r.value(QLatin1String("projected")).toObject().value(QLatin1String("costUsd")).toDouble();
        QVERIFY(actual > 0 && projected > actual); // gpt-5.5 costs more

        const Run run =
            aile({QStringLiteral("--key"), QStringLiteral("test"), QStringLiteral("--body"), body, QStringLiteral("--days"), QStringLiteral("3")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
        const QStringList lines = run.out.split(QLatin1Char('\n'));
        QVERIFY2(lines.first().startsWith(QStringLiteral("replay of key test (%1), last 3 days, through route main").arg(keyId())),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("80 requests replayed")), qPrintable(run.out));
        // Cost actual and projected, with the change in percent.
        const QString cost = QStringLiteral("%1%2%3 (+%4%)")
                                 .arg(QStringLiteral("cost"), -12)
                                 .arg(usd(actual), 12)
                                 .arg(usd(projected), 12)
                                 .arg((projected - actual) / actual * 100, 0, 'f', 1);
        QVERIFY2(lines.contains(cost), qPrintable(cost + QStringLiteral("\n---\n") + run.out));
        const int servedActual = r.value(QLatin1String("actual")).toObject().value(QLatin1String("served")).toInt();
        QCOMPARE(servedActual, 77); // three requests found no sharer at the time
        QVERIFY2(lines.contains(QStringLiteral("%1%2%3")
                                    .arg(QStringLiteral("served"), -12)
                                    .arg(77, 12)
                                    .arg(r.value(QLatin1String("projected")).toObject().value(QLatin1String("served")).toInt(), 12)),
                 qPrintable(run.out));
        // The counts per target and per sharer, as the engine counted them.
        const QJsonObject perTarget = r.value(QLatin1String("perTarget")).toObject();
        QVERIFY(perTarget.contains(QStringLiteral("openai/gpt-5.5")));
        for (const char *table : {"perTarget", "perSharer"}) {
            const QJsonObject counts = r.value(QLatin1String(table)).toObject();
            QVERIFY(!counts.isEmpty());
            for (auto it = counts.begin(); it != counts.end(); ++it) {
                const QString row = QStringLiteral("%1%2%3")
                                        .arg(it.key(), -40)
                                        .arg(it.value()[QLatin1String("actual")].toInt(), 10)
                                        .arg(it.value()[QLatin1String("projected")].toInt(), 11);
                QVERIFY2(lines.contains(row), qPrintable(row + QStringLiteral("\n---\n") + run.out));
            }
        }
        QVERIFY(lines.contains(QStringLiteral("%1%2%3").arg(QStringLiteral("openai/gpt-5.5"), -40).arg(0, 10).arg(80, 11)));
        // The five requests that change most, each with what it was and what it would be.
        const QJsonArray top = r.value(QLatin1String("topChanges")).toArray();
        QCOMPARE(top.size(), 5);
        QVERIFY2(run.out.contains(QStringLiteral("changed most (%1 requests change):").arg(r.value(QLatin1String("changed")).toInt())),
                 qPrintable(run.out));
        for (const QJsonValue &v : top) {
            const QString id = v[QLatin1String("id")].toString();
            const int at =
                int(lines.indexOf(QRegularExpression(QStringLiteral("^  \\S+  main  ") + QRegularExpression::escape(id) + QLatin1Char('$'))));
            QVERIFY2(at > 0, qPrintable(id + QStringLiteral("\n---\n") + run.out));
            QVERIFY2(lines.at(at + 1).startsWith(QLatin1String("    was:   "))
                         && lines.at(at + 2).startsWith(QLatin1String("    would: openai/gpt-5.5 via ")),
                     qPrintable(run.out));
        }

        // --json prints the engine's own answer.
        const Run json = aile({QStringLiteral("--key"), QStringLiteral("test"), QStringLiteral("--body"), body, QStringLiteral("--days"),
                               QStringLiteral("3"), QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(json.out.toUtf8()).object().value(QLatin1String("projected")), r.value(QLatin1String("projected")));
    }

    void theSavedRouteReplaysAsItRan()
    {
        const Run run = aile(
            {QStringLiteral("--key"), keyId(), QStringLiteral("--route"), QStringLiteral("main"), QStringLiteral("--days"), QStringLiteral("3")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QLatin1String(", as saved\n")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QLatin1String("no sharer: 3")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("%1%2%3").arg(QStringLiteral("served"), -12).arg(77, 12).arg(77, 12)), qPrintable(run.out));
    }

    void badArgumentsGetAClearMessage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("no key") << QStringList{QStringLiteral("--route"), QStringLiteral("main")} << 2
                                << QStringLiteral("aile replay: say whose requests, e.g. aile replay --key laptop --body route.json\n");
        QTest::newRow("a route and a body") << QStringList{QStringLiteral("--key"), QStringLiteral("test"),   QStringLiteral("--route"),
                                                           QStringLiteral("main"),  QStringLiteral("--body"), QStringLiteral("route.json")}
                                            << 2
                                            << QStringLiteral(
                                                   "aile replay: give --route NAME (a saved route) or --body FILE (a route as edited), not both\n");
        QTest::newRow("days not a number") << QStringList{QStringLiteral("--key"), QStringLiteral("test"), QStringLiteral("--days"),
                                                          QStringLiteral("week")}
                                           << 2 << QStringLiteral("aile replay: --days takes a whole number of days, e.g. --days 7\n");
        QTest::newRow("a body file that is not there")
            << QStringList{QStringLiteral("--key"), QStringLiteral("test"), QStringLiteral("--body"), QStringLiteral("missing.json")} << 2
            << QStringLiteral("aile replay: missing.json cannot be read: No such file or directory\n");
        // Asked, and refused by the engine in its own words.
        QTest::newRow("too many days") << QStringList{QStringLiteral("--key"), QStringLiteral("test"), QStringLiteral("--days"),
                                                      QStringLiteral("400")}
                                       << 1 << QStringLiteral("from 1 to 90");
        QTest::newRow("unknown key") << QStringList{QStringLiteral("--key"), QStringLiteral("nobody")} << 1
                                     << QStringLiteral("aile replay: no key nobody");
        QTest::newRow("unknown route") << QStringList{QStringLiteral("--key"), QStringLiteral("test"), QStringLiteral("--route"),
                                                      QStringLiteral("nope")}
                                       << 1 << QStringLiteral("aile replay: key test has no route nope; GET /keys/");
    }

    void badArgumentsGetAClearMessage()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const Run run = aile(args);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
        if (exitCode == 2)
            QCOMPARE(run.err, message);
        else
            QVERIFY2(run.err.contains(message), qPrintable(run.err));
    }
};

QTEST_GUILESS_MAIN(TestReplayCli)
#include "TestReplayCli.moc"
