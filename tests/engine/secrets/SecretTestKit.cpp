#include "SecretTestKit.h"

#include <QtCore/QDirIterator>
#include <QtCore/QEventLoop>
#include <QtCore/QFile>
#include <QtCore/QJsonDocument>
#include <QtCore/QLoggingCategory>
#include <QtCore/QMutex>
#include <QtCore/QProcess>
#include <QtCore/QTimer>

#include <sys/stat.h>

using namespace Aile::Secrets;

namespace Aile::Test {

QStringList allSecrets()
{
    return {kSecretOne, kSecretTwo, kSecretExternal, kSecretUnicode, kSecretFile, kSecretFileTwo, kSecretThread, kSecretPasted};
}

// ---- Qt messages: every one is kept (debug included) and searched for secrets --------------------

namespace {
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

} // namespace

void installCapture()
{
    QLoggingCategory::setFilterRules(QStringLiteral("*.debug=true"));
    g_previousHandler = qInstallMessageHandler(captureMessage);
}

qsizetype capturedMessageCount()
{
    QMutexLocker lock(&g_messagesLock);
    return g_messages.size();
}

void dropCapturedMessagesAfter(qsizetype count)
{
    QMutexLocker lock(&g_messagesLock);
    g_messages.resize(count);
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

Outcome waitFor(const std::function<void(std::function<void(const QString &, const SecretError &)>)> &start, int timeoutMs)
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

ProbeOutcome probeNow(SecretStore &s, SecretStore::ProbeMode mode)
{
    ProbeOutcome out;
    QEventLoop loop;
    s.probeKeychain(
        [&](const KeychainStatus &st) {
            out.answered = true;
            out.status = st;
            loop.quit();
        },
        mode);
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
    struct stat st
    {
    };
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

ToolResult secretTool(const QStringList &args, const QByteArray &input)
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
    struct stat st
    {
    };
    g_bornModes.append(::lstat(path, &st) == 0 ? int(st.st_mode & 07777) : -1);
}

} // namespace Aile::Test
