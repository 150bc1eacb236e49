#include "HttpServer.h"

#include "HttpConnection.h"

#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>

namespace Aile::Http {

HttpServer::HttpServer(Clock *clock, IRequestHandler *handler, QObject *parent)
    : QObject(parent), m_clock(clock), m_handler(handler), m_server(new QTcpServer(this))
{
    m_server->setMaxPendingConnections(1024);
    connect(m_server, &QTcpServer::newConnection, this, &HttpServer::handleNewConnection);
}

HttpServer::~HttpServer() = default;

bool HttpServer::listen(const QHostAddress &address, quint16 port, QString *error)
{
    if (m_server->listen(address, port))
        return true;
    if (error)
        *error = m_server->errorString();
    return false;
}

void HttpServer::close()
{
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

qint64 HttpServer::pendingBytes() const
{
    qint64 total = 0;
    for (const HttpConnection *c : findChildren<HttpConnection *>(Qt::FindDirectChildrenOnly))
        total += c->socket()->bytesToWrite();
    return total;
}

void HttpServer::handleNewConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        ++m_openConnections;
        auto *connection = new HttpConnection(this, socket);
        connect(connection, &QObject::destroyed, this, [this] { --m_openConnections; });
    }
}

} // namespace Aile::Http
