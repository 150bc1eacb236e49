#include "AdminToken.h"

#include <QtCore/QByteArray>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QRandomGenerator>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace Aile::AdminToken {

QString keychainReference()
{
    return QStringLiteral("keychain:aile-admin-token");
}

QString filePath(const QString &dataDir)
{
    return QDir(dataDir).filePath(QStringLiteral("admin-token"));
}

QString generate()
{
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(bytes.data()), reinterpret_cast<quint32 *>(bytes.data() + bytes.size()));
    return QStringLiteral("aile-admin-") + QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool writeFile(const QString &path, const QString &token, QString *error)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    const QByteArray native = QFile::encodeName(path);
    // O_EXCL: two engines starting at once must not both write; the loser reads the winner's.
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = QStringLiteral("cannot create %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    ::fchmod(fd, 0600); // the umask may have taken bits away, never added; this states it
    const QByteArray line = token.toUtf8() + '\n';
    const bool ok = ::write(fd, line.constData(), size_t(line.size())) == line.size() && ::fsync(fd) == 0;
    ::close(fd);
    if (!ok) {
        *error = QStringLiteral("cannot write %1").arg(path);
        ::unlink(native.constData());
    }
    return ok;
}

QString readFile(const QString &path, QString *error, bool *tightened)
{
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        *error = errno == ENOENT ? QStringLiteral("%1 does not exist").arg(path)
                                 : QStringLiteral("cannot read %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        return {};
    }
    struct stat st
    {
    };
    if (::fstat(fd, &st) == 0 && (st.st_mode & 077) && st.st_uid == ::geteuid()) {
        ::fchmod(fd, 0600);
        if (tightened)
            *tightened = true;
    }
    QByteArray content(4096, Qt::Uninitialized);
    const ssize_t n = ::read(fd, content.data(), size_t(content.size()));
    ::close(fd);
    const QString token = n > 0 ? QString::fromUtf8(content.left(n)).trimmed() : QString();
    if (token.isEmpty())
        *error = QStringLiteral("%1 holds no token").arg(path);
    return token;
}

} // namespace Aile::AdminToken
