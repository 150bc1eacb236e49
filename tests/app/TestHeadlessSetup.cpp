// The headless path of docs/getting-started.md: `aile serve` with no configuration file, then only
// `aile` commands (sharers add, keys create, keys routing, connect) until a request is answered
// through the fake upstream; the admin token the engine made and the CLI found by itself; the
// log lines on stderr.
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <sys/stat.h>

using namespace Aile;
using namespace Aile::Test;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

// An environment of its own: the data folder comes from XDG_DATA_HOME (as on a fresh account), no
// admin token in the environment, and no session bus, so no real keychain is touched.
QProcessEnvironment isolated(const QString &root)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), root + QStringLiteral("/xdg-data"));
    env.insert(QStringLiteral("XDG_STATE_HOME"), root + QStringLiteral("/xdg-state"));
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=/nonexistent/aile-no-bus"));
    env.remove(QStringLiteral("AILE_ADMIN_TOKEN"));
    env.remove(QStringLiteral("AILE_URL"));
    env.remove(QStringLiteral("AILE_KEY"));
    env.remove(QStringLiteral("QT_LOGGING_RULES"));
    return env;
}

Run aile(const QProcessEnvironment &env, const QStringList &args, const QByteArray &stdinBytes = {})
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(AILE_BIN), args);
    Run r;
    if (!p.waitForStarted())
        return r;
    p.write(stdinBytes);
    p.closeWriteChannel();
    if (!QTest::qWaitFor([&] { return p.state() == QProcess::NotRunning; }, 30000)) {
        p.kill();
        p.waitForFinished();
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// `aile serve` on a free port; returns its base URL once it listens.
QString serve(QProcess &server, const QProcessEnvironment &env, const QStringList &extra = {})
{
    server.setProcessEnvironment(env);
    server.setProcessChannelMode(QProcess::SeparateChannels);
    server.start(QStringLiteral(AILE_BIN), QStringList{QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")} + extra);
    if (!server.waitForStarted())
        return {};
    QByteArray out;
    if (!QTest::qWaitFor([&] { return (out += server.readAllStandardOutput()).contains("listening on 127.0.0.1:"); }, 15000))
        return {};
    const QByteArray line = out.mid(out.indexOf("listening on 127.0.0.1:") + 23);
    return QStringLiteral("http://127.0.0.1:%1").arg(line.left(line.indexOf('\n')).toInt());
}

QString stopAndReadErr(QProcess &server)
{
    server.terminate();
    server.waitForFinished(15000);
    return QString::fromUtf8(server.readAllStandardError());
}

} // namespace

class TestHeadlessSetup : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fromNothingToAnAnswerWithOnlyAileCommands()
    {
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        QTemporaryDir root;
        const QProcessEnvironment env = isolated(root.path());
        const QString dataDir = root.path() + QStringLiteral("/xdg-data/aile");
        const QString secretsFile = root.filePath(QStringLiteral("secrets.json"));

        QProcess server;
        const QString base = serve(server, env, {QStringLiteral("--secrets-file"), secretsFile});
        QVERIFY(!base.isEmpty());
        const QStringList url{QStringLiteral("--url"), base};

        // The engine made an admin token, readable only by this user, where the CLI looks.
        const QString tokenFile = dataDir + QStringLiteral("/admin-token");
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(tokenFile), 5000);
        struct stat st
        {
        };
        QCOMPARE(::stat(QFile::encodeName(tokenFile).constData(), &st), 0);
        QCOMPARE(int(st.st_mode & 0777), 0600);

        // No configuration file, no token on any command line: the CLI finds it by itself.
        const QString upstreamSecret = QStringLiteral("sk-upstream-not-in-any-log");
        Run r = aile(env,
                     QStringList{QStringLiteral("sharers"), QStringLiteral("add"), QStringLiteral("openai"), QStringLiteral("--name"),
                                 QStringLiteral("my openai key"), QStringLiteral("--base-url"), upstream.baseUrl(), QStringLiteral("--models"),
                                 QStringLiteral("gpt-5.2"), QStringLiteral("--credential"), QStringLiteral("file:x"), QStringLiteral("--secret-file"),
                                 QStringLiteral("-")}
                         + url,
                     upstreamSecret.toUtf8() + '\n');
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.startsWith(QLatin1String("added L")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("credential stored as file:aile-sharer-")), qPrintable(r.out));

        r = aile(env, QStringList{QStringLiteral("keys"), QStringLiteral("create"), QStringLiteral("laptop")} + url);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString key = r.out.section(QLatin1Char('\n'), 1, 1).trimmed();
        QVERIFY2(key.startsWith(QLatin1String("sk-aile-")), qPrintable(r.out));

        r = aile(env, QStringList{QStringLiteral("keys"), QStringLiteral("routing"), QStringLiteral("laptop"), QStringLiteral("maxCostUsd=0.5"),
                                  QStringLiteral("dataCollection=allow")}
                          + url);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject routing = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(routing.value(QLatin1String("maxCostUsd")).toDouble(), 0.5);
        QCOMPARE(routing.value(QLatin1String("dataCollection")).toString(), QStringLiteral("allow"));

        // Connect a tool prints the dialog's settings, with a model the sharer offers: for Codex
        // too (openai speaks the Responses wire), never the codex subscription's gpt-5.5.
        r = aile(env, QStringList{QStringLiteral("connect"), QStringLiteral("openai-sdk"), QStringLiteral("--key-file"), QStringLiteral("-")} + url,
                 key.toUtf8());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("export OPENAI_BASE_URL=%1/v1\n").arg(base)), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("export OPENAI_API_KEY='%1'").arg(key)), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("model=\"openai/gpt-5.2\"")), qPrintable(r.out));
        r = aile(env, QStringList{QStringLiteral("connect"), QStringLiteral("codex")} + url);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("model = \"openai/gpt-5.2\"")), qPrintable(r.out));
        QVERIFY(!r.out.contains(QLatin1String("gpt-5.5")));
        // --own-login: Codex keeps its ChatGPT login, the key goes in x-aile-key (docs/subscriptions.md).
        r = aile(env, QStringList{QStringLiteral("connect"), QStringLiteral("codex"), QStringLiteral("--own-login")} + url);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("requires_openai_auth = true")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QLatin1String("x-aile-key")), qPrintable(r.out));
        r = aile(env, QStringList{QStringLiteral("connect"), QStringLiteral("openai-sdk"), QStringLiteral("--own-login")} + url);
        QCOMPARE(r.exitCode, 2); // the SDKs have no login of their own
        QVERIFY2(r.err.contains(QLatin1String("--own-login is for claude-code and codex")), qPrintable(r.err));
        r = aile(env, QStringList{QStringLiteral("connect"), QStringLiteral("claude-code")} + url);
        QCOMPARE(r.exitCode, 1); // no sharer speaks the messages wire: said, and no snippet
        QVERIFY2(r.err.contains(QLatin1String("No sharer can serve Claude Code yet")), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());

        // The request the printed settings make, answered through the fake upstream.
        const QByteArray body = R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}]})";
        const Reply answer =
            send(QStringLiteral("POST"), base + QStringLiteral("/v1/chat/completions"), body, {{"authorization", "Bearer " + key.toUtf8()}});
        QCOMPARE(answer.status, 200);
        QCOMPARE(upstream.received().size(), 1);
        QCOMPARE(FakeUpstream::credentialOf(upstream.received().first()), upstreamSecret.toUtf8());

        // Once the trace is recorded, stopping writes its access line (what is pending is published at stop).
        QTRY_VERIFY_WITH_TIMEOUT(
            aile(env, QStringList{QStringLiteral("traces"), QStringLiteral("--json")} + url).out.contains(QLatin1String("\"status\":200")), 5000);
        const QString log = stopAndReadErr(server);
        QVERIFY2(log.contains(QStringLiteral("aile.engine: admin token: created in %1").arg(tokenFile)), qPrintable(log));
        QVERIFY2(log.contains(QLatin1String("aile.engine: starting; data in")), qPrintable(log));
        // The malloc the build links (cmake/Allocator.cmake) is the one the process runs on.
        QVERIFY2(log.contains(QLatin1String(qstrcmp(AILE_MALLOC, "jemalloc") == 0 ? "aile.engine: memory allocator: jemalloc 5."
                                                                                  : "aile.engine: memory allocator: the C library's malloc")),
                 qPrintable(log));
        QVERIFY2(log.contains(QLatin1String("aile.engine: listening on 127.0.0.1:")), qPrintable(log));
        QVERIFY2(log.contains(QLatin1String("INFO    aile.access: id=")), qPrintable(log));
        QVERIFY2(log.contains(QLatin1String("key=laptop endpoint=/v1/chat/completions asked=openai/gpt-5.2 served=openai/gpt-5.2 "
                                            "sharer=\"my openai key\" status=200 attempts=1 ms=")),
                 qPrintable(log));
        QVERIFY2(log.contains(QLatin1String("aile.engine: stopped")), qPrintable(log));
        // Never a secret or a prompt.
        QVERIFY(!log.contains(key));
        QVERIFY(!log.contains(upstreamSecret));
        QVERIFY(!log.contains(QLatin1String("\"hi\"")));

        // A second start finds the token it made, and says so.
        QProcess again;
        const QString base2 = serve(again, env);
        QVERIFY(!base2.isEmpty());
        r = aile(env, QStringList{QStringLiteral("keys"), QStringLiteral("--url"), base2});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QLatin1String("laptop")), qPrintable(r.err + r.out));
        const QString second = stopAndReadErr(again);
        QVERIFY2(second.contains(QStringLiteral("admin token: in %1").arg(tokenFile)), qPrintable(second));
    }

    // aile serve with the real keychain (gnome-keyring on the test session's bus, scripts/test.sh):
    // the secret `aile sharers add` hands over is stored there and read back for the request. Its
    // answers arrive through GLib's loop (libsecret), so a process whose loop is not GLib's never
    // sees them and the command times out (docs/performance.md, "Tried and dropped"); the epoll
    // loop runs GLib's context inside it (test_headless_setup_qt runs this case on Qt's own loop).
    void aSharersSecretGoesThroughTheRealKeychain()
    {
        if (!qEnvironmentVariableIsSet("AILE_TEST_SECRET_SERVICE"))
            QSKIP("no unlocked Secret Service on this session bus (scripts/test.sh starts one)");
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        QTemporaryDir root;
        QProcessEnvironment env = isolated(root.path());
        env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), qEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS"));
        QProcess server;
        const QString base = serve(server, env);
        QVERIFY(!base.isEmpty());
        const QStringList url{QStringLiteral("--url"), base};
        const QString upstreamSecret = QStringLiteral("sk-keychain-held-%1").arg(QCoreApplication::applicationPid());
        Run r = aile(env,
                     QStringList{QStringLiteral("sharers"), QStringLiteral("add"), QStringLiteral("openai"), QStringLiteral("--name"),
                                 QStringLiteral("in the keychain"), QStringLiteral("--base-url"), upstream.baseUrl(), QStringLiteral("--models"),
                                 QStringLiteral("gpt-5.2"), QStringLiteral("--secret-file"), QStringLiteral("-")}
                         + url,
                     upstreamSecret.toUtf8() + '\n');
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains(QLatin1String("credential stored as keychain:aile-sharer-")), qPrintable(r.out));
        r = aile(env, QStringList{QStringLiteral("keys"), QStringLiteral("create"), QStringLiteral("kc")} + url);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString key = r.out.section(QLatin1Char('\n'), 1, 1).trimmed();
        const Reply answer =
            send(QStringLiteral("POST"), base + QStringLiteral("/v1/chat/completions"),
                 R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}]})", {{"authorization", "Bearer " + key.toUtf8()}});
        QCOMPARE(answer.status, 200);
        QCOMPARE(upstream.received().size(), 1);
        QCOMPARE(FakeUpstream::credentialOf(upstream.received().first()), upstreamSecret.toUtf8());
        const QString log = stopAndReadErr(server);
        QVERIFY(!log.contains(upstreamSecret));
    }

    void theEnvironmentsTokenWinsAndJsonLogsCarryFields()
    {
        FakeUpstream upstream;
        QVERIFY(upstream.listen());
        QTemporaryDir root;
        QProcessEnvironment env = isolated(root.path());
        env.insert(QStringLiteral("AILE_ADMIN_TOKEN"), QStringLiteral("from-the-environment"));
        QProcess server;
        const QString base = serve(server, env, {QStringLiteral("--log-format"), QStringLiteral("json")});
        QVERIFY(!base.isEmpty());
        const QStringList url{QStringLiteral("--url"), base};
        QVERIFY(!QFile::exists(root.path() + QStringLiteral("/xdg-data/aile/admin-token")));
        // The CLI with the same environment gets in; a wrong token from a file is refused, naming its source.
        Run r = aile(env, QStringList{QStringLiteral("keys"), QStringLiteral("create"), QStringLiteral("ci")} + url);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString key = r.out.section(QLatin1Char('\n'), 1, 1).trimmed();
        r = aile(env, QStringList{QStringLiteral("keys"), QStringLiteral("--admin-token-file"), QStringLiteral("-")} + url, "wrong\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("refused the admin token from stdin")), qPrintable(r.err));
        r = aile(env, QStringList{QStringLiteral("sharers"), QStringLiteral("add"), QStringLiteral("openai"), QStringLiteral("--base-url"),
                                  upstream.baseUrl(), QStringLiteral("--models"), QStringLiteral("gpt-5.2"), QStringLiteral("--credential"),
                                  QStringLiteral("env:AILE_TEST_HEADLESS_KEY")}
                          + url);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const Reply answer =
            send(QStringLiteral("POST"), base + QStringLiteral("/v1/chat/completions"),
                 R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}]})", {{"authorization", "Bearer " + key.toUtf8()}});
        QCOMPARE(answer.status, 503); // the variable is not set in the engine's environment: nothing can serve
        QTRY_VERIFY_WITH_TIMEOUT(
            aile(env, QStringList{QStringLiteral("traces"), QStringLiteral("--json")} + url).out.contains(QLatin1String("\"status\":503")), 5000);
        const QStringList lines = stopAndReadErr(server).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        bool sawToken = false, sawAccess = false;
        for (const QString &line : lines) {
            const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
            QVERIFY2(!o.isEmpty(), qPrintable(QStringLiteral("not a JSON line: ") + line));
            QVERIFY(o.contains(QLatin1String("time")) && o.contains(QLatin1String("level")));
            if (o.value(QLatin1String("message")).toString() == QLatin1String("admin token: from $AILE_ADMIN_TOKEN"))
                sawToken = true;
            if (o.value(QLatin1String("category")).toString() == QLatin1String("aile.access")) {
                sawAccess = true;
                QCOMPARE(o.value(QLatin1String("key")).toString(), QStringLiteral("ci"));
                QCOMPARE(o.value(QLatin1String("status")).toInt(), 503);
                QCOMPARE(o.value(QLatin1String("asked")).toString(), QStringLiteral("openai/gpt-5.2"));
            }
        }
        QVERIFY(sawToken);
        QVERIFY(sawAccess);
    }

    void theAdminTokenIsNeverTakenOnTheCommandLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("traces") << QStringList{QStringLiteral("traces")};
        QTest::newRow("keys create") << QStringList{QStringLiteral("keys"), QStringLiteral("create"), QStringLiteral("x")};
        QTest::newRow("sharers add") << QStringList{QStringLiteral("sharers"), QStringLiteral("add"), QStringLiteral("openai"),
                                                    QStringLiteral("--credential"), QStringLiteral("env:X")};
        QTest::newRow("connect") << QStringList{QStringLiteral("connect"), QStringLiteral("codex")};
    }

    void theAdminTokenIsNeverTakenOnTheCommandLine()
    {
        QFETCH(QStringList, args);
        QTemporaryDir root;
        const Run r = aile(isolated(root.path()), args
                                                      + QStringList{QStringLiteral("--admin-token"), QStringLiteral("visible-in-ps"),
                                                                    QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:9")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QLatin1String("--admin-token is not taken")) && r.err.contains(QLatin1String("--admin-token-file FILE"))
                     && r.err.contains(QLatin1String("$AILE_ADMIN_TOKEN")),
                 qPrintable(r.err));
    }
};

QTEST_MAIN(TestHeadlessSetup)
#include "TestHeadlessSetup.moc"
