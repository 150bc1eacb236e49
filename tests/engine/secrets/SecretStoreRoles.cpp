// The child roles of test_secret_store (TestSecretStore.cpp runs them and says what each is).
#include "secrets/SecretStore.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDirIterator>
#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QMutex>
#include <QtCore/QProcess>
#include <QtCore/QScopeGuard>
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
        QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("secret-tool")).isEmpty(), "secret-tool is missing: apt-get install libsecret-tools");
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
        ToolResult listing = secretTool(
            {QStringLiteral("search"), QStringLiteral("--all"), QStringLiteral("server"), defaultServiceName(), QStringLiteral("user"), name});
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
        listing = secretTool(
            {QStringLiteral("search"), QStringLiteral("--all"), QStringLiteral("server"), defaultServiceName(), QStringLiteral("user"), name});
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
        const ToolResult stored =
            secretTool({QStringLiteral("store"), QStringLiteral("--label=") + defaultServiceName(), QStringLiteral("server"), defaultServiceName(),
                        QStringLiteral("user"), QStringLiteral("from-outside"), QStringLiteral("type"), QStringLiteral("plaintext")},
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
        QCOMPARE(steps,
                 (QStringList{QStringLiteral("probe ok"), QStringLiteral("write ok"), QStringLiteral("read ok"), QStringLiteral("remove ok")}));
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

    // After a failure QtKeychain does not classify, the store asks the session bus whether a
    // keychain service is there. Nothing waits for that answer: the thread goes on serving (a timer
    // fires, another reference is read) and the caller hears once the bus has answered, either way.
    void theBusIsAskedWithoutWaitingForItsAnswer()
    {
        static int asked = 0;
        static std::function<void(bool)> answerLater;
        asked = 0;
        const auto saved = Aile::Secrets::detail::keychainServiceProbe;
        Aile::Secrets::detail::keychainServiceProbe = [](QObject *, std::function<void(bool)> answer) {
            ++asked;
            answerLater = std::move(answer);
        };
        const auto restore = qScopeGuard([saved] {
            Aile::Secrets::detail::keychainServiceProbe = saved;
            answerLater = {};
        });
        SecretStore store(defaultServiceName(), {});
        qputenv("AILE_TEST_OTHER_SECRET", "sk-test-env-value");

        for (const bool onBus : {false, true}) {
            bool answered = false;
            SecretError error;
            store.write(QStringLiteral("keychain:openai-work"), kSecretOne, [&](const SecretError &e) {
                answered = true;
                error = e;
            });
            const int before = asked;
            QTRY_VERIFY_WITH_TIMEOUT(asked == before + 1 || answered, 30000);
            // Debian's libsecret reports both a missing bus and a bus without a Secret Service as
            // OtherError; a QtKeychain that classified them itself would make this case moot.
            QVERIFY2(asked == before + 1, qPrintable(QStringLiteral("the bus was not asked; the keychain said: ") + describe(error)));
            bool ticked = false;
            QTimer::singleShot(0, [&ticked] { ticked = true; });
            QTRY_VERIFY(ticked);
            QCOMPARE(readNow(store, QStringLiteral("env:AILE_TEST_OTHER_SECRET")).secret, QStringLiteral("sk-test-env-value"));
            QVERIFY2(!answered, "the write must wait for the bus's answer, and only it");
            answerLater(onBus);
            QVERIFY(answered);
            QVERIFY(!mentionsSecret(error));
            if (onBus) {
                QCOMPARE(error.kind(), SecretError::Failed);
                QVERIFY(error.message().startsWith(QLatin1String("the keychain failed: ")));
            } else {
                QCOMPARE(error.kind(), SecretError::NoKeychain);
                QCOMPARE(error.message(), SecretStore::noKeychainMessage());
            }
        }
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
        QVERIFY2(p.status.error.message().startsWith(QLatin1String("no keychain answered in time")), qPrintable(p.status.error.message()));
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

namespace Aile::Test {

int runSecretsRole(const QByteArray &role, int argc, char **argv)
{
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
    return -1;
}

} // namespace Aile::Test

#include "SecretStoreRoles.moc"
