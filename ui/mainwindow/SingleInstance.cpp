#include "SingleInstance.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QDeadlineTimer>
#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QLockFile>
#include <QtCore/QStandardPaths>
#include <QtCore/QThread>
#include <QtNetwork/QLocalServer>
#include <QtNetwork/QLocalSocket>

namespace Aile::Ui {

namespace {
// A launch's arguments are a line of JSON; the answer is this line.
constexpr char Accepted[] = "ok\n";
constexpr qint64 MaxMessageBytes = 64 * 1024;
} // namespace

SingleInstance::SingleInstance(const QString &dataDir, QObject *parent) : QObject(parent)
{
    // Per user: the runtime folder is the user's own (XDG_RUNTIME_DIR, 0700). Per data folder: two
    // windows on two data folders are two instances.
    QString folder = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    if (folder.isEmpty())
        folder = QDir::tempPath();
    const QByteArray id = QCryptographicHash::hash(QDir(dataDir).absolutePath().toUtf8(), QCryptographicHash::Sha256).toHex().left(16);
    m_socketPath = QDir(folder).filePath(QStringLiteral("aile-desktop-") + QString::fromLatin1(id));
}

SingleInstance::~SingleInstance() = default;

SingleInstance::Role SingleInstance::claim(const QStringList &arguments, int timeoutMs)
{
    // The lock decides who is first, also when two launches race; a crashed first leaves a lock
    // whose process is gone, which QLockFile takes over.
    m_lock = std::make_unique<QLockFile>(m_socketPath + QStringLiteral(".lock"));
    m_lock->setStaleLockTime(0); // held for the window's lifetime: only a dead holder makes it stale
    if (m_lock->tryLock(0)) {
        serve();
        return Role::Primary;
    }
    m_lock.reset();
    return handOver(arguments, timeoutMs) ? Role::HandedOver : Role::NoAnswer;
}

void SingleInstance::serve()
{
    QLocalServer::removeServer(m_socketPath); // a socket a crashed first left behind
    m_server = new QLocalServer(this);
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    if (!m_server->listen(m_socketPath))
        return; // the window still works; a second launch then reports no answer
    connect(m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *socket = m_server->nextPendingConnection()) {
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QLocalSocket::readyRead, socket, [this, socket] {
                if (socket->bytesAvailable() > MaxMessageBytes) {
                    socket->abort();
                    return;
                }
                if (!socket->canReadLine())
                    return;
                const QJsonArray args = QJsonDocument::fromJson(socket->readLine()).array();
                QStringList arguments;
                for (const QJsonValue &v : args)
                    arguments << v.toString();
                socket->write(Accepted);
                socket->flush();
                socket->disconnectFromServer();
                Q_EMIT launchedAgain(arguments);
            });
        }
    });
}

bool SingleInstance::handOver(const QStringList &arguments, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    // The first may still be starting (it holds the lock before it listens): try until the deadline.
    while (!deadline.hasExpired()) {
        QLocalSocket socket;
        socket.connectToServer(m_socketPath);
        if (socket.waitForConnected(int(qMax<qint64>(1, deadline.remainingTime())))) {
            socket.write(QJsonDocument(QJsonArray::fromStringList(arguments)).toJson(QJsonDocument::Compact) + '\n');
            socket.flush();
            while (!socket.canReadLine() && socket.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime()))))
                ;
            return socket.readLine() == Accepted;
        }
        QThread::msleep(50);
    }
    return false;
}

} // namespace Aile::Ui
