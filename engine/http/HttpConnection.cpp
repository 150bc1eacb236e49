#include "HttpConnection.h"

#include "HttpExchange.h"
#include "HttpServer.h"
#include "wire/Wire.h"

#include <QtCore/QLoggingCategory>
#include <QtCore/QTimerEvent>
#include <QtNetwork/QTcpSocket>

#include <sys/socket.h>

#include <cerrno>

#include <new>
#include <utility>

Q_LOGGING_CATEGORY(lcHttp, "aile.engine.http")

namespace Aile::Http {

namespace {

// Qt reads at most this much from the kernel ahead of the parser; past it TCP pushes back on
// the client. Together with the unparsed rest of one read it bounds what a connection holds of
// requests not yet served.
constexpr qint64 ReadChunkBytes = 64 * 1024;
constexpr qint64 LingerMs = 2'000;
constexpr qsizetype KeptOutputCapacity = 8 * 1024;

} // namespace

HttpConnection::HttpConnection(HttpServer *server, QTcpSocket *socket)
    : QObject(server), m_server(server), m_socket(socket), m_parser(server->limits().maxHeaderBytes, server->limits().maxBodyBytes)
{
    socket->setParent(this);
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    socket->setReadBufferSize(ReadChunkBytes);
    m_lastProgressMs = m_server->m_clock->nowMs();
    connect(socket, &QTcpSocket::readyRead, this, &HttpConnection::handleReadyRead);
    connect(socket, &QTcpSocket::disconnected, this, &HttpConnection::handleDisconnected);
    connect(socket, &QTcpSocket::bytesWritten, this, &HttpConnection::handleBytesWritten);
    armHeaderDeadline();
    if (socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &HttpConnection::handleReadyRead, Qt::QueuedConnection);
}

HttpConnection::~HttpConnection()
{
    m_server->release(this);
}

HttpConnection::Shed HttpConnection::shedClass() const
{
    if (m_exchange)
        return Shed::Busy;
    // A connection that has not yet sent a whole request counts as stalled, not idle: a client
    // that connects and waits is what slowloris looks like.
    if (m_served == 0 || m_parser.phase() != RequestParser::Phase::Idle || !m_inbuf.isEmpty() || pendingOutputBytes() > 0)
        return Shed::Stalled;
    return Shed::Idle;
}

void HttpConnection::shed()
{
    if (m_exchange && !m_exchange->isFinished())
        m_exchange->handleClientGone();
    closeNow();
}

qint64 HttpConnection::bufferedInputBytes() const
{
    return m_inbuf.size() + m_socket->bytesAvailable();
}

qint64 HttpConnection::pendingOutputBytes() const
{
    return m_out.size() + m_socket->bytesToWrite();
}

// Hands what the exchange assembled to the socket as one piece: one block in the socket's
// buffer, so one write(2) when the kernel takes it all.
bool HttpConnection::flushOutput()
{
    if (m_out.isEmpty())
        return false;
    send(m_out.constData(), m_out.size());
    // The capacity serves the next answer on this connection, unless one answer made it larger
    // than a typical head and JSON answer: an idle keep-alive connection holds at most this.
    if (m_out.capacity() > KeptOutputCapacity)
        m_out = QByteArray();
    else
        m_out.resize(0);
    return true;
}

// Answer bytes go to the kernel directly while the socket holds none of this connection's output:
// no copy into the socket's write buffer, and no write notifier switched on and off around the
// write (with GLib's event loop each switch adds or removes a poll entry and wakes the loop; the
// socket's 32 KiB write block is never allocated). What the kernel does not take yet is handed to
// the socket, which writes it, in order, when the client reads, and reports it with bytesWritten.
// (An accepted QTcpSocket cannot be opened unbuffered: only connectToHost honours Unbuffered.)
// `whole`, when the bytes are a QByteArray's, lets the socket share it if the kernel took none.
void HttpConnection::send(const char *data, qint64 size, const QByteArray *whole)
{
    if (m_socket->bytesToWrite() == 0 && m_socket->state() == QAbstractSocket::ConnectedState) {
        ssize_t n = 0;
        do {
            n = ::send(int(m_socket->socketDescriptor()), data, size_t(size), MSG_NOSIGNAL);
        } while (n < 0 && errno == EINTR);
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            // The client is gone (reset, or closed with our answer unread): what Qt does when its
            // own write fails, so the connection ends through `disconnected` as before.
            m_socket->abort();
            return;
        }
        if (n > 0) {
            m_lastProgressMs = m_server->m_clock->nowMs();
            data += n;
            size -= n;
        }
        if (size == 0)
            return;
        if (n > 0)
            whole = nullptr;
    }
    if (whole)
        m_socket->write(*whole);
    else
        m_socket->write(data, size);
    m_socket->flush();
}

// "The end of this event-loop turn": a zero-interval timer of the connection, started at most
// once per turn, fires after the current call stack has unwound. It flushes output an exchange
// held back, deletes finished exchanges (no caller can still be inside one of their calls) and
// serves the next pipelined request. A timer rather than a posted event (queued invokeMethod,
// deleteLater): registering a timer costs no system call, while every posted event allocates
// and writes the event loop's eventfd to wake it.
void HttpConnection::armTurn()
{
    if (m_turnTimer == 0)
        m_turnTimer = startTimer(0);
}

void HttpConnection::timerEvent(QTimerEvent *event)
{
    if (event->timerId() != m_turnTimer) {
        QObject::timerEvent(event);
        return;
    }
    killTimer(std::exchange(m_turnTimer, 0));
    if (m_exchange)
        m_exchange->flush();
    retireExchanges();
    if (!m_closing && !m_exchange && !outputBlocked() && (!m_inbuf.isEmpty() || m_socket->bytesAvailable() > 0))
        parseAvailable();
}

void HttpConnection::retireExchanges()
{
    qDeleteAll(std::exchange(m_retired, {}));
}

void HttpConnection::closeNow()
{
    m_closing = true;
    m_out.clear();
    m_headerDeadline.stop();
    m_bodyDeadline.stop();
    m_idleDeadline.stop();
    m_server->release(this);
    m_socket->abort();
    deleteLater();
}

void HttpConnection::armHeaderDeadline()
{
    m_headerDeadline.start(m_server->m_clock, m_server->limits().headerTimeoutMs, this, [this] {
        qCDebug(lcHttp) << "closing a connection whose headers did not arrive in time";
        closeNow();
    });
}

// Progress-based, like nginx's client_body_timeout: re-armed by every read while the body
// arrives, so a slow upload lives and a stalled one is answered.
void HttpConnection::armBodyDeadline()
{
    const qint64 limit = m_server->limits().bodyTimeoutMs;
    m_bodyDeadline.start(m_server->m_clock, limit, this, [this, limit] {
        qCDebug(lcHttp) << "answering 408 to a request whose body stalled";
        refuse(408, QStringLiteral("the request body stalled: no bytes arrived for %1 s after the headers or the last "
                                   "part; send the whole body promptly (Content-Length must match what is sent)")
                        .arg(limit / 1000));
    });
}

void HttpConnection::handleReadyRead()
{
    // While a request is served, or answers wait to be sent, the next one stays unread: Qt's
    // read buffer is bounded (ReadChunkBytes), so the rest waits in the kernel and TCP pushes back.
    if (m_closing && m_lingering)
        m_socket->skip(m_socket->bytesAvailable()); // the rest of a refused request, dropped
    if (m_closing || m_exchange)
        return;
    parseAvailable();
}

void HttpConnection::handleBytesWritten()
{
    m_lastProgressMs = m_server->m_clock->nowMs();
    if (m_lingering && m_socket->bytesToWrite() == 0)
        ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
    if (m_exchange) {
        m_exchange->handleBytesWritten();
        return;
    }
    if (!m_closing && !outputBlocked() && (!m_inbuf.isEmpty() || m_socket->bytesAvailable() > 0))
        parseAvailable();
}

bool HttpConnection::outputBlocked() const
{
    return pendingOutputBytes() > m_server->limits().maxPendingOutputBytes;
}

void HttpConnection::parseAvailable()
{
    using Phase = RequestParser::Phase;
    while (!m_closing && !m_exchange) {
        // Backpressure: a client that pipelines and does not read gets no further answers made.
        if (outputBlocked())
            return;
        if (m_inbuf.isEmpty()) {
            if (m_socket->bytesAvailable() <= 0)
                return;
            // What is there, not ReadChunkBytes: read(n) allocates n bytes up front (64 KiB per
            // request, then glibc consolidates after freeing it), and taking exactly the socket
            // buffer's next block moves it without a copy.
            m_inbuf = m_socket->read(qMin(ReadChunkBytes, m_socket->bytesAvailable()));
            m_lastProgressMs = m_server->m_clock->nowMs();
            if (m_inbuf.isEmpty())
                return;
        }
        const Phase before = m_parser.phase();
        qsizetype used = 0;
        try {
            used = m_parser.feed(m_inbuf.constData(), m_inbuf.size());
        } catch (const std::bad_alloc &) {
            refuse(503, QStringLiteral("the proxy is out of memory; retry shortly with a smaller request"));
            return;
        }
        if (used >= m_inbuf.size())
            m_inbuf = QByteArray(); // all read: no block held between requests (docs/performance.md, memory per stream)
        else
            m_inbuf.remove(0, used);
        const Phase now = m_parser.phase();
        if (now == Phase::Refused) {
            refuse(m_parser.refusalStatus(), m_parser.refusalMessage());
            return;
        }
        if (before == Phase::Idle && now != Phase::Idle) {
            m_idleDeadline.stop();
            if (!m_headerDeadline.isActive())
                armHeaderDeadline();
        }
        if (now == Phase::Body || now == Phase::Complete)
            m_headerDeadline.stop();
        if (m_parser.takeContinueRequest()) {
            static constexpr char Continue[] = "HTTP/1.1 100 Continue\r\n\r\n";
            send(Continue, sizeof Continue - 1);
        }
        if (now == Phase::Body) {
            armBodyDeadline();
        } else if (now == Phase::Complete) {
            m_bodyDeadline.stop();
            if (m_parser.upgrade())
                m_inbuf.clear(); // what follows an Upgrade request is not HTTP/1.1
            dispatchRequest();
        } else if (used == 0) {
            return; // nothing consumed and nothing changed: wait for more bytes
        }
    }
}

void HttpConnection::dispatchRequest()
{
    m_idleDeadline.stop();
    ++m_served;
    HttpRequest request = m_parser.takeRequest();
    request.localPort = m_socket->localPort();
    request.peer = m_socket->peerAddress();
    auto *exchange = new HttpExchange(this, std::move(request));
    m_exchange = exchange;
    try {
        m_server->m_handler->handle(exchange);
    } catch (const std::bad_alloc &) {
        // An allocation failure refuses this request; the process and other clients go on.
        qCWarning(lcHttp) << "out of memory while handling a request; answered 503";
        if (m_exchange && !m_exchange->headSent()) {
            HttpHeaders h;
            h.add("content-type", "application/json");
            m_exchange->respond(503, h,
                                Wire::errorBody(Wire::errorShapeForPath(m_exchange->request().path), 503,
                                                QStringLiteral("the proxy is out of memory; retry shortly")));
        } else if (m_exchange) {
            m_exchange->abortStream();
        }
    }
}

void HttpConnection::exchangeFinished(bool keepAlive)
{
    // Called from inside the exchange's own respond/finishStream/abortStream: it is deleted at
    // the end of the turn, not here.
    if (m_exchange)
        m_retired.append(m_exchange);
    m_exchange = nullptr;
    armTurn();
    m_lastProgressMs = m_server->m_clock->nowMs();
    if (!keepAlive || !m_parser.keepAlive() || m_parser.upgrade()) {
        m_closing = true;
        m_socket->disconnectFromHost();
        return;
    }
    m_idleDeadline.start(m_server->m_clock, m_server->limits().keepAliveIdleMs, this, [this] {
        m_closing = true;
        m_socket->disconnectFromHost();
    });
    // A pipelined request waiting is served at the end of the turn (armed above): parsing it
    // here would run its handler inside the previous answer's caller.
}

void HttpConnection::refuse(int status, const QString &message)
{
    qCDebug(lcHttp) << "refusing a request with" << status;
    m_closing = true;
    m_headerDeadline.stop();
    m_bodyDeadline.stop();
    m_idleDeadline.stop();
    // The path is known once the request line is in: the error takes that wire's shape.
    const QByteArray body = Wire::errorBody(Wire::errorShapeForPath(m_parser.currentPath()), status, message);
    m_socket->write("HTTP/1.1 " + QByteArray::number(status) + ' ' + http_status_str(http_status(status))
                    + "\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: " + QByteArray::number(body.size()) + "\r\n\r\n"
                    + body);
    // A lingering close (nginx's lingering_close): closing with the rest of the request unread
    // would send a reset that can destroy the answer before the client reads it. So: answer,
    // end our side once it is written, drop what still arrives, and give up after two seconds.
    m_lingering = true;
    m_socket->skip(m_socket->bytesAvailable());
    m_idleDeadline.start(m_server->m_clock, LingerMs, this, [this] { closeNow(); });
}

void HttpConnection::handleDisconnected()
{
    m_closing = true;
    m_out.clear();
    m_server->release(this);
    if (m_exchange && !m_exchange->isFinished())
        m_exchange->handleClientGone();
    deleteLater();
}

} // namespace Aile::Http
