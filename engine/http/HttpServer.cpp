#include "HttpServer.h"

#include "HttpConnection.h"
#include "wire/Wire.h"

#include <QtCore/QLoggingCategory>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <functional>

Q_DECLARE_LOGGING_CATEGORY(lcHttp)

namespace Aile::Http {

namespace {

// Descriptors kept for everything that is not an inbound connection: the store, its journal,
// the keychain bus, logs, the listener itself.
constexpr qint64 ReservedDescriptors = 64;
constexpr int MaxConnectionsCeiling = 4096;
constexpr qint64 WarningIntervalMs = 10'000;

QByteArray unavailable(const QString &message)
{
    const QByteArray body = Wire::errorBody(Wire::ErrorShape::OpenAI, 503, message);
    return "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\nretry-after: 1\r\n"
           "content-length: "
           + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

// The listener hands each accepted descriptor over as it is: no QTcpSocket per client (its read
// buffer, signals and notifier switching cost the hot path; docs/performance.md, change 12
// (sockets)). HttpConnection reads and writes the descriptor itself.
class DescriptorListener : public QTcpServer
{
public:
    DescriptorListener(QObject *parent, std::function<void(int)> take) : QTcpServer(parent), m_take(std::move(take)) { }

protected:
    void incomingConnection(qintptr descriptor) override { m_take(int(descriptor)); }

private:
    std::function<void(int)> m_take;
};

} // namespace

HttpServer::HttpServer(Clock *clock, IRequestHandler *handler, QObject *parent)
    : QObject(parent), m_clock(clock), m_handler(handler), m_server(makeListener())
{ }

QTcpServer *HttpServer::makeListener()
{
    auto *server = new DescriptorListener(this, [this](int descriptor) { handleIncoming(descriptor); });
    server->setMaxPendingConnections(1024);
    connect(server, &QTcpServer::acceptError, this, &HttpServer::handleAcceptError);
    return server;
}

HttpServer::~HttpServer()
{
    // Connections report their end to this server: they go while its members still exist.
    qDeleteAll(findChildren<HttpConnection *>(Qt::FindDirectChildrenOnly));
    if (m_reserveFd >= 0)
        ::close(m_reserveFd);
}

bool HttpServer::listen(const QHostAddress &address, quint16 port, QString *error)
{
    if (!m_server->listen(address, port)) {
        if (error)
            *error = m_server->errorString();
        return false;
    }
    // One descriptor held back so that, with the table full, a waiting client can still be
    // accepted and told why instead of waiting in the backlog.
    if (m_reserveFd < 0)
        m_reserveFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    return true;
}

void HttpServer::close()
{
    m_acceptRetry.stop();
    m_server->close();
}

quint16 HttpServer::port() const
{
    return m_server->serverPort();
}

QHostAddress HttpServer::address() const
{
    return m_server->serverAddress();
}

int HttpServer::connectionCap() const
{
    qint64 fromFiles = MaxConnectionsCeiling;
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        fromFiles = qBound<qint64>(8, (qint64(rl.rlim_cur) - ReservedDescriptors) / 2, qint64(MaxConnectionsCeiling));
    return int(m_limits.maxConnections > 0 ? qMin<qint64>(m_limits.maxConnections, fromFiles) : fromFiles);
}

qint64 HttpServer::pendingBytes() const
{
    qint64 total = 0;
    for (auto it = m_live.cbegin(); it != m_live.cend(); ++it)
        total += it.key()->pendingOutputBytes();
    return total;
}

qint64 HttpServer::bufferedInputBytes() const
{
    qint64 total = 0;
    for (auto it = m_live.cbegin(); it != m_live.cend(); ++it)
        total += it.key()->bufferedInputBytes();
    return total;
}

void HttpServer::handleIncoming(int descriptor)
{
    // Qt accepts blocking descriptors (its QTcpSocket would switch them); ours never block.
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    const int noDelay = 1;
    if (::fcntl(descriptor, F_SETFL, O_NONBLOCK) != 0 || ::getpeername(descriptor, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
        ::close(descriptor); // the client already left
        return;
    }
    // Answers leave as they are written, whole (HttpExchange gathers them): no Nagle delay.
    ::setsockopt(descriptor, IPPROTO_TCP, TCP_NODELAY, &noDelay, sizeof noDelay);
    const QHostAddress peer(reinterpret_cast<const sockaddr *>(&address));
    const int cap = connectionCap();
    const int peerCap = qMin(m_limits.maxConnectionsPerPeer > 0 ? m_limits.maxConnectionsPerPeer : cap, cap);
    // Past its own cap a peer makes room among its own connections; past the total, any.
    const bool peerFull = m_perPeer.value(peer) >= peerCap;
    if ((peerFull || int(m_live.size()) >= cap) && !makeRoom(peer, peerFull)) {
        // Refusing is rare and lingers: a QTcpSocket does it (refuseConnection).
        auto *socket = new QTcpSocket(this);
        if (!socket->setSocketDescriptor(descriptor)) {
            ::close(descriptor);
            delete socket;
            return;
        }
        refuseConnection(socket, peerFull && peerCap < cap ? QStringLiteral("%1 already has %2 connections open to the proxy, its limit per "
                                                                            "address, and all are serving requests; retry when one finishes")
                                                                 .arg(peer.toString())
                                                                 .arg(peerCap)
                                                           : QStringLiteral("the proxy has %1 connections open, its limit, and all are "
                                                                            "serving requests; retry when one finishes")
                                                                 .arg(cap));
        return;
    }
    auto *connection = new HttpConnection(this, descriptor, peer, m_server->serverPort());
    m_live.insert(connection, peer);
    ++m_perPeer[peer];
}

// Closes the connection that costs least to lose: an idle keep-alive first, then one whose
// request or reading stalled, the one quiet longest first. A connection serving a request stays.
bool HttpServer::makeRoom(const QHostAddress &peer, bool perPeer)
{
    HttpConnection *victim = nullptr;
    HttpConnection::Shed victimClass = HttpConnection::Shed::Busy;
    for (auto it = m_live.cbegin(); it != m_live.cend(); ++it) {
        if (perPeer && it.value() != peer)
            continue;
        const HttpConnection::Shed c = it.key()->shedClass();
        if (c == HttpConnection::Shed::Busy)
            continue;
        if (!victim || c < victimClass || (c == victimClass && it.key()->lastProgressMs() < victim->lastProgressMs())) {
            victim = it.key();
            victimClass = c;
        }
    }
    if (!victim)
        return false;
    warn(QStringLiteral("connection limit reached (%1 open, %2 for %3; limits %4 in total, %5 per address): closed %6 "
                        "connection to make room")
             .arg(m_live.size())
             .arg(m_perPeer.value(peer))
             .arg(peer.toString())
             .arg(connectionCap())
             .arg(m_limits.maxConnectionsPerPeer)
             .arg(victimClass == HttpConnection::Shed::Idle ? QStringLiteral("an idle keep-alive") : QStringLiteral("a stalled")));
    victim->shed();
    return true;
}

void HttpServer::refuseConnection(QTcpSocket *socket, const QString &message)
{
    warn(QStringLiteral("connection limit reached: refused a connection: %1").arg(message));
    socket->setParent(this);
    // A lingering close (as nginx's lingering_close): closing with the client's request unread
    // would send a reset that can destroy the 503 before the client reads it. So: answer, end
    // our side, drop what arrives until the client closes, and give up after two seconds.
    connect(socket, &QTcpSocket::readyRead, socket, [socket] { socket->readAll(); });
    connect(socket, &QTcpSocket::bytesWritten, socket, [socket] {
        if (socket->bytesToWrite() == 0)
            ::shutdown(int(socket->socketDescriptor()), SHUT_WR);
    });
    connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
    m_clock->schedule(2'000, socket, [socket] {
        socket->abort();
        socket->deleteLater();
    });
    socket->write(unavailable(message));
}

void HttpServer::handleAcceptError(QAbstractSocket::SocketError error)
{
    // QTcpServer pauses accepting on any error but a temporary one; resumed at once it would
    // spin on the same error, left paused every client would wait forever. Instead: free what
    // can be freed, tell the waiting clients, and try again shortly.
    m_server->pauseAccepting();
    warn(QStringLiteral("cannot accept connections (%1: %2) with %3 open; closing idle connections and retrying in %4 ms")
             .arg(int(error))
             .arg(m_server->errorString())
             .arg(m_live.size())
             .arg(m_limits.acceptRetryMs));
    for (int i = 0; i < 8 && makeRoom({}, false); ++i) { }
    drainBacklog();
    m_acceptRetry.start(m_clock, m_limits.acceptRetryMs, this, [this] { renewListener(); });
}

// Qt's socket engine keeps the first error it meets: once accept failed for want of descriptors,
// every later "nothing to accept" reads as the same error, and the listener would pause after
// each connection. A fresh QTcpServer on a duplicate of the same listening socket starts clean
// and keeps the backlog.
void HttpServer::renewListener()
{
    if (!m_server->isListening())
        return;
    const int fd = ::fcntl(int(m_server->socketDescriptor()), F_DUPFD_CLOEXEC, 0);
    QTcpServer *fresh = fd >= 0 ? makeListener() : nullptr;
    if (!fresh || !fresh->setSocketDescriptor(fd)) {
        if (fd >= 0)
            ::close(fd);
        delete fresh;
        m_acceptRetry.start(m_clock, m_limits.acceptRetryMs, this, [this] { renewListener(); });
        return;
    }
    m_server->close();
    m_server->deleteLater();
    m_server = fresh;
}

// The reserve descriptor trick: give the held descriptor back, accept a waiting client with it,
// answer 503 and close, so a client learns the proxy is full instead of hanging in the backlog.
void HttpServer::drainBacklog()
{
    static const QByteArray answer =
        unavailable(QStringLiteral("the proxy has run out of file descriptors; it is closing idle connections, retry in a moment"));
    const int listener = int(m_server->socketDescriptor());
    for (int i = 0; i < 64 && m_reserveFd >= 0 && listener >= 0; ++i) {
        ::close(m_reserveFd);
        m_reserveFd = -1;
        const int fd = ::accept4(listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
            [[maybe_unused]] const ssize_t sent = ::send(fd, answer.constData(), size_t(answer.size()), MSG_NOSIGNAL);
            ::close(fd);
        }
        m_reserveFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            break;
    }
}

void HttpServer::release(HttpConnection *connection)
{
    const auto it = m_live.constFind(connection);
    if (it == m_live.cend())
        return;
    const QHostAddress peer = it.value();
    m_live.erase(it);
    if (--m_perPeer[peer] <= 0)
        m_perPeer.remove(peer);
}

// One line per bite would flood the log under attack: one every ten seconds, with a count.
void HttpServer::warn(const QString &message)
{
    const qint64 now = m_clock->nowMs();
    if (m_lastWarningMs >= 0 && now - m_lastWarningMs < WarningIntervalMs) {
        ++m_quietWarnings;
        return;
    }
    if (m_quietWarnings > 0)
        qCWarning(lcHttp).noquote() << message << QStringLiteral("(and %1 more since the last such line)").arg(m_quietWarnings);
    else
        qCWarning(lcHttp).noquote() << message;
    m_lastWarningMs = now;
    m_quietWarnings = 0;
}

} // namespace Aile::Http
