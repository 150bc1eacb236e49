#pragma once

#include "HttpRequest.h"
#include "core/Clock.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>

#include <http_parser.h>

class QTcpSocket;

namespace Aile::Http {

class HttpExchange;
class HttpServer;

/// One inbound TCP connection: parses requests with http-parser, one at a time (a pipelined
/// request waits until the previous answer is finished), enforces the server's limits.
class HttpConnection : public QObject
{
    Q_OBJECT
public:
    HttpConnection(HttpServer *server, QTcpSocket *socket);
    ~HttpConnection() override;

    QTcpSocket *socket() const { return m_socket; }

private:
    friend class HttpExchange;
    void handleReadyRead();
    void handleDisconnected();
    void parseAvailable();
    void dispatchRequest();
    void exchangeFinished(bool keepAlive);
    void refuse(int status, const QByteArray &message);
    void armHeaderDeadline();

    static const http_parser_settings &settings();
    static int onMessageBegin(http_parser *p);
    static int onUrl(http_parser *p, const char *at, size_t len);
    static int onHeaderField(http_parser *p, const char *at, size_t len);
    static int onHeaderValue(http_parser *p, const char *at, size_t len);
    static int onHeadersComplete(http_parser *p);
    static int onBody(http_parser *p, const char *at, size_t len);
    static int onMessageComplete(http_parser *p);

    HttpServer *m_server;
    QTcpSocket *m_socket;
    http_parser m_parser;
    HttpRequest m_request;
    QByteArray m_inbuf;
    QByteArray m_field;
    QByteArray m_value;
    bool m_lastWasValue = false;
    qint64 m_headerBytes = 0;
    bool m_inMessage = false;
    bool m_messageComplete = false;
    bool m_keepAlive = true;
    bool m_closing = false;
    int m_refusal = 0;
    QPointer<HttpExchange> m_exchange;
    Deadline m_headerDeadline;
    Deadline m_idleDeadline;
};

} // namespace Aile::Http
