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

namespace {

// Every secret any role stores. The parent checks each role's whole output for all of them.
const QString kSecretOne = QStringLiteral("sk-aile-test-5f0c2d1e-first-SECRET");
const QString kSecretTwo = QStringLiteral("sk-aile-test-9a7b3c4d-second-SECRET");
const QString kSecretExternal = QStringLiteral("sk-aile-test-external-1b2c-SECRET");
const QString kSecretUnicode = QStringLiteral("p\u00e2t\u00e9-\u00df-\u2603-aile-test-SECRET-") + QString(3000, QLatin1Char('x'));
const QString kSecretFile = QStringLiteral("sk-aile-test-file-77aa-SECRET");
const QString kSecretFileTwo = QStringLiteral("sk-aile-test-file-88bb-SECRET");
const QString kSecretThread = QStringLiteral("sk-aile-test-thread-4e4e-SECRET");
const QString kSecretPasted = QStringLiteral("sk-aile-test-pasted-0d0d-SECRET");

QStringList allSecrets()
{
    return {kSecretOne, kSecretTwo, kSecretExternal, kSecretUnicode, kSecretFile, kSecretFileTwo, kSecretThread,
            kSecretPasted};
}

// ---- Qt messages: every one is kept (debug included) and searched for secrets --------------------

QMutex g_messagesLock;
QStringList g_messages;
QtMessageHandler g_previousHandler = nullptr;

void captureMessage(QtMsgType type, const QMessageLogContext &context, const QString &text)
{
    {
        QMutexLocker lock(&g_messagesLock);
        g_messages.append(QStringLiteral("%1: %2").arg(QString::fromLatin1(context.category ? context.category : "default"), text));
    }
    if (type != QtDebugMsg && g_previousHandler)
        g_previousHandler(type, context, text);
}

void installCapture()
{
    QLoggingCategory::setFilterRules(QStringLiteral("*.debug=true"));
    g_previousHandler = qInstallMessageHandler(captureMessage);
}

/// Empty when no captured message holds a secret; otherwise which secret and where (never the value).
QString secretsInMessages()
{
    QMutexLocker lock(&g_messagesLock);
    for (const QString &m : std::as_const(g_messages)) {
        const QStringList secrets = allSecrets();
        for (int i = 0; i < secrets.size(); ++i) {
            if (m.contains(secrets.at(i)) || m.contains(secrets.at(i).left(20)))
                return QStringLiteral("test secret #%1 appeared in a Qt message").arg(i);
        }
    }
    return {};
}

// ---- waiting for the store's callbacks --------------------------------------------------------------

struct Outcome
{
    bool answered = false;
    QString secret;
    SecretError error;
};

Outcome waitFor(const std::function<void(std::function<void(const QString &, const SecretError &)>)> &start,
                int timeoutMs = 60000)
{
    Outcome out;
    QEventLoop loop;
    start([&](const QString &secret, const SecretError &error) {
        out.answered = true;
        out.secret = secret;
        out.error = error;
        loop.quit();
    });
    if (!out.answered) {
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return out;
}

Outcome readNow(SecretStore &s, const QString &ref)
{
    return waitFor([&](auto cb) { s.read(ref, cb); });
}

Outcome writeNow(SecretStore &s, const QString &ref, const QString &secret)
{
    return waitFor([&](auto cb) { s.write(ref, secret, [cb](const SecretError &e) { cb({}, e); }); });
}

Outcome removeNow(SecretStore &s, const QString &ref)
{
    return waitFor([&](auto cb) { s.remove(ref, [cb](const SecretError &e) { cb({}, e); }); });
}

struct ProbeOutcome
{
    bool answered = false;
    KeychainStatus status;
};

ProbeOutcome probeNow(SecretStore &s, SecretStore::ProbeMode mode)
{
    ProbeOutcome out;
    QEventLoop loop;
    s.probeKeychain([&](const KeychainStatus &st) {
        out.answered = true;
        out.status = st;
        loop.quit();
    }, mode);
    if (!out.answered) {
        QTimer::singleShot(60000, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return out;
}

QString describe(const SecretError &e)
{
    return QStringLiteral("kind %1: %2 [%3]").arg(int(e.kind())).arg(e.message(), e.detail());
}

bool mentionsSecret(const SecretError &e)
{
    for (const QString &s : allSecrets()) {
        if (e.message().contains(s) || e.detail().contains(s))
            return true;
    }
    return false;
}

int fileMode(const QString &path)
{
    struct stat st {};
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

/// Every file (not folder) under `root`, hidden ones included, relative to it.
QStringList filesUnder(const QString &root)
{
    QStringList files;
    QDirIterator it(root, QDir::Files | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(QDir(root).relativeFilePath(it.next()));
    files.sort();
    return files;
}

QJsonObject fileSecrets(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("secrets")).toObject();
}

struct ToolResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

ToolResult secretTool(const QStringList &args, const QByteArray &input = {})
{
    ToolResult r;
    QProcess p;
    p.start(QStringLiteral("secret-tool"), args);
    if (!p.waitForStarted(10000))
        return r;
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

/// secret-tool's view of one entry the app stored: lookup by QtKeychain's attributes
/// (server = the service name, user = the entry name).
ToolResult lookupWithSecretTool(const QString &name)
{
    return secretTool({QStringLiteral("lookup"), QStringLiteral("server"), defaultServiceName(), QStringLiteral("user"), name});
}

// The mode each temporary secrets file had when it was created (see the seam in SecretStore.cpp).
QList<int> g_bornModes;
void recordBornMode(const char *path)
{
    struct stat st {};
    g_bornModes.append(::lstat(path, &st) == 0 ? int(st.st_mode & 07777) : -1);
}

} // namespace

namespace Aile::Secrets::detail {
extern void (*privateFileCreatedHook)(const char *path);
}

// =====================================================================================================
// Role "secret-service": a real Secret Service on a private bus (the parent started it).
// =====================================================================================================
class TestSecretService : public QObject
{
    Q_OBJECT
    SecretStore *m_store = nullptr;

private Q_SLOTS:
    void initTestCase()
    {
        installCapture();
        QVERIFY2(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"), "run by the parent test under dbus-run-session");
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("secret-tool")).isEmpty(),
                 "secret-tool is missing: apt-get install libsecret-tools");
        m_store = new SecretStore(defaultServiceName(), {}, this);
        m_store->setOperationTimeout(30000);
    }

    void cleanup()
    {
        const QString leak = secretsInMessages();
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
    }

    void probeFindsTheKeychainAndLeavesNothing()
    {
        const ProbeOutcome full = probeNow(*m_store, SecretStore::ProbeMode::RoundTrip);
        QVERIFY(full.answered);
        QVERIFY2(full.status.available, qPrintable(describe(full.status.error)));
        QVERIFY(!full.status.error.isError());
        const ProbeOutcome light = probeNow(*m_store, SecretStore::ProbeMode::ReadOnly);
        QVERIFY(light.answered);
        QVERIFY2(light.status.available, qPrintable(describe(light.status.error)));
        // The canary is deleted again.
        const ToolResult canary = lookupWithSecretTool(SecretStore::probeEntryName());
        QVERIFY(canary.exitCode != 0);
        QVERIFY(canary.out.isEmpty());
    }

    void writeReadOverwriteDelete()
    {
        const QString ref = QStringLiteral("keychain:openai-work");
        const QString name = QStringLiteral("openai-work");

        Outcome w = writeNow(*m_store, ref, kSecretOne);
        QVERIFY(w.answered);
        QVERIFY2(!w.error.isError(), qPrintable(describe(w.error)));

        Outcome r = readNow(*m_store, ref);
        QVERIFY(r.answered);
        QVERIFY2(!r.error.isError(), qPrintable(describe(r.error)));
        QVERIFY(r.secret == kSecretOne);

        // The item really is in the Secret Service, filed under the app's service name.
        ToolResult seen = lookupWithSecretTool(name);
        QCOMPARE(seen.exitCode, 0);
        QVERIFY2(QString::fromUtf8(seen.out) == kSecretOne, "secret-tool does not see the stored secret");
        ToolResult listing = secretTool({QStringLiteral("search"), QStringLiteral("--all"), QStringLiteral("server"),
                                         defaultServiceName(), QStringLiteral("user"), name});
        QCOMPARE(listing.exitCode, 0);
        const QString all = QString::fromUtf8(listing.out + listing.err);
        QVERIFY2(all.contains(QStringLiteral("label = ") + defaultServiceName()), "the item is not labelled with the service name");
        QVERIFY(all.contains(QStringLiteral("attribute.server = ") + defaultServiceName()));
        QVERIFY(all.contains(QStringLiteral("attribute.user = ") + name));
        QCOMPARE(all.count(QStringLiteral("label = ")), 1);

        // Overwrite: one item, the new value.
        w = writeNow(*m_store, ref, kSecretTwo);
        QVERIFY(w.answered);
        QVERIFY2(!w.error.isError(), qPrintable(describe(w.error)));
        r = readNow(*m_store, ref);
        QVERIFY(r.answered && !r.error.isError());
        QVERIFY(r.secret == kSecretTwo);
        seen = lookupWithSecretTool(name);
        QVERIFY2(QString::fromUtf8(seen.out) == kSecretTwo, "secret-tool still sees the old secret");
        listing = secretTool({QStringLiteral("search"), QStringLiteral("--all"), QStringLiteral("server"),
                              defaultServiceName(), QStringLiteral("user"), name});
        QCOMPARE(QString::fromUtf8(listing.out + listing.err).count(QStringLiteral("label = ")), 1);

        // Delete: gone for the store and for secret-tool; a second delete is not an error.
        Outcome d = removeNow(*m_store, ref);
        QVERIFY(d.answered);
        QVERIFY2(!d.error.isError(), qPrintable(describe(d.error)));
        r = readNow(*m_store, ref);
        QVERIFY(r.answered);
        QCOMPARE(r.error.kind(), SecretError::NotFound);
        QVERIFY(r.secret.isEmpty());
        QCOMPARE(r.error.message(), QStringLiteral("the keychain has no entry keychain:openai-work"));
        seen = lookupWithSecretTool(name);
        QVERIFY(seen.exitCode != 0);
        QVERIFY(seen.out.isEmpty());
        d = removeNow(*m_store, ref);
        QVERIFY(d.answered);
        QVERIFY2(!d.error.isError(), qPrintable(describe(d.error)));
    }

    void readsWhatAnotherClientStored()
    {
        // An entry made with secret-tool using QtKeychain's attributes is read as keychain:NAME.
        const ToolResult stored = secretTool({QStringLiteral("store"), QStringLiteral("--label=") + defaultServiceName(),
                                              QStringLiteral("server"), defaultServiceName(), QStringLiteral("user"),
                                              QStringLiteral("from-outside"), QStringLiteral("type"), QStringLiteral("plaintext")},
                                             kSecretExternal.toUtf8());
        QCOMPARE(stored.exitCode, 0);
        const Outcome r = readNow(*m_store, QStringLiteral("keychain:from-outside"));
        QVERIFY(r.answered);
        QVERIFY2(!r.error.isError(), qPrintable(describe(r.error)));
        QVERIFY(r.secret == kSecretExternal);
        QVERIFY(!removeNow(*m_store, QStringLiteral("keychain:from-outside")).error.isError());
        QVERIFY(lookupWithSecretTool(QStringLiteral("from-outside")).exitCode != 0);
    }

    void entriesAreSeparateAndUnicodeSurvives()
    {
        QVERIFY(!writeNow(*m_store, QStringLiteral("keychain:a"), kSecretOne).error.isError());
        QVERIFY(!writeNow(*m_store, QStringLiteral("keychain:b \u00e9"), kSecretUnicode).error.isError());
        QVERIFY(readNow(*m_store, QStringLiteral("keychain:a")).secret == kSecretOne);
        QVERIFY(readNow(*m_store, QStringLiteral("keychain:b \u00e9")).secret == kSecretUnicode);
        // Another service name is another namespace.
        SecretStore other(QStringLiteral("Aile Desktop (another profile)"), {});
        const Outcome elsewhere = readNow(other, QStringLiteral("keychain:a"));
        QCOMPARE(elsewhere.error.kind(), SecretError::NotFound);
        QVERIFY(!removeNow(*m_store, QStringLiteral("keychain:a")).error.isError());
        QVERIFY(!removeNow(*m_store, QStringLiteral("keychain:b \u00e9")).error.isError());
        QCOMPARE(readNow(*m_store, QStringLiteral("keychain:b \u00e9")).error.kind(), SecretError::NotFound);
    }

    void keychainWritesNeverLandInAFile()
    {
        // Even with the plain-text file opted in, keychain: goes to the keychain only.
        QTemporaryDir dir;
        SecretStore both(defaultServiceName(), dir.filePath(QStringLiteral("secrets.json")));
        QVERIFY(!writeNow(both, QStringLiteral("keychain:only-keychain"), kSecretOne).error.isError());
        QVERIFY(filesUnder(dir.path()).isEmpty());
        QVERIFY(QString::fromUtf8(lookupWithSecretTool(QStringLiteral("only-keychain")).out) == kSecretOne);
        QVERIFY(!removeNow(both, QStringLiteral("keychain:only-keychain")).error.isError());
    }

    void cleanupTestCase()
    {
        // No QtKeychain plain-text fallback (QSettings) appeared in the config folder.
        const QString config = qEnvironmentVariable("XDG_CONFIG_HOME");
        QVERIFY(!config.isEmpty());
        QVERIFY2(filesUnder(config).isEmpty(), qPrintable(filesUnder(config).join(QLatin1Char(' '))));
        const QString leak = secretsInMessages();
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
    }
};

// =====================================================================================================
// Role "secret-service-thread": the store on a worker thread, as on the engine's thread.
// =====================================================================================================
class TestSecretServiceThread : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { installCapture(); }

    void worksFromAWorkerThread()
    {
        QThread worker;
        worker.setObjectName(QStringLiteral("aile-engine"));
        worker.start();
        QObject anchor;
        anchor.moveToThread(&worker);

        std::atomic<bool> finished{false};
        QMutex lock;
        QStringList steps; // what happened, in order (never a secret)
        bool readBackMatches = false;
        bool notFoundAfterDelete = false;
        SecretStore *store = nullptr;

        QMetaObject::invokeMethod(&anchor, [&] {
            store = new SecretStore(defaultServiceName(), {});
            store->setOperationTimeout(30000);
            store->probeKeychain([&](const KeychainStatus &st) {
                QMutexLocker l(&lock);
                steps << (st.available ? QStringLiteral("probe ok") : QStringLiteral("probe: ") + describe(st.error));
                l.unlock();
                store->write(QStringLiteral("keychain:engine-thread"), kSecretThread, [&](const SecretError &w) {
                    QMutexLocker l2(&lock);
                    steps << (w.isError() ? QStringLiteral("write: ") + describe(w) : QStringLiteral("write ok"));
                    l2.unlock();
                    store->read(QStringLiteral("keychain:engine-thread"), [&](const QString &secret, const SecretError &r) {
                        QMutexLocker l3(&lock);
                        readBackMatches = secret == kSecretThread && QThread::currentThread()->objectName() == QLatin1String("aile-engine");
                        steps << (r.isError() ? QStringLiteral("read: ") + describe(r) : QStringLiteral("read ok"));
                        l3.unlock();
                        store->remove(QStringLiteral("keychain:engine-thread"), [&](const SecretError &d) {
                            QMutexLocker l4(&lock);
                            steps << (d.isError() ? QStringLiteral("remove: ") + describe(d) : QStringLiteral("remove ok"));
                            l4.unlock();
                            store->read(QStringLiteral("keychain:engine-thread"), [&](const QString &, const SecretError &g) {
                                QMutexLocker l5(&lock);
                                notFoundAfterDelete = g.kind() == SecretError::NotFound;
                                l5.unlock();
                                store->deleteLater();
                                finished = true;
                            });
                        });
                    });
                });
            });
        });
        QTRY_VERIFY_WITH_TIMEOUT(finished.load(), 90000);
        worker.quit();
        worker.wait();
        QMutexLocker l(&lock);
        QCOMPARE(steps, (QStringList{QStringLiteral("probe ok"), QStringLiteral("write ok"), QStringLiteral("read ok"),
                                     QStringLiteral("remove ok")}));
        QVERIFY(readBackMatches);
        QVERIFY(notFoundAfterDelete);
        l.unlock();
        QVERIFY(lookupWithSecretTool(QStringLiteral("engine-thread")).exitCode != 0);
        const QString leak = secretsInMessages();
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
    }
};

// =====================================================================================================
// Role "no-keychain": no session bus at all, or a private bus without a Secret Service.
// =====================================================================================================
class TestNoKeychain : public QObject
{
    Q_OBJECT
    QString m_root; // the HOME/XDG tree the parent made for this run; nothing may be written into it

private Q_SLOTS:
    void initTestCase()
    {
        installCapture();
        m_root = qEnvironmentVariable("AILE_SECRETS_TEST_ROOT");
        QVERIFY2(!m_root.isEmpty() && QDir(m_root).exists(), "run by the parent test");
        QVERIFY2(filesUnder(m_root).isEmpty(), qPrintable(filesUnder(m_root).join(QLatin1Char(' '))));
    }

    void cleanup()
    {
        const QString leak = secretsInMessages();
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
    }

    void probeSaysNoKeychainAnswers()
    {
        SecretStore store(defaultServiceName(), {});
        QElapsedTimer took;
        took.start();
        for (auto mode : {SecretStore::ProbeMode::RoundTrip, SecretStore::ProbeMode::ReadOnly}) {
            const ProbeOutcome p = probeNow(store, mode);
            QVERIFY(p.answered);
            QVERIFY(!p.status.available);
            QCOMPARE(p.status.error.kind(), SecretError::NoKeychain);
            QCOMPARE(p.status.error.message(), SecretStore::noKeychainMessage());
            QVERIFY(p.status.error.message().startsWith(QLatin1String("no keychain answers")));
            qInfo().noquote() << "the system said:" << p.status.error.detail();
        }
        QVERIFY2(took.elapsed() < 20000, "the answer \"no keychain\" must come at once, not after a timeout");
        QVERIFY(filesUnder(m_root).isEmpty());
    }

    void keychainReadWriteRemoveFailPlainlyAndStoreNothing()
    {
        SecretStore store(defaultServiceName(), {});
        const Outcome w = writeNow(store, QStringLiteral("keychain:openai-work"), kSecretOne);
        QVERIFY(w.answered);
        QCOMPARE(w.error.kind(), SecretError::NoKeychain);
        QCOMPARE(w.error.message(), SecretStore::noKeychainMessage());
        QVERIFY(!mentionsSecret(w.error));

        const Outcome r = readNow(store, QStringLiteral("keychain:openai-work"));
        QVERIFY(r.answered);
        QVERIFY(r.secret.isEmpty());
        QCOMPARE(r.error.kind(), SecretError::NoKeychain);
        QCOMPARE(QString(r.error), SecretStore::noKeychainMessage()); // what a QString-taking callback gets

        const Outcome d = removeNow(store, QStringLiteral("keychain:openai-work"));
        QVERIFY(d.answered);
        QCOMPARE(d.error.kind(), SecretError::NoKeychain);

        // Nothing anywhere in the tree: no QSettings fallback, no secrets file, no cache.
        QVERIFY2(filesUnder(m_root).isEmpty(), qPrintable(filesUnder(m_root).join(QLatin1Char(' '))));
    }

    void fileIsRefusedUntilOptedIn()
    {
        SecretStore store(defaultServiceName(), {});
        QVERIFY(!store.fileFallbackEnabled());
        QVERIFY(store.fileFallbackNotice().isEmpty());
        const Outcome w = writeNow(store, QStringLiteral("file:openai-work"), kSecretFile);
        QCOMPARE(w.error.kind(), SecretError::NotOptedIn);
        QVERIFY(!mentionsSecret(w.error));
        QCOMPARE(readNow(store, QStringLiteral("file:openai-work")).error.kind(), SecretError::NotOptedIn);
        QCOMPARE(removeNow(store, QStringLiteral("file:openai-work")).error.kind(), SecretError::NotOptedIn);
        QVERIFY2(filesUnder(m_root).isEmpty(), qPrintable(filesUnder(m_root).join(QLatin1Char(' '))));
    }

    void optedInFileWorksAndIsPrivate()
    {
        const QString dataDir = m_root + QStringLiteral("/data/aile");
        QVERIFY(QDir().mkpath(dataDir));
        const QString path = dataDir + QStringLiteral("/secrets.json");
        SecretStore store(defaultServiceName(), path);
        QVERIFY(store.fileFallbackNotice().contains(QLatin1String("plain text")));
        QVERIFY(store.fileFallbackNotice().contains(QLatin1String("0600")));

        QVERIFY(!writeNow(store, QStringLiteral("file:openai-work"), kSecretFile).error.isError());
        QCOMPARE(fileMode(path), 0600);
        const Outcome r = readNow(store, QStringLiteral("file:openai-work"));
        QVERIFY2(!r.error.isError(), qPrintable(describe(r.error)));
        QVERIFY(r.secret == kSecretFile);

        // The keychain is still asked for keychain: references, and still does not answer:
        // being opted in never turns a keychain write into a file write.
        const Outcome k = writeNow(store, QStringLiteral("keychain:openai-work"), kSecretOne);
        QCOMPARE(k.error.kind(), SecretError::NoKeychain);
        QCOMPARE(fileSecrets(path).keys(), QStringList{QStringLiteral("openai-work")});
        QVERIFY(fileSecrets(path).value(QLatin1String("openai-work")).toString() == kSecretFile);
        QFile raw(path);
        QVERIFY(raw.open(QIODevice::ReadOnly));
        QVERIFY(!raw.readAll().contains(kSecretOne.toUtf8()));

        // The data folder holds the secrets file and nothing else (no lock or temporary file left).
        QCOMPARE(filesUnder(m_root), QStringList{QStringLiteral("data/aile/secrets.json")});
    }
};

// =====================================================================================================
// Role "hung-keychain": something owns org.freedesktop.secrets but never answers (a keychain stuck
// behind an unlock prompt nobody sees, a wedged daemon). The store must give up and say so.
// =====================================================================================================
class SilentSecretService : public QDBusVirtualObject
{
public:
    std::atomic<int> calls{0};
    QString introspect(const QString &) const override { return {}; }
    bool handleMessage(const QDBusMessage &, const QDBusConnection &) override
    {
        ++calls;
        return true; // taken, and never answered
    }
};

class TestHungKeychain : public QObject
{
    Q_OBJECT
    QString m_root;
    SilentSecretService m_silent;

private Q_SLOTS:
    void initTestCase()
    {
        installCapture();
        m_root = qEnvironmentVariable("AILE_SECRETS_TEST_ROOT");
        QVERIFY2(!m_root.isEmpty(), "run by the parent test");
        QDBusConnection bus = QDBusConnection::sessionBus();
        QVERIFY2(bus.isConnected(), "run by the parent test under dbus-run-session");
        QVERIFY(bus.registerVirtualObject(QStringLiteral("/org/freedesktop/secrets"), &m_silent, QDBusConnection::SubPath));
        QVERIFY(bus.registerService(QStringLiteral("org.freedesktop.secrets")));
    }

    void cleanup()
    {
        const QString leak = secretsInMessages();
        QVERIFY2(leak.isEmpty(), qPrintable(leak));
    }

    void probeGivesUpAndSaysSo()
    {
        SecretStore store(defaultServiceName(), {});
        store.setProbeTimeout(1500);
        QElapsedTimer took;
        took.start();
        const ProbeOutcome p = probeNow(store, SecretStore::ProbeMode::RoundTrip);
        QVERIFY(p.answered);
        QVERIFY(took.elapsed() < 15000);
        QVERIFY(!p.status.available);
        QCOMPARE(p.status.error.kind(), SecretError::Timeout);
        QVERIFY2(p.status.error.message().startsWith(QLatin1String("no keychain answered in time")),
                 qPrintable(p.status.error.message()));
        QVERIFY(m_silent.calls.load() > 0); // libsecret did reach the silent service
    }

    void operationsGiveUpAndStoreNothing()
    {
        SecretStore store(defaultServiceName(), {});
        store.setOperationTimeout(1500);
        QElapsedTimer took;
        took.start();
        const Outcome w = writeNow(store, QStringLiteral("keychain:openai-work"), kSecretOne);
        QVERIFY(w.answered);
        QCOMPARE(w.error.kind(), SecretError::Timeout);
        QVERIFY(!mentionsSecret(w.error));
        const Outcome r = readNow(store, QStringLiteral("keychain:openai-work"));
        QVERIFY(r.answered);
        QCOMPARE(r.error.kind(), SecretError::Timeout);
        QVERIFY(r.secret.isEmpty());
        QVERIFY(took.elapsed() < 15000);
        QVERIFY2(filesUnder(m_root).isEmpty(), qPrintable(filesUnder(m_root).join(QLatin1Char(' '))));
    }
};

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
                                 "KDE_FULL_SESSION", "KDE_SESSION_VERSION", "DBUS_SESSION_BUS_ADDRESS", "GNOME_KEYRING_CONTROL",
                                 "SSH_AUTH_SOCK", "QT_LOGGING_RULES", "AILE_SECRETS_TEST_ROLE"})
            env.remove(QString::fromLatin1(name));
        const QStringList dirs{QStringLiteral("home"), QStringLiteral("config"), QStringLiteral("data"), QStringLiteral("cache"),
                               QStringLiteral("state"), QStringLiteral("runtime")};
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
        std::fprintf(stdout, "----- %s -----\n%s----- end of %s (exit %d) -----\n", qPrintable(label), run.output.constData(),
                     qPrintable(label), run.exitCode);
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
        const QString missing = missingTools({QStringLiteral("dbus-run-session"), QStringLiteral("gnome-keyring-daemon"),
                                              QStringLiteral("secret-tool")});
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        QTemporaryDir root;
        QVERIFY(root.isValid());
        // A private bus, a throwaway keyring in the run's own XDG_DATA_HOME, unlocked with a throwaway
        // password; --start makes that daemon own org.freedesktop.secrets before the role starts.
        const QString script = QStringLiteral(
            "printf '%s' aile-test-keyring | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null || exit 71\n"
            "gnome-keyring-daemon --start --components=secrets >/dev/null 2>&1 || exit 72\n"
            "exec \"$1\"\n");
        const RoleRun run = runRole(QStringLiteral("dbus-run-session"),
                                    {QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"), script, QStringLiteral("sh"),
                                     QCoreApplication::applicationFilePath()},
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
        const qsizetype before = [] { QMutexLocker l(&g_messagesLock); return g_messages.size(); }();
        qDebug() << "about to leak" << kSecretPasted;
        QVERIFY(!secretsInMessages().isEmpty());
        {
            QMutexLocker l(&g_messagesLock);
            g_messages.resize(before);
        }
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
        const QByteArray before = [&] { QFile f(path); f.open(QIODevice::ReadOnly); return f.readAll(); }();
        SecretStore store(defaultServiceName(), path);
        const Outcome w = writeNow(store, QStringLiteral("file:claude"), kSecretFileTwo);
        QCOMPARE(w.error.kind(), SecretError::Failed);
        QVERIFY(!mentionsSecret(w.error)); // the parser's message gives an offset, not the text
        const Outcome r = readNow(store, QStringLiteral("file:openai"));
        QCOMPARE(r.error.kind(), SecretError::Failed);
        QVERIFY(!mentionsSecret(r.error));
        const QByteArray after = [&] { QFile f(path); f.open(QIODevice::ReadOnly); return f.readAll(); }();
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

    void sessionBusWithoutSecretService() { runOnBareBus(QStringLiteral("no-keychain"), QStringLiteral("no-keychain (a bus without a Secret Service)")); }

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
                                    {QStringLiteral("--config-file=") + config, QStringLiteral("--"),
                                     QCoreApplication::applicationFilePath()},
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
    const QByteArray role = qgetenv("AILE_SECRETS_TEST_ROLE");
    if (role == "secret-service") {
        TestSecretService t;
        return QTest::qExec(&t, argc, argv);
    }
    if (role == "secret-service-thread") {
        TestSecretServiceThread t;
        return QTest::qExec(&t, argc, argv);
    }
    if (role == "hung-keychain") {
        TestHungKeychain t;
        return QTest::qExec(&t, argc, argv);
    }
    if (role == "no-keychain") {
        TestNoKeychain t;
        return QTest::qExec(&t, argc, argv);
    }
    TestSecretStore t;
    return QTest::qExec(&t, argc, argv);
}

#include "TestSecretStore.moc"
