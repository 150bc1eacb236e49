#include "SecretStore.h"

#include <QtCore/QDeadlineTimer>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QLockFile>
#include <QtCore/QRegularExpression>
#include <QtCore/QTimer>
#include <QtCore/QUuid>

#include <qt6keychain/keychain.h>

#include <memory>

#if defined(Q_OS_UNIX)
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#include <QtCore/QSaveFile>
#endif

// The session bus tells "no keychain answers" apart from "the keychain failed" when QtKeychain
// only says OtherError (libsecret reports a missing bus or a missing Secret Service that way).
// QtKeychain links QtDBus on these systems, so aile_engine gets it through qt6keychain.
#if defined(Q_OS_UNIX) && !defined(Q_OS_DARWIN) && !defined(Q_OS_ANDROID) && __has_include(<QtDBus/QDBusConnection>)
#define AILE_SECRETS_HAVE_DBUS 1
#include <QtDBus/QDBusConnection>
#include <QtDBus/QDBusMessage>
#include <QtDBus/QDBusPendingCallWatcher>
#include <QtDBus/QDBusPendingReply>
#endif

namespace Aile::Secrets {

namespace detail {
/// Test seam, not declared in any header: when set, called with the temporary file's path right
/// after it is created and before anything else is done to it, so a test can check the mode the
/// file was born with (tests/engine/secrets). Always null in the app.
void (*privateFileCreatedHook)(const char *path) = nullptr;

/// Whether any keychain service is on the session bus or can be started by it, answered later on
/// context's thread: asked only after a keychain operation failed with an error QtKeychain does
/// not classify. Two calls to the bus, sent together, each given at most 2 s; nothing waits for them.
void askBusForKeychainService(QObject *context, std::function<void(bool)> answer)
{
#ifdef AILE_SECRETS_HAVE_DBUS
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected()) {
        answer(false);
        return;
    }
    struct Asked
    {
        std::function<void(bool)> answer;
        int pending = 2;
        bool found = false;
    };
    auto asked = std::make_shared<Asked>();
    asked->answer = std::move(answer);
    for (const char *method : {"ListNames", "ListActivatableNames"}) {
        const QDBusMessage m = QDBusMessage::createMethodCall(QStringLiteral("org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
                                                              QStringLiteral("org.freedesktop.DBus"), QLatin1String(method));
        auto *watcher = new QDBusPendingCallWatcher(bus.asyncCall(m, 2000), context);
        QObject::connect(watcher, &QDBusPendingCallWatcher::finished, context, [asked](QDBusPendingCallWatcher *w) {
            w->deleteLater();
            const QDBusPendingReply<QStringList> reply = *w;
            if (!reply.isError()) {
                static const char *const names[] = {"org.freedesktop.secrets", "org.kde.kwalletd6", "org.kde.kwalletd5", "org.kde.kwalletd"};
                const QStringList listed = reply.value();
                for (const char *name : names)
                    asked->found = asked->found || listed.contains(QLatin1String(name));
            }
            if (--asked->pending == 0)
                asked->answer(asked->found);
        });
    }
#else
    Q_UNUSED(context);
    answer(true); // cannot tell: report the keychain's own error
#endif
}

/// Test seam, not declared in any header: how the store asks whether a keychain service is on
/// the session bus (above). A test puts a function here that answers when it chooses, to check that
/// nothing waits for the answer (tests/engine/secrets). askBusForKeychainService in the app.
void (*keychainServiceProbe)(QObject *context, std::function<void(bool)> answer) = &askBusForKeychainService;
} // namespace detail

namespace {

constexpr int TimeoutCode = -1;

QString fileNotEnabledMessage()
{
    return QStringLiteral("the plain-text secrets file is not enabled: secrets are kept in the keychain only "
                          "(opt in to the plain-text file to use file: references)");
}

/// The errors QtKeychain does not classify: libsecret reports a missing session bus and a bus
/// without a Secret Service as OtherError, so the bus is asked which it is (keychainError).
bool unclassified(int code)
{
    switch (code) {
    case QKeychain::NoError:
    case QKeychain::EntryNotFound:
    case QKeychain::NoBackendAvailable:
    case QKeychain::AccessDeniedByUser:
    case QKeychain::AccessDenied:
    case TimeoutCode: return false;
    default: return true;
    }
}

/// An error must never carry the secret, whatever a keychain backend put in its message.
SecretError withoutSecret(const SecretError &e, const QString &secret)
{
    if (secret.isEmpty() || (!e.message().contains(secret) && !e.detail().contains(secret)))
        return e;
    return SecretError(e.kind(), QStringLiteral("the secret could not be handled (the error is withheld because it quoted the secret)"),
                       QStringLiteral("withheld"));
}

bool usableName(const QString &name)
{
    if (name.isEmpty() || name.size() > 256)
        return false;
    for (const QChar c : name) {
        if (c.category() == QChar::Other_Control || c == QChar::LineSeparator || c == QChar::ParagraphSeparator)
            return false;
    }
    return true;
}

SecretError invalidReference()
{
    // The text is not echoed: what does not parse as a reference may be a pasted secret.
    return SecretError(SecretError::InvalidRequest, QStringLiteral("the credential is not a reference of the form env:NAME, keychain:NAME or "
                                                                   "file:NAME (a secret itself is never accepted here)"));
}

#if defined(Q_OS_UNIX)
QString errnoText(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}
#endif

struct LoadedFile
{
    bool exists = false;
    QJsonObject secrets;
};

/// Reads the opted-in file. `forRewrite`: the caller replaces the file with a 0600 one, so a loose
/// mode does not stop it (it is repaired); a file owned by someone else always does.
SecretError loadSecretsFile(const QString &path, bool forRewrite, LoadedFile *out)
{
    QByteArray bytes;
#if defined(Q_OS_UNIX)
    const QByteArray native = QFile::encodeName(path);
    int fd;
    do {
        fd = ::open(native.constData(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        if (errno == ENOENT)
            return {};
        return SecretError(SecretError::Failed, QStringLiteral("the secrets file %1 cannot be read: %2").arg(path, errnoText(errno)));
    }
    struct stat st
    {
    };
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return SecretError(SecretError::UnsafeFile, QStringLiteral("the secrets file %1 is not a regular file").arg(path));
    }
    if (st.st_uid != ::geteuid()) {
        ::close(fd);
        return SecretError(SecretError::UnsafeFile, QStringLiteral("the secrets file %1 belongs to another user; it is not used").arg(path));
    }
    if ((st.st_mode & 077) != 0 && !forRewrite) {
        ::close(fd);
        return SecretError(SecretError::UnsafeFile, QStringLiteral("the secrets file %1 can be read by other users (mode %2); it is not used until "
                                                                   "its mode is 0600 (chmod 600 it, or store a secret again to rewrite it)")
                                                        .arg(path, QString::number(st.st_mode & 07777, 8).rightJustified(4, QLatin1Char('0'))));
    }
    char buf[16384];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            return SecretError(SecretError::Failed, QStringLiteral("the secrets file %1 cannot be read: %2").arg(path, errnoText(err)));
        }
        if (n == 0)
            break;
        bytes.append(buf, n);
    }
    ::close(fd);
    std::memset(buf, 0, sizeof buf);
#else
    QFile f(path);
    if (!f.exists())
        return {};
    if (!f.open(QIODevice::ReadOnly))
        return SecretError(SecretError::Failed, QStringLiteral("the secrets file %1 cannot be read").arg(path));
    Q_UNUSED(forRewrite)
    bytes = f.readAll();
#endif
    out->exists = true;
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &perr);
    bytes.fill('\0');
    if (perr.error != QJsonParseError::NoError || !doc.isObject()) {
        // The parser's message names a position, never the text.
        return SecretError(SecretError::Failed, QStringLiteral("the secrets file %1 is not a JSON object (%2 at offset %3); fix or remove it")
                                                    .arg(path, perr.errorString(), QString::number(perr.offset)));
    }
    const QJsonObject root = doc.object();
    // {"secrets": {...}} as written here; a flat {"NAME": "secret"} object is read as well.
    out->secrets = root.value(QLatin1String("secrets")).isObject() ? root.value(QLatin1String("secrets")).toObject() : root;
    return {};
}

/// Replaces `path` with `data`, the new file 0600 from its creation (never widened by the umask,
/// never briefly readable by others), then checks the mode of what is in place.
SecretError writePrivateFile(const QString &path, QByteArray data)
{
#if defined(Q_OS_UNIX)
    QByteArray tmpl = QFile::encodeName(path) + ".tmp-XXXXXX";
    const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC); // open(O_CREAT|O_EXCL, 0600)
    if (fd < 0) {
        return SecretError(SecretError::Failed, QStringLiteral("the secrets file %1 cannot be written: %2").arg(path, errnoText(errno)));
    }
    if (detail::privateFileCreatedHook)
        detail::privateFileCreatedHook(tmpl.constData());
    auto fail = [&](const QString &what, int err) {
        ::close(fd);
        ::unlink(tmpl.constData());
        data.fill('\0');
        return SecretError(SecretError::Failed, QStringLiteral("the secrets file %1 cannot be written (%2: %3)").arg(path, what, errnoText(err)));
    };
    // mkostemp asks for 0600; a umask can only take bits away, so set exactly 0600 before any byte lands.
    if (::fchmod(fd, S_IRUSR | S_IWUSR) != 0)
        return fail(QStringLiteral("chmod"), errno);
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + done, size_t(data.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fail(QStringLiteral("write"), errno);
        done += n;
    }
    data.fill('\0');
    if (::fsync(fd) != 0)
        return fail(QStringLiteral("fsync"), errno);
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmpl.constData());
        return SecretError(SecretError::Failed, QStringLiteral("the secrets file %1 cannot be written (close: %2)").arg(path, errnoText(err)));
    }
    const QByteArray native = QFile::encodeName(path);
    if (::rename(tmpl.constData(), native.constData()) != 0) {
        const int err = errno;
        ::unlink(tmpl.constData());
        return SecretError(SecretError::Failed, QStringLiteral("the secrets file %1 cannot be written (rename: %2)").arg(path, errnoText(err)));
    }
    const QByteArray dir = QFile::encodeName(QFileInfo(path).absolutePath());
    const int dfd = ::open(dir.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
    struct stat st
    {
    };
    if (::lstat(native.constData(), &st) != 0)
        return SecretError(SecretError::Failed, QStringLiteral("the secrets file %1 is gone after writing: %2").arg(path, errnoText(errno)));
    if (!S_ISREG(st.st_mode) || (st.st_mode & 07777) != 0600 || st.st_uid != ::geteuid()) {
        // A file system without Unix permissions (or an ACL default) left it readable: do not keep it.
        ::unlink(native.constData());
        return SecretError(SecretError::UnsafeFile, QStringLiteral("the secrets file %1 cannot be kept private there (mode %2 after writing, "
                                                                   "expected 0600); it was removed: choose a folder on a file system with "
                                                                   "Unix permissions")
                                                        .arg(path, QString::number(st.st_mode & 07777, 8).rightJustified(4, QLatin1Char('0'))));
    }
    return {};
#else
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return SecretError(SecretError::Failed, QStringLiteral("the secrets file %1 cannot be written").arg(path));
    out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    out.write(data);
    data.fill('\0');
    if (!out.commit())
        return SecretError(SecretError::Failed, QStringLiteral("the secrets file %1 cannot be written").arg(path));
    return {};
#endif
}

} // namespace

QString defaultServiceName()
{
    return QStringLiteral("Aile Desktop");
}

std::optional<Reference> Reference::parse(const QString &text)
{
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    if (colon <= 0)
        return std::nullopt;
    const QStringView scheme = QStringView(text).left(colon);
    Reference ref;
    ref.name = text.mid(colon + 1);
    if (scheme == QLatin1String("env")) {
        static const QRegularExpression envName(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,255}$"));
        if (!envName.match(ref.name).hasMatch())
            return std::nullopt;
        ref.scheme = Env;
    } else if (scheme == QLatin1String("keychain")) {
        ref.scheme = Keychain;
    } else if (scheme == QLatin1String("file")) {
        ref.scheme = File;
    } else {
        return std::nullopt;
    }
    if (!usableName(ref.name))
        return std::nullopt;
    return ref;
}

QString Reference::toString() const
{
    switch (scheme) {
    case Env: return QStringLiteral("env:") + name;
    case File: return QStringLiteral("file:") + name;
    case Keychain: break;
    }
    return QStringLiteral("keychain:") + name;
}

QString SecretStore::noKeychainMessage()
{
    return QStringLiteral("no keychain answers on this system (no Secret Service or KWallet on the session bus), so "
                          "the secret was not stored; start one (GNOME Keyring, KeePassXC, KWallet) or opt in to "
                          "the plain-text secrets file");
}

QString SecretStore::probeEntryName()
{
    return QStringLiteral("aile-keychain-probe");
}

QString describeKeychainError(int code, const QString &detail)
{
    switch (code) {
    case QKeychain::NoError: return {};
    case QKeychain::EntryNotFound: return QStringLiteral("the keychain has no such entry");
    case QKeychain::NoBackendAvailable: return SecretStore::noKeychainMessage();
    case QKeychain::AccessDeniedByUser: return QStringLiteral("access to the keychain was refused at its prompt");
    case QKeychain::AccessDenied: return QStringLiteral("the keychain is locked or refused access (%1); unlock it and try again").arg(detail);
    default: return QStringLiteral("the keychain failed: %1").arg(detail);
    }
}

SecretStore::SecretStore(QString serviceName, QString fileFallbackPath, QObject *parent)
    : QObject(parent), m_service(std::move(serviceName)), m_filePath(std::move(fileFallbackPath))
{ }

QString SecretStore::fileFallbackNotice() const
{
    if (m_filePath.isEmpty())
        return {};
    return QStringLiteral("secrets in file: references are kept in plain text in %1 (mode 0600: readable only by "
                          "you), because you opted in; the keychain is safer")
        .arg(QDir::toNativeSeparators(m_filePath));
}

void SecretStore::runKeychain(Op op, const QString &name, const QString *secret, int timeoutMs, KeychainDone done)
{
    // No Qt parent: a job still running when the store goes away keeps its own lifetime (libsecret
    // calls back into it later); autoDelete frees it once it finishes.
    QKeychain::Job *job = nullptr;
    switch (op) {
    case Op::Read: job = new QKeychain::ReadPasswordJob(m_service); break;
    case Op::Write: {
        auto *w = new QKeychain::WritePasswordJob(m_service);
        w->setTextData(*secret);
        job = w;
        break;
    }
    case Op::Remove: job = new QKeychain::DeletePasswordJob(m_service); break;
    }
    job->setAutoDelete(true);
    job->setInsecureFallback(false); // never a QSettings plain-text copy behind the user's back
    job->setKey(name);
    auto answered = std::make_shared<bool>(false);
    connect(job, &QKeychain::Job::finished, this, [this, answered, done, op](QKeychain::Job *j) {
        if (*answered)
            return;
        *answered = true;
        KeychainResult r;
        r.code = j->error();
        if (r.code != QKeychain::NoError)
            r.detail = j->errorString();
        else if (op == Op::Read)
            r.text = static_cast<QKeychain::ReadPasswordJob *>(j)->textData();
        if (!unclassified(r.code)) {
            done(r);
            return;
        }
        detail::keychainServiceProbe(this, [r, done](bool onBus) mutable {
            r.serviceOnBus = onBus;
            done(r);
        });
    });
    if (timeoutMs > 0) {
        QTimer::singleShot(timeoutMs, this, [answered, done] {
            if (*answered)
                return;
            *answered = true;
            done(KeychainResult{TimeoutCode, {}, {}});
        });
    }
    job->start();
}

SecretError SecretStore::keychainError(const KeychainResult &r, const QString &name, const QString &secret) const
{
    SecretError e;
    switch (r.code) {
    case QKeychain::NoError: return {};
    case TimeoutCode:
        e = SecretError(SecretError::Timeout, QStringLiteral("the keychain did not answer in time (an unlock prompt may be waiting, or the "
                                                             "Secret Service hangs); answer the prompt or restart the keychain, then try again"));
        break;
    case QKeychain::EntryNotFound:
        e = SecretError(SecretError::NotFound, QStringLiteral("the keychain has no entry keychain:%1").arg(name), r.detail);
        break;
    case QKeychain::NoBackendAvailable: e = SecretError(SecretError::NoKeychain, noKeychainMessage(), r.detail); break;
    case QKeychain::AccessDeniedByUser:
        e = SecretError(SecretError::AccessDenied, QStringLiteral("access to the keychain was refused at its prompt"), r.detail);
        break;
    case QKeychain::AccessDenied:
        e = SecretError(SecretError::AccessDenied,
                        QStringLiteral("the keychain is locked or refused access; unlock it (for GNOME Keyring: the "
                                       "\"login\" keyring) and try again"),
                        r.detail);
        break;
    default:
        // libsecret reports "no session bus" and "no Secret Service on the bus" as OtherError.
        if (!r.serviceOnBus)
            e = SecretError(SecretError::NoKeychain, noKeychainMessage(), r.detail);
        else
            e = SecretError(SecretError::Failed, QStringLiteral("the keychain failed: %1").arg(r.detail), r.detail);
        break;
    }
    return withoutSecret(e, secret);
}

void SecretStore::read(const QString &reference, ReadCallback done)
{
    const std::optional<Reference> ref = Reference::parse(reference);
    if (!ref) {
        done({}, invalidReference());
        return;
    }
    switch (ref->scheme) {
    case Reference::Env: {
        const QString value = qEnvironmentVariable(ref->name.toLocal8Bit().constData());
        if (value.isEmpty())
            done({}, SecretError(SecretError::NotFound, QStringLiteral("the environment variable %1 is not set").arg(ref->name)));
        else
            done(value, {});
        return;
    }
    case Reference::File: {
        SecretError error;
        const QString value = readFile(ref->name, &error);
        done(value, error);
        return;
    }
    case Reference::Keychain: break;
    }
    const QString name = ref->name;
    runKeychain(Op::Read, name, nullptr, m_operationTimeoutMs, [this, name, done](const KeychainResult &r) {
        if (r.code == QKeychain::NoError && r.text.isEmpty())
            done({}, SecretError(SecretError::NotFound, QStringLiteral("the keychain entry keychain:%1 is empty").arg(name)));
        else if (r.code == QKeychain::NoError)
            done(r.text, {});
        else
            done({}, keychainError(r, name, {}));
    });
}

void SecretStore::write(const QString &reference, const QString &secret, WriteCallback done)
{
    const std::optional<Reference> ref = Reference::parse(reference);
    if (!ref) {
        done(invalidReference());
        return;
    }
    if (secret.isEmpty()) {
        done(SecretError(SecretError::InvalidRequest, QStringLiteral("an empty secret is not stored (remove %1 instead)").arg(ref->toString())));
        return;
    }
    switch (ref->scheme) {
    case Reference::Env:
        done(SecretError(SecretError::InvalidRequest, QStringLiteral("env:%1 is read from the environment and cannot be written; store the secret "
                                                                     "in keychain:NAME")
                                                          .arg(ref->name)));
        return;
    case Reference::File: done(withoutSecret(writeFile(ref->name, &secret), secret)); return;
    case Reference::Keychain: break;
    }
    const QString name = ref->name;
    runKeychain(Op::Write, name, &secret, m_operationTimeoutMs,
                [this, name, secret, done](const KeychainResult &r) { done(keychainError(r, name, secret)); });
}

void SecretStore::remove(const QString &reference, WriteCallback done)
{
    const std::optional<Reference> ref = Reference::parse(reference);
    if (!ref) {
        done(invalidReference());
        return;
    }
    switch (ref->scheme) {
    case Reference::Env: done({}); return; // not the app's to remove
    case Reference::File: done(writeFile(ref->name, nullptr)); return;
    case Reference::Keychain: break;
    }
    const QString name = ref->name;
    runKeychain(Op::Remove, name, nullptr, m_operationTimeoutMs, [this, name, done](const KeychainResult &r) {
        done(r.code == QKeychain::EntryNotFound ? SecretError() : keychainError(r, name, {}));
    });
}

void SecretStore::probeKeychain(ProbeCallback done, ProbeMode mode)
{
    const QString name = probeEntryName();
    const auto deadline = std::make_shared<QDeadlineTimer>(m_probeTimeoutMs > 0 ? qint64(m_probeTimeoutMs) : qint64(-1));
    auto remaining = [deadline] { return deadline->isForever() ? 0 : int(qMax<qint64>(1, deadline->remainingTime())); };
    auto finish = [done](SecretError e) {
        if (e.kind() == SecretError::Timeout) {
            e = SecretError(SecretError::Timeout, QStringLiteral("no keychain answered in time (an unlock prompt may be waiting, or the "
                                                                 "Secret Service hangs); answer the prompt or restart the keychain, or opt "
                                                                 "in to the plain-text secrets file"));
        }
        KeychainStatus s;
        s.available = !e.isError();
        s.error = e;
        done(s);
    };

    if (mode == ProbeMode::ReadOnly) {
        runKeychain(Op::Read, name, nullptr, remaining(), [this, name, finish](const KeychainResult &r) {
            // "No such entry" is an answer: the keychain is there.
            finish(r.code == QKeychain::EntryNotFound ? SecretError() : keychainError(r, name, {}));
        });
        return;
    }

    const QString canary = QUuid::createUuid().toString(QUuid::WithoutBraces);
    runKeychain(Op::Write, name, &canary, remaining(), [=, this](const KeychainResult &w) {
        if (w.code != QKeychain::NoError) {
            finish(keychainError(w, name, canary));
            return;
        }
        runKeychain(Op::Read, name, nullptr, remaining(), [=, this](const KeychainResult &r) {
            if (r.code != QKeychain::NoError) {
                finish(keychainError(r, name, canary));
                return;
            }
            const bool same = r.text == canary;
            runKeychain(Op::Remove, name, nullptr, remaining(), [=, this](const KeychainResult &d) {
                if (!same) {
                    finish(SecretError(SecretError::Failed, QStringLiteral("the keychain answered, but did not return what was stored in it")));
                } else if (d.code != QKeychain::NoError && d.code != QKeychain::EntryNotFound) {
                    finish(keychainError(d, name, canary));
                } else {
                    finish({});
                }
            });
        });
    });
}

QString SecretStore::readFile(const QString &name, SecretError *error) const
{
    if (m_filePath.isEmpty()) {
        *error = SecretError(SecretError::NotOptedIn, fileNotEnabledMessage());
        return {};
    }
    LoadedFile file;
    if (SecretError e = loadSecretsFile(m_filePath, false, &file); e.isError()) {
        *error = e;
        return {};
    }
    const QString value = file.secrets.value(name).toString();
    if (value.isEmpty()) {
        *error =
            SecretError(SecretError::NotFound,
                        file.exists ? QStringLiteral("the secrets file %1 has no entry file:%2").arg(m_filePath, name)
                                    : QStringLiteral("the secrets file %1 does not exist yet, so it has no entry file:%2").arg(m_filePath, name));
    }
    return value;
}

SecretError SecretStore::writeFile(const QString &name, const QString *secret) const
{
    if (m_filePath.isEmpty())
        return SecretError(SecretError::NotOptedIn, fileNotEnabledMessage());
    const QFileInfo info(m_filePath);
    if (!info.absoluteDir().exists())
        return SecretError(SecretError::Failed, QStringLiteral("the folder of the secrets file %1 does not exist").arg(m_filePath));

    // Another Aile process (the GUI and `aile serve` on one data folder) may rewrite it too.
    QLockFile lock(m_filePath + QStringLiteral(".lock"));
    lock.setStaleLockTime(30000);
    if (!lock.tryLock(5000))
        return SecretError(SecretError::Failed, QStringLiteral("the secrets file %1 is being written by another process; try again").arg(m_filePath));

    LoadedFile file;
    if (SecretError e = loadSecretsFile(m_filePath, true, &file); e.isError())
        return e; // never overwrite a file that could not be read: it would lose the other secrets
    if (!secret) {
        if (!file.exists || !file.secrets.contains(name))
            return {}; // nothing to remove, and nothing is created
        file.secrets.remove(name);
    } else {
        file.secrets.insert(name, *secret);
    }
    QJsonObject root;
    root.insert(QStringLiteral("about"), QStringLiteral("Aile Desktop secrets in plain text, kept here because the user opted in (no keychain "
                                                        "answered). Mode 0600: readable only by its owner. Entries are used as file:NAME."));
    root.insert(QStringLiteral("secrets"), file.secrets);
    QByteArray bytes = QJsonDocument(root).toJson(QJsonDocument::Indented);
    root = {};
    file.secrets = {};
    return writePrivateFile(m_filePath, std::move(bytes));
}

} // namespace Aile::Secrets
