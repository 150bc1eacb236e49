#pragma once
// What the roles of test_secret_store share (TestSecretStore.cpp says what each role is): the test
// secrets, the capture of Qt's messages, waiting for the store's callbacks, and looking at files and
// at the Secret Service from outside.
#include "secrets/SecretStore.h"

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <functional>

namespace Aile::Test {

// Every secret any role stores. The parent checks each role's whole output for all of them.
inline const QString kSecretOne = QStringLiteral("sk-aile-test-5f0c2d1e-first-SECRET");
inline const QString kSecretTwo = QStringLiteral("sk-aile-test-9a7b3c4d-second-SECRET");
inline const QString kSecretExternal = QStringLiteral("sk-aile-test-external-1b2c-SECRET");
inline const QString kSecretUnicode = QStringLiteral("p\u00e2t\u00e9-\u00df-\u2603-aile-test-SECRET-") + QString(3000, QLatin1Char('x'));
inline const QString kSecretFile = QStringLiteral("sk-aile-test-file-77aa-SECRET");
inline const QString kSecretFileTwo = QStringLiteral("sk-aile-test-file-88bb-SECRET");
inline const QString kSecretThread = QStringLiteral("sk-aile-test-thread-4e4e-SECRET");
inline const QString kSecretPasted = QStringLiteral("sk-aile-test-pasted-0d0d-SECRET");
QStringList allSecrets();

/// Keeps every Qt message (debug included) to search it for secrets.
void installCapture();
/// Empty when no captured message holds a secret; otherwise which secret and where (never the value).
QString secretsInMessages();
qsizetype capturedMessageCount();
/// Forgets the messages captured after the first `count` (the leak check's own test).
void dropCapturedMessagesAfter(qsizetype count);

struct Outcome
{
    bool answered = false;
    QString secret;
    Secrets::SecretError error;
};
Outcome waitFor(const std::function<void(std::function<void(const QString &, const Secrets::SecretError &)>)> &start, int timeoutMs = 60000);
Outcome readNow(Secrets::SecretStore &s, const QString &ref);
Outcome writeNow(Secrets::SecretStore &s, const QString &ref, const QString &secret);
Outcome removeNow(Secrets::SecretStore &s, const QString &ref);

struct ProbeOutcome
{
    bool answered = false;
    Secrets::KeychainStatus status;
};
ProbeOutcome probeNow(Secrets::SecretStore &s, Secrets::SecretStore::ProbeMode mode);

QString describe(const Secrets::SecretError &e);
bool mentionsSecret(const Secrets::SecretError &e);
int fileMode(const QString &path);
/// Every file (not folder) under `root`, hidden ones included, relative to it.
QStringList filesUnder(const QString &root);
QJsonObject fileSecrets(const QString &path);

struct ToolResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};
ToolResult secretTool(const QStringList &args, const QByteArray &input = {});
/// secret-tool's view of one entry the app stored: lookup by QtKeychain's attributes
/// (server = the service name, user = the entry name).
ToolResult lookupWithSecretTool(const QString &name);

/// The mode each temporary secrets file had when it was created (see the seam in SecretStore.cpp).
extern QList<int> g_bornModes;
void recordBornMode(const char *path);

/// Runs the test class of a child role (secret-service, secret-service-thread, no-keychain,
/// hung-keychain); -1 for another role (SecretStoreRoles.cpp).
int runSecretsRole(const QByteArray &role, int argc, char **argv);

} // namespace Aile::Test

namespace Aile::Secrets::detail {
extern void (*privateFileCreatedHook)(const char *path);
extern void (*keychainServiceProbe)(QObject *context, std::function<void(bool)> answer);
}
