#pragma once

#include <QtCore/QObject>
#include <QtNetwork/QHostAddress>

class QTcpServer;

namespace Aile {
class Clock;
}

namespace Aile::Http {

class HttpExchange;

/// Where parsed requests go. Implementations answer through the exchange, now or later.
class IRequestHandler
{
public:
    virtual ~IRequestHandler() = default;
    virtual void handle(HttpExchange *exchange) = 0;
};

struct ServerLimits
{
    qint64 maxHeaderBytes = 64 * 1024;        // request line + header section → 431
    qint64 maxBodyBytes = 32 * 1024 * 1024;   // → 413
    qint64 headerTimeoutMs = 10'000;          // connection closed if headers are not complete
    qint64 keepAliveIdleMs = 60'000;          // idle keep-alive connection closed
};

/// The inbound HTTP/1.1 listener: accepts connections and turns bytes into HttpExchanges.
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
    int openConnections() const { return m_openConnections; }
    /// Bytes accepted for clients that their sockets have not sent yet (diagnostics, tests).
    qint64 pendingBytes() const;

private:
    friend class HttpConnection;
    void handleNewConnection();

    Clock *m_clock;
    IRequestHandler *m_handler;
    QTcpServer *m_server;
    ServerLimits m_limits;
    int m_openConnections = 0;
};

} // namespace Aile::Http
