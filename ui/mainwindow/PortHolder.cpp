#include "PortHolder.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QSet>

namespace Aile::Ui {

namespace {

/// The inodes of the sockets listening on port (state 0A) in one /proc/net table.
QSet<QString> listeningInodes(const QString &table, quint16 port)
{
    QSet<QString> inodes;
    QFile f(table);
    if (!f.open(QIODevice::ReadOnly))
        return inodes;
    const QString hexPort = QStringLiteral(":%1").arg(port, 4, 16, QLatin1Char('0')).toUpper();
    f.readLine(); // the header
    while (!f.atEnd()) {
        const QStringList fields = QString::fromLatin1(f.readLine()).simplified().split(QLatin1Char(' '));
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
        if (fields.size() > 9 && fields.at(1).endsWith(hexPort) && fields.at(3) == QLatin1String("0A"))
            inodes.insert(fields.at(9));
    }
    return inodes;
}

} // namespace

QString processHoldingPort(quint16 port)
{
    QSet<QString> inodes = listeningInodes(QStringLiteral("/proc/net/tcp"), port);
    inodes += listeningInodes(QStringLiteral("/proc/net/tcp6"), port);
    if (inodes.isEmpty())
        return {};
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &pid : pids) {
        bool numeric = false;
        pid.toLongLong(&numeric);
        if (!numeric)
            continue;
        // Only the user's own processes let their fd folder be read; others are skipped quietly.
        const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
        for (const QFileInfo &fd : fds.entryInfoList(QDir::System | QDir::NoDotAndDotDot)) {
            const QString target = fd.symLinkTarget().isEmpty() ? QFile::symLinkTarget(fd.filePath()) : fd.symLinkTarget();
            const QString link = QFileInfo(target).fileName();
            if (!link.startsWith(QLatin1String("socket:[")) || !inodes.contains(link.mid(8).chopped(1)))
                continue;
            QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
            const QString name = comm.open(QIODevice::ReadOnly) ? QString::fromUtf8(comm.readAll()).trimmed() : QString();
            return QStringLiteral("%1 (pid %2)").arg(name.isEmpty() ? QStringLiteral("?") : name, pid);
        }
    }
    return {};
}

} // namespace Aile::Ui
