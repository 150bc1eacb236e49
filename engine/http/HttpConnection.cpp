#include "HttpConnection.h"

#include "HttpExchange.h"
#include "HttpServer.h"
#include "wire/Wire.h"

#include <QtCore/QLoggingCategory>
#include <QtCore/QTimerEvent>

#include <memory>
#include <new>
#include <utility>

Q_LOGGING_CATEGORY(lcHttp, "aile.engine.http")

namespace Aile::Http {

namespace {

// At most this much is read from the kernel at once, and held unparsed while a request is
// served; past it the read notifier is off and TCP pushes back on the client. Together with the
// unparsed rest of one read it bounds what a connection holds of requests not yet served.
constexpr qsizetype ClientReadBytes = 64 * 1024;
constexpr qint64 LingerMs = 2'000;
constexpr qsizetype KeptOutputCapacity = 8 * 1024;

// One read block for every connection of the thread: a read lands here and the parser copies
// what the request keeps (target, headers, body), so no connection holds a block between
// requests and nothing is allocated per read. Only a rest that cannot be parsed yet (a pipelined
// request) is copied into the connection. Never held across a handler call: a handler that
// spins an event loop may read another connection into it.
char *clientReadBlock()
{
    thread_local const std::unique_ptr<char[]> block(new char[ClientReadBytes]);
    return block.get();
}

} // namespace

HttpConnection::HttpConnection(HttpServer *server, int descriptor, const QHostAddress &peer, quint16 localPort)
    : QObject(server),
      m_server(server),
      m_socket(descriptor, this, [this] { handleReadable(); }, [this] { handleWritable(); }),
      m_parser(server->limits().maxHeaderBytes, server->limits().maxBodyBytes),
      m_peer(peer),
      m_localPort(localPort)
{
    m_lastProgressMs = m_server->m_clock->nowMs();
    armHeaderDeadline();
}

HttpConnection::~HttpConnection()
{
    m_server->release(this);
    m_socket.close();
    // The exchanges go with their connection (their listeners hear exchangeEnded); a listener may
    // not start another answer here: the connection is closing.
    m_closing = true;
    retireExchanges();
    delete std::exchange(m_exchange, nullptr);
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
    closeNow();
}

qint64 HttpConnection::bufferedInputBytes() const
{
    return m_inbuf.size();
}

qint64 HttpConnection::pendingOutputBytes() const
{
    return m_out.size() + m_socket.queuedBytes();
}

// Hands what the exchange assembled to the socket as one piece: one send(2) when the kernel
// takes it all.
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

// Answer bytes go to the kernel at once, with send(2) on the descriptor; what the kernel does not
// take yet is queued and written, in order, when the client reads (handleWritable), and later
// bytes queue behind it. `whole`, when the bytes are a QByteArray's, is shared by the queue if
// the kernel took none. A failed write (the client reset, or closed with our answer unread)
// drops the client at the end of the turn: the exchange's caller is still on the stack.
void HttpConnection::send(const char *data, qint64 size, const QByteArray *whole)
{
    if (m_writeFailed || !m_socket.isOpen())
        return;
    const qint64 sent = m_socket.send(data, qsizetype(size), whole);
    if (sent == ClientSocket::Broken) {
        m_writeFailed = true;
        m_closing = true; // nothing more is read or served
        m_out.clear();
        armTurn();
        return;
    }
    noteSent(sent);
}

// Whatever the connection is doing (an answer streaming, a keep-alive wait, closing once its
// answer is out), answer bytes waiting in the socket's queue that the client takes none of for
// sendTimeoutMs end the connection (nginx's send_timeout): a local process that stops reading
// would otherwise hold the connection, its queued answer and a request's upstream call forever.
// A request still being served is abandoned, as when the client leaves (docs/hardening.md).
void HttpConnection::noteSent(qint64 sent)
{
    if (sent > 0)
        m_lastProgressMs = m_lastSentMs = m_server->m_clock->nowMs();
    if (m_socket.queuedBytes() == 0) {
        if (m_sendDeadline.isActive())
            m_sendDeadline.stop();
    } else if (!m_sendDeadline.isActive()) {
        m_lastSentMs = m_server->m_clock->nowMs(); // bytes began to wait: the client had all before
        armSendDeadline();
    }
}

// Counted from m_lastSentMs.
void HttpConnection::armSendDeadline()
{
    const qint64 limit = m_server->limits().sendTimeoutMs;
    if (limit <= 0)
        return;
    const qint64 now = m_server->m_clock->nowMs();
    m_sendDeadline.start(m_server->m_clock, limit - (now - m_lastSentMs), this, [this, limit] {
        if (m_socket.queuedBytes() == 0)
            return;
        if (m_server->m_clock->nowMs() - m_lastSentMs < limit)
            return armSendDeadline(); // the client took bytes meanwhile: counted from then
        qCInfo(lcHttp).noquote() << QStringLiteral("closing a connection from %1: its client has taken none of the %2 answer bytes waiting "
                                                   "for it for %3 s (the send timeout)")
                                        .arg(m_peer.toString())
                                        .arg(m_socket.queuedBytes())
                                        .arg(limit / 1000);
        closeNow();
    });
}

void HttpConnection::writeRaw(const QByteArray &bytes)
{
    flushOutput(); // what an exchange assembled goes first
    send(bytes.constData(), bytes.size(), &bytes);
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
    if (m_writeFailed) {
        dropClient();
        return;
    }
    if (m_exchange)
        m_exchange->flush();
    retireExchanges();
    if (!m_closing && !m_exchange && !outputBlocked() && !m_inbuf.isEmpty())
        parseBuffered();
    updateReading();
}

// The list keeps its capacity from turn to turn (no allocation per request); an exchange's
// listener may finish another exchange while it hears exchangeEnded, so deletion works on a
// list of its own.
void HttpConnection::retireExchanges()
{
    while (!m_retired.isEmpty()) {
        QList<HttpExchange *> retiring;
        retiring.swap(m_retired);
        for (HttpExchange *exchange : std::as_const(retiring))
            delete exchange;
        retiring.clear();
        if (m_retired.isEmpty())
            m_retired.swap(retiring);
    }
}

// Reading stays on while a request is served, so that a client that leaves (FIN or reset) is
// seen at once, and what it pipelines is held up to ClientReadBytes; past that, or while the
// connection is closing (except to drain a refused request), the kernel holds it.
void HttpConnection::updateReading()
{
    m_socket.setReading(m_lingering || (!m_closing && m_inbuf.size() < ClientReadBytes));
}

// The one way out: the client learns nothing more, an unfinished answer's producer hears
// clientGone, the descriptor is closed (once: ClientSocket) and the connection deleted later.
void HttpConnection::closeNow()
{
    m_closing = true;
    m_out.clear();
    m_headerDeadline.stop();
    m_bodyDeadline.stop();
    m_idleDeadline.stop();
    m_sendDeadline.stop();
    m_server->release(this);
    m_socket.close();
    if (m_exchange && !m_exchange->isFinished())
        m_exchange->handleClientGone();
    if (!std::exchange(m_deleting, true))
        deleteLater();
}

// Ends the connection once the queued answer has reached the kernel (Qt's disconnectFromHost).
void HttpConnection::closeWhenSent()
{
    m_closing = true;
    updateReading();
    if (m_socket.queuedBytes() == 0)
        closeNow();
    else
        m_closeWhenSent = true;
}

// A reset, or a write the client refused.
void HttpConnection::dropClient()
{
    qCDebug(lcHttp) << "the client reset its connection";
    closeNow();
}

// The client ended its side (FIN). A half-close cannot be told from a close until a write
// fails, and a request still being served for a client that left would spend its tokens for
// nobody: as nginx (499) and Go's server (the request's context cancelled) do, the request being
// served is abandoned (clientGone). Answers already written are delivered before the close.
void HttpConnection::handlePeerClosed()
{
    if (m_lingering || (m_exchange && !m_exchange->isFinished())) {
        closeNow();
        return;
    }
    m_inbuf.clear();
    closeWhenSent();
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

void HttpConnection::handleReadable()
{
    char *block = clientReadBlock();
    if (m_lingering) { // the rest of a refused request, dropped until the client closes
        const qsizetype n = m_socket.receive(block, ClientReadBytes);
        if (n == 0 || n == ClientSocket::Broken)
            closeNow();
        return;
    }
    const bool parseNow = !m_closing && !m_exchange && !outputBlocked();
    if (parseNow && !m_inbuf.isEmpty())
        parseBuffered(); // a rest held back: before what follows it
    const qsizetype room = ClientReadBytes - m_inbuf.size();
    if (m_closing || room <= 0) {
        updateReading();
        return;
    }
    const qsizetype n = m_socket.receive(block, room);
    if (n == ClientSocket::NothingYet)
        return;
    if (n == ClientSocket::Broken) {
        dropClient();
        return;
    }
    if (n == 0) {
        handlePeerClosed();
        return;
    }
    m_lastProgressMs = m_server->m_clock->nowMs();
    // While a request is served, or answers wait to be sent, the next one stays unparsed.
    if (m_inbuf.isEmpty() && !m_closing && !m_exchange && !outputBlocked()) {
        consume(block, n);
    } else {
        m_inbuf.append(block, n);
        updateReading();
    }
}

void HttpConnection::handleWritable()
{
    const qint64 sent = m_socket.flushQueued();
    if (sent == ClientSocket::Broken) {
        dropClient();
        return;
    }
    noteSent(sent);
    if (m_socket.queuedBytes() == 0) {
        if (m_lingering) {
            m_socket.shutdownWrite();
            return;
        }
        if (m_closeWhenSent) {
            closeNow();
            return;
        }
    }
    if (m_exchange) {
        m_exchange->handleBytesWritten();
        return;
    }
    if (!m_closing && !outputBlocked() && !m_inbuf.isEmpty())
        parseBuffered();
}

bool HttpConnection::outputBlocked() const
{
    return pendingOutputBytes() > m_server->limits().maxPendingOutputBytes;
}

void HttpConnection::parseBuffered()
{
    const QByteArray held = std::exchange(m_inbuf, {});
    consume(held.constData(), held.size());
}

// Parses `data` (the thread's read block, or a rest held back) for as long as a request may be
// served; what cannot be parsed yet is kept in m_inbuf, copied before any handler runs.
void HttpConnection::consume(const char *data, qsizetype size)
{
    using Phase = RequestParser::Phase;
    QByteArray rest; // a pipelined rest, while it is parsed after a request answered at once
    // Backpressure: a client that pipelines and does not read gets no further answers made.
    while (size > 0 && !m_closing && !m_exchange && !outputBlocked()) {
        const Phase before = m_parser.phase();
        qsizetype used = 0;
        try {
            used = m_parser.feed(data, size);
        } catch (const std::bad_alloc &) {
            refuse(503, QStringLiteral("the proxy is out of memory; retry shortly with a smaller request"));
            return;
        }
        data += used;
        size -= used;
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
                size = 0; // what follows an Upgrade request is not HTTP/1.1
            if (size > 0)
                m_inbuf = QByteArray(data, size);
            dispatchRequest();
            rest = std::exchange(m_inbuf, {});
            data = rest.constData();
            size = rest.size();
        } else if (used == 0) {
            break; // nothing consumed and nothing changed: wait for more bytes
        }
    }
    if (size > 0 && !m_closing)
        m_inbuf = QByteArray(data, size);
    updateReading();
}

void HttpConnection::dispatchRequest()
{
    m_idleDeadline.stop();
    ++m_served;
    HttpRequest request = m_parser.takeRequest();
    request.localPort = m_localPort;
    request.peer = m_peer;
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
        closeWhenSent();
        return;
    }
    m_idleDeadline.start(m_server->m_clock, m_server->limits().keepAliveIdleMs, this, [this] { closeWhenSent(); });
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
    const QByteArray answer = "HTTP/1.1 " + QByteArray::number(status) + ' ' + http_status_str(http_status(status))
                              + "\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: "
                              + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    // A lingering close (nginx's lingering_close): closing with the rest of the request unread
    // would send a reset that can destroy the answer before the client reads it. So: answer,
    // end our side once it is written, drop what still arrives, and give up after two seconds.
    m_lingering = true;
    m_inbuf.clear();
    send(answer.constData(), answer.size(), &answer);
    if (m_socket.queuedBytes() == 0)
        m_socket.shutdownWrite();
    updateReading();
    m_idleDeadline.start(m_server->m_clock, LingerMs, this, [this] { closeNow(); });
}

} // namespace Aile::Http
