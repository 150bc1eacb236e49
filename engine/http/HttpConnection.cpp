#include "HttpConnection.h"

#include "HttpExchange.h"
#include "HttpServer.h"

#include <QtCore/QLoggingCategory>
#include <QtNetwork/QTcpSocket>

Q_LOGGING_CATEGORY(lcHttp, "aile.engine.http")

namespace Aile::Http {

namespace {

QByteArray plainError(int status, const QByteArray &message)
{
    // Before the path is known the wire is unknown; the OpenAI shape is what most clients parse.
    QByteArray body = R"({"error":{"message":")" + message + R"(","type":"invalid_request_error","code":)"
                      + QByteArray::number(status) + "}}";
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' + http_status_str(http_status(status))
                     + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "
                     + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    return out;
}

} // namespace

HttpConnection::HttpConnection(HttpServer *server, QTcpSocket *socket)
    : QObject(server), m_server(server), m_socket(socket)
{
    socket->setParent(this);
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    http_parser_init(&m_parser, HTTP_REQUEST);
    m_parser.data = this;
    connect(socket, &QTcpSocket::readyRead, this, &HttpConnection::handleReadyRead);
    connect(socket, &QTcpSocket::disconnected, this, &HttpConnection::handleDisconnected);
    connect(socket, &QTcpSocket::bytesWritten, this, [this] {
        if (m_exchange)
            m_exchange->handleBytesWritten();
    });
    armHeaderDeadline();
    if (socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &HttpConnection::handleReadyRead, Qt::QueuedConnection);
}

HttpConnection::~HttpConnection() = default;

const http_parser_settings &HttpConnection::settings()
{
    static const http_parser_settings s = [] {
        http_parser_settings init;
        http_parser_settings_init(&init);
        init.on_message_begin = &HttpConnection::onMessageBegin;
        init.on_url = &HttpConnection::onUrl;
        init.on_header_field = &HttpConnection::onHeaderField;
        init.on_header_value = &HttpConnection::onHeaderValue;
        init.on_headers_complete = &HttpConnection::onHeadersComplete;
        init.on_body = &HttpConnection::onBody;
        init.on_message_complete = &HttpConnection::onMessageComplete;
        return init;
    }();
    return s;
}

void HttpConnection::armHeaderDeadline()
{
    m_headerDeadline.start(m_server->m_clock, m_server->limits().headerTimeoutMs, this, [this] {
        qCDebug(lcHttp) << "closing a connection whose headers did not arrive in time";
        m_closing = true;
        m_socket->abort();
        deleteLater();
    });
}

void HttpConnection::handleReadyRead()
{
    if (m_closing)
        return;
    if (m_exchange) {
        // One request at a time: a pipelined request waits in the socket buffer, within reason.
        if (m_socket->bytesAvailable() > m_server->limits().maxBodyBytes + m_server->limits().maxHeaderBytes)
            m_socket->abort();
        return;
    }
    parseAvailable();
}

void HttpConnection::parseAvailable()
{
    if (m_closing || m_exchange)
        return;
    m_inbuf += m_socket->readAll();
    if (m_inbuf.isEmpty())
        return;
    if (m_inMessage && !m_headerDeadline.isActive()) {
        // A body is arriving: keep a stalled one from holding the connection forever.
        m_idleDeadline.start(m_server->m_clock, m_server->limits().keepAliveIdleMs, this, [this] {
            m_closing = true;
            m_socket->abort();
            deleteLater();
        });
    }
    const size_t parsed = http_parser_execute(&m_parser, &settings(), m_inbuf.constData(), size_t(m_inbuf.size()));
    m_inbuf.remove(0, qsizetype(parsed));
    if (m_refusal) {
        refuse(m_refusal, m_refusal == 431 ? "request header section is larger than 64 KiB; send fewer or shorter headers"
                                          : "request body is larger than 32 MiB; send a smaller body");
        return;
    }
    if (m_parser.upgrade) {
        // An Upgrade request (Codex probing for WebSockets): answered as a plain request, then closed.
        m_messageComplete = true;
        m_inbuf.clear();
    }
    if (m_messageComplete) {
        dispatchRequest();
        return;
    }
    const auto err = HTTP_PARSER_ERRNO(&m_parser);
    if (err != HPE_OK)
        refuse(400, QByteArray("malformed HTTP request: ") + http_errno_description(err));
}

void HttpConnection::dispatchRequest()
{
    m_messageComplete = false;
    m_inMessage = false;
    m_idleDeadline.stop();
    m_keepAlive = http_should_keep_alive(&m_parser) && !m_parser.upgrade;
    m_request.localPort = m_socket->localPort();
    m_request.peer = m_socket->peerAddress();
    m_request.httpMinor = m_parser.http_minor;
    auto *exchange = new HttpExchange(this, std::move(m_request));
    m_request = HttpRequest();
    m_exchange = exchange;
    m_server->m_handler->handle(exchange);
}

void HttpConnection::exchangeFinished(bool keepAlive)
{
    if (m_exchange)
        m_exchange->deleteLater();
    m_exchange = nullptr;
    if (!keepAlive || !m_keepAlive || m_parser.upgrade) {
        m_closing = true;
        m_socket->disconnectFromHost();
        return;
    }
    http_parser_pause(&m_parser, 0);
    m_idleDeadline.start(m_server->m_clock, m_server->limits().keepAliveIdleMs, this, [this] {
        m_closing = true;
        m_socket->disconnectFromHost();
    });
    if (!m_inbuf.isEmpty() || m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &HttpConnection::parseAvailable, Qt::QueuedConnection);
}

void HttpConnection::refuse(int status, const QByteArray &message)
{
    qCDebug(lcHttp) << "refusing a request with" << status;
    m_closing = true;
    m_headerDeadline.stop();
    m_socket->write(plainError(status, message));
    m_socket->disconnectFromHost();
}

void HttpConnection::handleDisconnected()
{
    m_closing = true;
    if (m_exchange && !m_exchange->isFinished())
        m_exchange->handleClientGone();
    deleteLater();
}

// ---- http-parser callbacks -------------------------------------------------------------------

int HttpConnection::onMessageBegin(http_parser *p)
{
    auto *self = static_cast<HttpConnection *>(p->data);
    self->m_inMessage = true;
    self->m_headerBytes = 0;
    self->m_lastWasValue = false;
    self->m_field.clear();
    self->m_value.clear();
    self->m_idleDeadline.stop();
    if (!self->m_headerDeadline.isActive())
        self->armHeaderDeadline();
    return 0;
}

int HttpConnection::onUrl(http_parser *p, const char *at, size_t len)
{
    auto *self = static_cast<HttpConnection *>(p->data);
    self->m_headerBytes += qint64(len);
    if (self->m_headerBytes > self->m_server->limits().maxHeaderBytes) {
        self->m_refusal = 431;
        return 1;
    }
    self->m_request.target.append(at, qsizetype(len));
    return 0;
}

int HttpConnection::onHeaderField(http_parser *p, const char *at, size_t len)
{
    auto *self = static_cast<HttpConnection *>(p->data);
    self->m_headerBytes += qint64(len) + 4;
    if (self->m_headerBytes > self->m_server->limits().maxHeaderBytes) {
        self->m_refusal = 431;
        return 1;
    }
    if (self->m_lastWasValue) {
        self->m_request.headers.add(self->m_field, self->m_value);
        self->m_field.clear();
        self->m_value.clear();
        self->m_lastWasValue = false;
    }
    self->m_field.append(at, qsizetype(len));
    return 0;
}

int HttpConnection::onHeaderValue(http_parser *p, const char *at, size_t len)
{
    auto *self = static_cast<HttpConnection *>(p->data);
    self->m_headerBytes += qint64(len);
    if (self->m_headerBytes > self->m_server->limits().maxHeaderBytes) {
        self->m_refusal = 431;
        return 1;
    }
    self->m_value.append(at, qsizetype(len));
    self->m_lastWasValue = true;
    return 0;
}

int HttpConnection::onHeadersComplete(http_parser *p)
{
    auto *self = static_cast<HttpConnection *>(p->data);
    if (!self->m_field.isEmpty())
        self->m_request.headers.add(self->m_field, self->m_value);
    self->m_field.clear();
    self->m_value.clear();
    self->m_headerDeadline.stop();
    HttpRequest &r = self->m_request;
    r.method = http_method_str(http_method(p->method));
    const qsizetype q = r.target.indexOf('?');
    r.path = q < 0 ? r.target : r.target.left(q);
    r.query = q < 0 ? QByteArray() : r.target.mid(q + 1);
    const bool hasLength = p->content_length != ULLONG_MAX && p->content_length > 0;
    if (hasLength && qint64(p->content_length) > self->m_server->limits().maxBodyBytes) {
        self->m_refusal = 413;
        return -1;
    }
    if (r.headers.value("expect").toLower() == "100-continue")
        self->m_socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    if (hasLength)
        r.body.reserve(qsizetype(p->content_length));
    return 0;
}

int HttpConnection::onBody(http_parser *p, const char *at, size_t len)
{
    auto *self = static_cast<HttpConnection *>(p->data);
    if (self->m_request.body.size() + qint64(len) > self->m_server->limits().maxBodyBytes) {
        self->m_refusal = 413;
        return 1;
    }
    self->m_request.body.append(at, qsizetype(len));
    return 0;
}

int HttpConnection::onMessageComplete(http_parser *p)
{
    auto *self = static_cast<HttpConnection *>(p->data);
    self->m_messageComplete = true;
    http_parser_pause(p, 1);
    return 0;
}

} // namespace Aile::Http
