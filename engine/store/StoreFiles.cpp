#include "StoreFiles.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QLoggingCategory>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace Aile::Store {

namespace {

// Removes group and other bits from an existing path, saying so once when there were any.
void tighten(const QString &path, mode_t wanted, const char *what)
{
    struct stat st
    {
    };
    const QByteArray native = QFile::encodeName(path);
    if (::lstat(native.constData(), &st) != 0 || S_ISLNK(st.st_mode))
        return;
    if ((st.st_mode & 077) == 0)
        return;
    if (::chmod(native.constData(), wanted) == 0)
        qCWarning(lcStore).noquote() << QStringLiteral("%1 %2 was readable by other users (mode %3); tightened to %4")
                                            .arg(QLatin1String(what), path)
                                            .arg(st.st_mode & 0777, 4, 8, QLatin1Char('0'))
                                            .arg(wanted, 4, 8, QLatin1Char('0'));
    else
        qCWarning(lcStore).noquote() << QStringLiteral("%1 %2 is readable by other users (mode %3) and could not be tightened: %4")
                                            .arg(QLatin1String(what), path)
                                            .arg(st.st_mode & 0777, 4, 8, QLatin1Char('0'))
                                            .arg(QString::fromLocal8Bit(strerror(errno)));
}

} // namespace

bool prepareDataFolder(const QString &dir, QString *error)
{
    const QByteArray native = QFile::encodeName(QDir::cleanPath(dir));
    if (!QDir(dir).exists()) {
        // Parents as QDir makes them; the folder itself 0700 from its creation (mkdir applies the
        // umask only to remove bits, and 0700 has none that matter).
        const QString parent = QFileInfo(QDir::cleanPath(dir)).path();
        if (!QDir().mkpath(parent) || (::mkdir(native.constData(), 0700) != 0 && errno != EEXIST)) {
            if (error)
                *error = QStringLiteral("cannot create the data directory %1").arg(dir);
            return false;
        }
        ::chmod(native.constData(), 0700);
        return true;
    }
    tighten(dir, 0700, "the data folder");
    return true;
}

void secureDatabaseFiles(const QString &databasePath)
{
    if (databasePath.isEmpty() || databasePath == QLatin1String(":memory:"))
        return;
    const QByteArray native = QFile::encodeName(databasePath);
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0)
        ::close(fd);
    for (const char *suffix : {"", "-wal", "-shm", "-journal"})
        tighten(databasePath + QLatin1String(suffix), 0600, "the database file");
}

int openPrivateAppend(const QString &path)
{
    const QByteArray native = QFile::encodeName(path);
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd >= 0)
        ::fchmod(fd, 0600);
    return fd;
}

} // namespace Aile::Store
