#pragma once

#include "core/Clock.h"

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtNetwork/QAbstractSocket>
#include <QtNetwork/QHostAddress>

class QTcpServer;
class QTcpSocket;

namespace Aile::Http {

class HttpConnection;
class HttpExchange;

/// Where parsed requests go. Implementations answer through the exchange, now or later.
class IRequestHandler
{
public:
    virtual ~IRequestHandler() = default;
    virtual void handle(HttpExchange *exchange) = 0;
};

/// What one local client can make the listener hold (docs/hardening.md, "Clients").
struct ServerLimits
{
    qint64 maxHeaderBytes = 64 * 1024;         // request line + header section → 431
    qint64 maxBodyBytes = 32 * 1024 * 1024;    // → 413
    qint64 headerTimeoutMs = 10'000;           // connection closed if headers are not complete
    qint64 bodyTimeoutMs = 30'000;             // → 408 when no body byte arrives for this long
    qint64 keepAliveIdleMs = 60'000;           // idle keep-alive connection closed
    qint64 maxPendingOutputBytes = 256 * 1024; // answers unsent past this: no further request is read
    qint64 sendTimeoutMs = 60'000;             // answer bytes waiting with none taken for this long: closed
    int maxConnections = 0;                    // 0: from the file limit (see connectionCap)
    int maxConnectionsPerPeer = 256;           // one peer address; also bounded by the total cap
    qint64 acceptRetryMs = 250;                // accepting pauses this long after running out of descriptors
};

/// The inbound HTTP/1.1 listener: accepts connections and turns bytes into HttpExchanges.
/// It keeps the number of open connections under a cap, closing idle and stalled ones first to
/// make room, and survives running out of file descriptors without spinning.
class HttpServer : public QObject
{
    Q_OBJECT
public:
    HttpServer(Clock *clock, IRequestHandler *handler, QObject *parent = nullptr);
    ~HttpServer() override;

    bool listen(const QHostAddress &address, quint16 port, QString *error);
    void close();
    quint16 port() const;
    QHostAddress address() const;
    void setLimits(const ServerLimits &limits) { m_limits = limits; }
    const ServerLimits &limits() const { return m_limits; }
    int openConnections() const { return int(m_live.size()); }
    /// Exchanges that exist: being served, or finished and not yet retired (tests: none is left behind).
    int liveExchanges() const { return m_liveExchanges; }
    /// The total cap in force: maxConnections, or half of what the file limit leaves after a
    /// reserve for the store and the upstream side (an upstream dial per served request).
    int connectionCap() const;
    /// Bytes accepted for clients that their sockets have not sent yet (diagnostics, tests).
    qint64 pendingBytes() const;
    /// Request bytes read and not yet parsed, over every connection (diagnostics, tests).
    qint64 bufferedInputBytes() const;

private:
    friend class HttpConnection;
    friend class HttpExchange;
    void handleIncoming(int descriptor);
    void handleAcceptError(QAbstractSocket::SocketError error);
    QTcpServer *makeListener();
    void renewListener();
    bool makeRoom(const QHostAddress &peer, bool perPeer);
    void refuseConnection(QTcpSocket *socket, const QString &message);
    void drainBacklog();
    void release(HttpConnection *connection);
    void warn(const QString &message);

    Clock *m_clock;
    IRequestHandler *m_handler;
    QTcpServer *m_server;
    ServerLimits m_limits;
    QHash<HttpConnection *, QHostAddress> m_live;
    int m_liveExchanges = 0;
    QHash<QHostAddress, int> m_perPeer;
    Deadline m_acceptRetry;
    int m_reserveFd = -1;
    qint64 m_lastWarningMs = -1;
    int m_quietWarnings = 0;
};

} // namespace Aile::Http
