// SecretStore for real: a Secret Service of our own (gnome-keyring-daemon on a private
// dbus-run-session bus), no keychain at all, and the opted-in 0600 file.
//
// One binary, several roles, chosen by AILE_SECRETS_TEST_ROLE:
//   (unset)               TestSecretStore: references, the opt-in file, in this process; then it runs
//                         this binary again in each role below, in a throwaway HOME/XDG tree, and fails
//                         when the role fails or when the role's output (stdout and stderr: Qt's and
//                         GLib's messages alike) contains one of the test secrets.
//   secret-service        TestSecretService, under `dbus-run-session` with gnome-keyring-daemon
//                         unlocked as the Secret Service, checked from outside with secret-tool.
//   secret-service-thread TestSecretServiceThread: the same from a worker thread, as the engine does.
//   no-keychain           TestNoKeychain, with DBUS_SESSION_BUS_ADDRESS pointing nowhere, and again
//                         on a private bus that has no Secret Service.
//   hung-keychain         TestHungKeychain: a Secret Service that takes every call and never answers.
// Every role captures Qt's messages (debug included) and checks that no secret is among them.
// Needs: dbus (dbus-run-session), gnome-keyring, libsecret-tools (secret-tool); scripts/test.sh
// installs them.
#include "secrets/SecretStore.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDirIterator>
#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QMutex>
#include <QtCore/QProcess>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QtDBus/QDBusConnection>
#include <QtDBus/QDBusMessage>
#include <QtDBus/QDBusVirtualObject>
#include <QtTest/QtTest>

#include <atomic>

#include <sys/stat.h>
#include <unistd.h>

using namespace Aile::Secrets;

#include "SecretTestKit.h"

using namespace Aile::Secrets;
using namespace Aile::Test;

// =====================================================================================================
// The parent: in-process tests of references and the file, and the roles above in child processes.
// =====================================================================================================
class TestSecretStore : public QObject
{
    Q_OBJECT

    struct RoleRun
    {
        bool started = false;
        bool finished = false;
        int exitCode = -1;
        QByteArray output;
    };

    QProcessEnvironment roleEnvironment(const QString &root, const QString &role) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "GNOME_DESKTOP_SESSION_ID",
                                 "KDE_FULL_SESSION", "KDE_SESSION_VERSION", "DBUS_SESSION_BUS_ADDRESS", "GNOME_KEYRING_CONTROL", "SSH_AUTH_SOCK",
                                 "QT_LOGGING_RULES", "AILE_SECRETS_TEST_ROLE"})
            env.remove(QString::fromLatin1(name));
        const QStringList dirs{QStringLiteral("home"),  QStringLiteral("config"), QStringLiteral("data"),
                               QStringLiteral("cache"), QStringLiteral("state"),  QStringLiteral("runtime")};
        for (const QString &d : dirs)
            QDir().mkpath(root + QLatin1Char('/') + d);
        QFile::setPermissions(root + QStringLiteral("/runtime"), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        env.insert(QStringLiteral("HOME"), root + QStringLiteral("/home"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), root + QStringLiteral("/config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), root + QStringLiteral("/data"));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), root + QStringLiteral("/cache"));
        env.insert(QStringLiteral("XDG_STATE_HOME"), root + QStringLiteral("/state"));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), root + QStringLiteral("/runtime"));
        env.insert(QStringLiteral("AILE_SECRETS_TEST_ROLE"), role);
        env.insert(QStringLiteral("AILE_SECRETS_TEST_ROOT"), root);
        return env;
    }

    RoleRun runRole(const QString &program, const QStringList &args, const QProcessEnvironment &env, const QString &label)
    {
        RoleRun run;
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.setProcessEnvironment(env);
        p.start(program, args);
        run.started = p.waitForStarted(10000);
        if (run.started) {
            run.finished = p.waitForFinished(240000);
            if (!run.finished) {
                p.kill();
                p.waitForFinished(5000);
            }
        }
        run.output = p.readAll();
        run.exitCode = run.finished && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        // The role's own report, for the CTest log.
        std::fprintf(stdout, "----- %s -----\n%s----- end of %s (exit %d) -----\n", qPrintable(label), run.output.constData(), qPrintable(label),
                     run.exitCode);
        std::fflush(stdout);
        return run;
    }

    static QString secretsInOutput(const QByteArray &output)
    {
        const QStringList secrets = allSecrets();
        for (int i = 0; i < secrets.size(); ++i) {
            if (output.contains(secrets.at(i).toUtf8()) || output.contains(secrets.at(i).left(20).toUtf8()))
                return QStringLiteral("test secret #%1 appears in the output of the role").arg(i);
        }
        return {};
    }

    static QString missingTools(const QStringList &tools)
    {
        QStringList missing;
        for (const QString &t : tools) {
            if (QStandardPaths::findExecutable(t).isEmpty())
                missing << t;
        }
        if (missing.isEmpty())
            return {};
        return QStringLiteral("%1 not found: apt-get install dbus dbus-x11 gnome-keyring libsecret-tools (scripts/test.sh does)")
            .arg(missing.join(QStringLiteral(", ")));
    }

    void runUnderSecretService(const QString &role)
    {
        const QString missing =
            missingTools({QStringLiteral("dbus-run-session"), QStringLiteral("gnome-keyring-daemon"), QStringLiteral("secret-tool")});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        QTemporaryDir root;
        QVERIFY(root.isValid());
        // A private bus, a throwaway keyring in the run's own XDG_DATA_HOME, unlocked with a throwaway
        // password; --start makes that daemon own org.freedesktop.secrets before the role starts.
        const QString script =
            QStringLiteral("printf '%s' aile-test-keyring | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null || exit 71\n"
                           "gnome-keyring-daemon --start --components=secrets >/dev/null 2>&1 || exit 72\n"
                           "exec \"$1\"\n");
        const RoleRun run = runRole(
            QStringLiteral("dbus-run-session"),
            {QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), script, QStringLiteral("sh"), QCoreApplication::applicationFilePath()},
            roleEnvironment(root.path(), role), role);
        QVERIFY2(run.started, "dbus-run-session did not start");
        QVERIFY2(run.finished, "the role did not finish in time");
        QCOMPARE(run.exitCode, 0);
        const QString leak = secretsInOutput(run.output);
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
        QVERIFY2(run.output.contains("Totals:"), "the role did not run its tests");
    }

    QString m_dir;
    std::unique_ptr<QTemporaryDir> m_tmp;

private Q_SLOTS:
    void initTestCase() { installCapture(); }

    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
        m_dir = m_tmp->path();
    }

    void cleanup()
    {
        const QString leak = secretsInMessages();
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
        m_tmp.reset();
    }

    void theLeakChecksCatchALeak()
    {
        // The checks below are only worth something if they fire: a secret in a debug message, or in
        // a role's output, is caught (the message is then dropped again so this test passes).
        const qsizetype before = capturedMessageCount();
        qDebug() << "about to leak" << kSecretPasted;
        QVERIFY(!secretsInMessages().isEmpty());
        dropCapturedMessagesAfter(before);
        QVERIFY(secretsInMessages().isEmpty());
        QVERIFY(!secretsInOutput("PASS : x\nwarning: token " + kSecretOne.toUtf8() + " refused\n").isEmpty());
        QVERIFY(secretsInOutput("PASS : x\n").isEmpty());
    }

    // ---- references ---------------------------------------------------------------------------------

    void referencesParse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("scheme");
        QTest::addColumn<QString>("name");
        QTest::newRow("env") << "env:OPENAI_API_KEY" << true << int(Reference::Env) << "OPENAI_API_KEY";
        QTest::newRow("keychain") << "keychain:work key" << true << int(Reference::Keychain) << "work key";
        QTest::newRow("file") << "file:openai" << true << int(Reference::File) << "openai";
        QTest::newRow("colon in name") << "keychain:a:b" << true << int(Reference::Keychain) << "a:b";
        QTest::newRow("pasted secret") << kSecretPasted << false << 0 << "";
        QTest::newRow("no name") << "keychain:" << false << 0 << "";
        QTest::newRow("unknown scheme") << "vault:x" << false << 0 << "";
        QTest::newRow("env with dash") << "env:sk-abc" << false << 0 << "";
        QTest::newRow("control char") << "keychain:a\nb" << false << 0 << "";
        QTest::newRow("upper-case scheme") << "Keychain:x" << false << 0 << "";
    }

    void referencesParse()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(int, scheme);
        QFETCH(QString, name);
        const auto ref = Reference::parse(text);
        QCOMPARE(bool(ref), valid);
        if (ref) {
            QCOMPARE(int(ref->scheme), scheme);
            QCOMPARE(ref->name, name);
            QCOMPARE(ref->toString(), text);
        }
    }

    void aPastedSecretIsNeverEchoed()
    {
        // A secret pasted where a reference belongs: every operation refuses it without quoting it.
        SecretStore store(defaultServiceName(), m_dir + QStringLiteral("/secrets.json"));
        const QString pasted[] = {kSecretPasted, QStringLiteral("env:") + kSecretPasted, QStringLiteral("vault:") + kSecretPasted};
        for (const QString &text : pasted) {
            const Outcome r = readNow(store, text);
            QVERIFY(r.answered);
            QCOMPARE(r.error.kind(), SecretError::InvalidRequest);
            QVERIFY(!mentionsSecret(r.error));
            const Outcome w = writeNow(store, text, kSecretOne);
            QCOMPARE(w.error.kind(), SecretError::InvalidRequest);
            QVERIFY(!mentionsSecret(w.error));
            QCOMPARE(removeNow(store, text).error.kind(), SecretError::InvalidRequest);
        }
        QVERIFY(filesUnder(m_dir).isEmpty());
    }

    void envReferencesAreReadOnly()
    {
        SecretStore store(defaultServiceName(), {});
        qputenv("AILE_SECRETS_TEST_ENV", kSecretOne.toUtf8());
        const Outcome r = readNow(store, QStringLiteral("env:AILE_SECRETS_TEST_ENV"));
        QVERIFY(r.secret == kSecretOne);
        QVERIFY(!r.error.isError());
        qunsetenv("AILE_SECRETS_TEST_ENV");
        const Outcome gone = readNow(store, QStringLiteral("env:AILE_SECRETS_TEST_ENV"));
        QCOMPARE(gone.error.kind(), SecretError::NotFound);
        QCOMPARE(gone.error.message(), QStringLiteral("the environment variable AILE_SECRETS_TEST_ENV is not set"));
        const Outcome w = writeNow(store, QStringLiteral("env:AILE_SECRETS_TEST_ENV"), kSecretOne);
        QCOMPARE(w.error.kind(), SecretError::InvalidRequest);
        QVERIFY(!mentionsSecret(w.error));
        QVERIFY(qEnvironmentVariableIsEmpty("AILE_SECRETS_TEST_ENV"));
        QVERIFY(!removeNow(store, QStringLiteral("env:AILE_SECRETS_TEST_ENV")).error.isError());
    }

    void emptySecretsAreNotStored()
    {
        SecretStore store(defaultServiceName(), m_dir + QStringLiteral("/secrets.json"));
        QCOMPARE(writeNow(store, QStringLiteral("file:x"), QString()).error.kind(), SecretError::InvalidRequest);
        QCOMPARE(writeNow(store, QStringLiteral("keychain:x"), QString()).error.kind(), SecretError::InvalidRequest);
        QVERIFY(filesUnder(m_dir).isEmpty());
    }

    // ---- the opted-in file --------------------------------------------------------------------------

    void fileRefusedUnlessOptedIn()
    {
        SecretStore store(defaultServiceName(), {});
        const Outcome w = writeNow(store, QStringLiteral("file:openai"), kSecretFile);
        QCOMPARE(w.error.kind(), SecretError::NotOptedIn);
        QVERIFY(!mentionsSecret(w.error));
        QCOMPARE(readNow(store, QStringLiteral("file:openai")).error.kind(), SecretError::NotOptedIn);
        // Opting in later, then out again.
        store.setFileFallbackPath(m_dir + QStringLiteral("/secrets.json"));
        QVERIFY(!writeNow(store, QStringLiteral("file:openai"), kSecretFile).error.isError());
        store.setFileFallbackPath({});
        QCOMPARE(readNow(store, QStringLiteral("file:openai")).error.kind(), SecretError::NotOptedIn);
    }

    void fileRoundTripKeepsOtherEntries()
    {
        const QString path = m_dir + QStringLiteral("/secrets.json");
        SecretStore store(defaultServiceName(), path);
        // Reading or removing before anything was written creates nothing.
        QCOMPARE(readNow(store, QStringLiteral("file:openai")).error.kind(), SecretError::NotFound);
        QVERIFY(!removeNow(store, QStringLiteral("file:openai")).error.isError());
        QVERIFY(filesUnder(m_dir).isEmpty());

        QVERIFY(!writeNow(store, QStringLiteral("file:openai"), kSecretFile).error.isError());
        QVERIFY(!writeNow(store, QStringLiteral("file:claude"), kSecretFileTwo).error.isError());
        QCOMPARE(fileMode(path), 0600);
        QVERIFY(readNow(store, QStringLiteral("file:openai")).secret == kSecretFile);
        QVERIFY(readNow(store, QStringLiteral("file:claude")).secret == kSecretFileTwo);

        // The file says what it is.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QVERIFY(root.value(QLatin1String("about")).toString().contains(QLatin1String("plain text")));
        QCOMPARE(root.value(QLatin1String("secrets")).toObject().keys(), (QStringList{QStringLiteral("claude"), QStringLiteral("openai")}));

        // Overwrite one; remove it; the other stays.
        QVERIFY(!writeNow(store, QStringLiteral("file:openai"), kSecretOne).error.isError());
        QVERIFY(readNow(store, QStringLiteral("file:openai")).secret == kSecretOne);
        QVERIFY(!removeNow(store, QStringLiteral("file:openai")).error.isError());
        const Outcome gone = readNow(store, QStringLiteral("file:openai"));
        QCOMPARE(gone.error.kind(), SecretError::NotFound);
        QVERIFY(readNow(store, QStringLiteral("file:claude")).secret == kSecretFileTwo);
        QCOMPARE(fileMode(path), 0600);
        QCOMPARE(filesUnder(m_dir), QStringList{QStringLiteral("secrets.json")}); // no lock or temporary file left
    }

    void fileIsPrivateFromItsCreation()
    {
        // The umask race: a file created with the default mode (0666 minus the umask) and chmod-ed
        // afterwards is readable by others for an instant, long enough for another process to open
        // it and keep the descriptor. The store's temporary file must be born without group or
        // other bits whatever the umask, and the file in place must end up exactly 0600.
        const QString path = m_dir + QStringLiteral("/secrets.json");
        SecretStore store(defaultServiceName(), path);
        g_bornModes.clear();
        Aile::Secrets::detail::privateFileCreatedHook = &recordBornMode;
        const mode_t oldMask = ::umask(0);
        const Outcome open = writeNow(store, QStringLiteral("file:openai"), kSecretFile);
        ::umask(0277); // owner read only: the file must still come out 0600, and stay writable
        const Outcome strict = writeNow(store, QStringLiteral("file:claude"), kSecretFileTwo);
        ::umask(oldMask);
        Aile::Secrets::detail::privateFileCreatedHook = nullptr;
        QVERIFY2(!open.error.isError(), qPrintable(describe(open.error)));
        QVERIFY2(!strict.error.isError(), qPrintable(describe(strict.error)));
        QCOMPARE(g_bornModes.size(), 2);
        QCOMPARE(g_bornModes.at(0), 0600); // umask 0: not 0666
        QCOMPARE(g_bornModes.at(1), 0400); // umask 0277: 0600 minus the umask, then set to 0600
        QCOMPARE(fileMode(path), 0600);
        QVERIFY(readNow(store, QStringLiteral("file:openai")).secret == kSecretFile);
        QVERIFY(readNow(store, QStringLiteral("file:claude")).secret == kSecretFileTwo);
        QCOMPARE(filesUnder(m_dir), QStringList{QStringLiteral("secrets.json")});
    }

    void fileReadableByOthersIsNotUsedUntilRewritten()
    {
        const QString path = m_dir + QStringLiteral("/secrets.json");
        SecretStore store(defaultServiceName(), path);
        QVERIFY(!writeNow(store, QStringLiteral("file:openai"), kSecretFile).error.isError());
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
        QCOMPARE(fileMode(path), 0644);
        const Outcome r = readNow(store, QStringLiteral("file:openai"));
        QCOMPARE(r.error.kind(), SecretError::UnsafeFile);
        QVERIFY(r.secret.isEmpty());
        QVERIFY(r.error.message().contains(QLatin1String("0644")));
        QVERIFY(!mentionsSecret(r.error));
        // Storing a secret again rewrites it 0600, the other entries kept.
        QVERIFY(!writeNow(store, QStringLiteral("file:claude"), kSecretFileTwo).error.isError());
        QCOMPARE(fileMode(path), 0600);
        QVERIFY(readNow(store, QStringLiteral("file:openai")).secret == kSecretFile);
    }

    void fileThatIsNotJsonIsNeverOverwritten()
    {
        const QString path = m_dir + QStringLiteral("/secrets.json");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"secrets\": {\"openai\": \"" + kSecretFile.toUtf8() + "\"  oops");
            f.close();
            QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        }
        const QByteArray before = [&] {
            QFile f(path);
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }();
        SecretStore store(defaultServiceName(), path);
        const Outcome w = writeNow(store, QStringLiteral("file:claude"), kSecretFileTwo);
        QCOMPARE(w.error.kind(), SecretError::Failed);
        QVERIFY(!mentionsSecret(w.error)); // the parser's message gives an offset, not the text
        const Outcome r = readNow(store, QStringLiteral("file:openai"));
        QCOMPARE(r.error.kind(), SecretError::Failed);
        QVERIFY(!mentionsSecret(r.error));
        const QByteArray after = [&] {
            QFile f(path);
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }();
        QCOMPARE(after, before);
    }

    void fileFolderMustExist()
    {
        SecretStore store(defaultServiceName(), m_dir + QStringLiteral("/missing/secrets.json"));
        const Outcome w = writeNow(store, QStringLiteral("file:x"), kSecretFile);
        QCOMPARE(w.error.kind(), SecretError::Failed);
        QVERIFY(filesUnder(m_dir).isEmpty());
    }

    void errorsConvertToTheirMessage()
    {
        // Callers written against the older callbacks take the error as a QString.
        SecretStore store(defaultServiceName(), {});
        QString asText;
        store.read(QStringLiteral("file:x"), [&](const QString &, const QString &error) { asText = error; });
        QVERIFY(asText.startsWith(QLatin1String("the plain-text secrets file is not enabled")));
        QString ok = QStringLiteral("unset");
        store.remove(QStringLiteral("env:X"), [&](const QString &error) { ok = error; });
        QVERIFY(ok.isEmpty());
    }

    // ---- the roles, each in its own process and environment -----------------------------------------

    void realSecretService() { runUnderSecretService(QStringLiteral("secret-service")); }

    void realSecretServiceFromAWorkerThread() { runUnderSecretService(QStringLiteral("secret-service-thread")); }

    void noSessionBus()
    {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        QProcessEnvironment env = roleEnvironment(root.path(), QStringLiteral("no-keychain"));
        env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=/nonexistent/aile-no-bus"));
        const RoleRun run = runRole(QCoreApplication::applicationFilePath(), {}, env, QStringLiteral("no-keychain (no session bus)"));
        QVERIFY(run.started && run.finished);
        QCOMPARE(run.exitCode, 0);
        const QString leak = secretsInOutput(run.output);
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
        QVERIFY2(run.output.contains("Totals:"), "the role did not run its tests");
    }

    void sessionBusWithoutSecretService()
    {
        runOnBareBus(QStringLiteral("no-keychain"), QStringLiteral("no-keychain (a bus without a Secret Service)"));
    }

    void secretServiceThatNeverAnswers() { runOnBareBus(QStringLiteral("hung-keychain"), QStringLiteral("hung-keychain")); }

    void cleanupTestCase()
    {
        const QString leak = secretsInMessages();
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
    }

private:
    void runOnBareBus(const QString &role, const QString &label)
    {
        const QString missing = missingTools({QStringLiteral("dbus-run-session")});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        QTemporaryDir root;
        QTemporaryDir conf; // outside the role's tree, which must stay empty
        QVERIFY(root.isValid() && conf.isValid());
        // A session bus that can start no service at all: no <servicedir>, so nothing answers as
        // org.freedesktop.secrets even where gnome-keyring is installed.
        const QString config = conf.filePath(QStringLiteral("session.conf"));
        {
            QFile f(config);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
                    " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                    "<busconfig>\n"
                    "  <type>session</type>\n"
                    "  <listen>unix:tmpdir=/tmp</listen>\n"
                    "  <auth>EXTERNAL</auth>\n"
                    "  <policy context=\"default\">\n"
                    "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
                    "    <allow eavesdrop=\"true\"/>\n"
                    "    <allow own=\"*\"/>\n"
                    "  </policy>\n"
                    "</busconfig>\n");
        }
        const RoleRun run = runRole(QStringLiteral("dbus-run-session"),
                                    {QStringLiteral("--config-file=") + config, QStringLiteral("--"), QCoreApplication::applicationFilePath()},
                                    roleEnvironment(root.path(), role), label);
        QVERIFY(run.started && run.finished);
        QCOMPARE(run.exitCode, 0);
        const QString leak = secretsInOutput(run.output);
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
        QVERIFY2(run.output.contains("Totals:"), "the role did not run its tests");
    }
};

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (const int rc = runSecretsRole(qgetenv("AILE_SECRETS_TEST_ROLE"), argc, argv); rc != -1)
        return rc;
    TestSecretStore t;
    return QTest::qExec(&t, argc, argv);
}

#include "TestSecretStore.moc"
