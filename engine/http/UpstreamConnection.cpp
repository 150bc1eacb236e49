#include "UpstreamConnection.h"

#include <QtNetwork/QSslConfiguration>
#include <QtNetwork/QSslSocket>

#include <new>
#include <utility>

namespace Aile::Http {

namespace {
/// A response is read in slices of this size, into the stack (see handleReadyRead).
constexpr qint64 ReadSlice = 32 * 1024;

/// Appends a fully encoded URL part, which is ASCII by construction, without a temporary array.
void appendAscii(QByteArray &out, QStringView ascii)
{
    for (QChar c : ascii)
        out += char(c.unicode());
}

/// The response header names nearly every answer carries, as static arrays: a parsed head keeps
/// a copy of one of these (no allocation) rather than an array of its own per name.
QByteArray commonHeaderName(QByteArrayView lower)
{
    static const QByteArray names[] = {
        QByteArrayLiteral("content-type"),   QByteArrayLiteral("content-length"),    QByteArrayLiteral("date"),
        QByteArrayLiteral("server"),         QByteArrayLiteral("connection"),        QByteArrayLiteral("transfer-encoding"),
        QByteArrayLiteral("cache-control"),  QByteArrayLiteral("keep-alive"),        QByteArrayLiteral("x-request-id"),
        QByteArrayLiteral("request-id"),     QByteArrayLiteral("openai-processing-ms"), QByteArrayLiteral("vary"),
    };
    for (const QByteArray &name : names)
        if (name.size() == lower.size() && lower == name)
            return name;
    return QByteArray(lower.data(), lower.size());
}
} // namespace

UpstreamConnection::UpstreamConnection(UpstreamClient *client, const QUrl &url, const QString &origin)
    : QObject(client), origin(origin), m_client(client), m_tls(url.scheme() == QLatin1String("https")), m_unbuffered(!m_tls), m_host(url.host()),
      m_port(quint16(url.port(m_tls ? 443 : 80)))
{
    ++m_client->m_open;
    m_hostLine = "host: " + m_host.toUtf8();
    if (m_port != (m_tls ? 443 : 80))
        m_hostLine += ':' + QByteArray::number(m_port);
    m_hostLine += "\r\n";
    if (m_tls) {
        auto *ssl = new QSslSocket(this);
        if (m_client->m_extraCa) {
            QSslConfiguration config = ssl->sslConfiguration();
            QList<QSslCertificate> cas = config.caCertificates();
            cas += *m_client->m_extraCa;
            config.setCaCertificates(cas);
            ssl->setSslConfiguration(config);
        }
        connect(ssl, &QSslSocket::encrypted, this, &UpstreamConnection::handleConnected);
        connect(ssl, &QSslSocket::sslErrors, this, [this](const QList<QSslError> &errors) {
            fail(UpstreamError::TlsFailed, errors.isEmpty() ? QStringLiteral("TLS error") : errors.first().errorString());
        });
        m_socket = ssl;
        // Bounded: when the client reading our relay is slow we stop reading and TCP pushes back.
        m_socket->setReadBufferSize(64 * 1024);
    } else {
        // Unbuffered, nothing is read while the relay is paused: the kernel's buffer fills and TCP pushes back.
        m_socket = new QTcpSocket(this);
        connect(m_socket, &QTcpSocket::connected, this, &UpstreamConnection::handleConnected);
    }
    connect(m_socket, &QTcpSocket::readyRead, this, &UpstreamConnection::handleReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &UpstreamConnection::handleDisconnected);
    connect(m_socket, &QAbstractSocket::errorOccurred, this, &UpstreamConnection::handleSocketError);
}

UpstreamConnection::~UpstreamConnection()
{
    if (m_call)
        m_call->m_connection = nullptr; // the client is going with its connections; the call stays its owner's
    --m_client->m_open;
}

bool UpstreamConnection::isReusable(qint64 now, qint64 maxIdleMs) const
{
    // Bytes or the end on an idle connection mark it broken when the event loop sees them
    // (handleReadyRead); an unbuffered socket is not asked the kernel (an ioctl per request) here,
    // which is what a buffered one knows too.
    return !m_broken && m_socket->state() == QAbstractSocket::ConnectedState && (m_unbuffered || m_socket->bytesAvailable() == 0)
           && now - idleSinceMs < maxIdleMs;
}

QByteArray UpstreamConnection::serialise(const UpstreamRequest &request) const
{
    const QString path = request.url.path(QUrl::FullyEncoded);
    const QString query = request.url.hasQuery() ? request.url.query(QUrl::FullyEncoded) : QString();
    qsizetype headerBytes = 0;
    for (const HttpHeaders::Entry &e : request.headers.entries())
        headerBytes += e.first.size() + e.second.size() + 4;
    // Head and body in one buffer, sized once: the request leaves in one write(2).
    QByteArray out;
    out.reserve(request.method.size() + path.size() + query.size() + m_hostLine.size() + headerBytes + request.body.size() + 64);
    out += request.method;
    out += ' ';
    if (path.isEmpty())
        out += '/';
    else
        appendAscii(out, path);
    if (!query.isNull()) {
        out += '?';
        appendAscii(out, query);
    }
    out += " HTTP/1.1\r\n";
    out += m_hostLine;
    request.headers.appendTo(out);
    if (!request.body.isEmpty() || request.method == "POST" || request.method == "PUT") {
        out += "content-length: ";
        out += QByteArray::number(request.body.size());
        out += "\r\n";
    }
    out += "\r\n";
    out += request.body;
    return out;
}

void UpstreamConnection::start(UpstreamCall *call, const UpstreamRequest &request)
{
    m_call = call;
    call->m_connection = this;
    m_messageComplete = false;
    m_headSeen = false;
    m_paused = false;
    m_lastWasValue = false;
    m_headBytes = 0;
    m_interim = 0;
    m_protocolError.clear();
    m_outOfMemory = false;
    m_field.resize(0);
    m_value.resize(0);
    call->m_headers.reserve(UpstreamClient::ExpectedHeaders);
    http_parser_init(&m_parser, HTTP_RESPONSE);
    m_parser.data = this;

    if (m_connected) {
        // A pooled connection is idle and connected: the request is written now, not from a posted
        // event (an eventfd wake-up and a dispatch per request). Nothing can be read before the engine
        // is back in its event loop, after send() has returned the call to its owner; what could
        // be told during the write itself (a failed write) is deferred by fail(). `connected` is
        // owed to the caller: paid before the first other event, or from the event loop to a
        // listener that needs it at once (UpstreamClient::start).
        call->m_reused = true;
        call->m_connectedOwed = true;
        m_writing = true;
        send(serialise(request));
        m_writing = false;
        return;
    }
    m_pendingRequest = serialise(request);
    m_connectDeadline.start(m_client->m_clock, request.connectTimeoutMs, this, [this, ms = request.connectTimeoutMs] {
        fail(UpstreamError::ConnectTimeout, QStringLiteral("no connection to %1:%2 within %3 s").arg(m_host).arg(m_port).arg(ms / 1000.0));
    });
    if (m_tls)
        static_cast<QSslSocket *>(m_socket)->connectToHostEncrypted(m_host, m_port);
    else
        m_socket->connectToHost(m_host, m_port, QIODevice::ReadWrite | QIODevice::Unbuffered);
}

void UpstreamConnection::handleConnected()
{
    m_connectDeadline.stop();
    m_connected = true;
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    if (m_call)
        m_call->m_listener->handleUpstreamConnected();
    writeRequest(); // nothing when the handler aborted or deleted the call (m_call cleared)
}

void UpstreamConnection::writeRequest()
{
    if (!m_call || m_pendingRequest.isEmpty())
        return;
    const QByteArray bytes = std::exchange(m_pendingRequest, QByteArray());
    send(bytes);
}

void UpstreamConnection::send(const QByteArray &bytes)
{
    // Unbuffered, the bytes go straight to the kernel (what it does not take yet is kept by Qt
    // and written when the socket is writable); buffered, flush() writes them now.
    if (m_socket->write(bytes) < 0) {
        // An unbuffered write reports its error by its result, not by a signal.
        fail(UpstreamError::ClosedBeforeHead, m_socket->errorString());
        return;
    }
    if (!m_unbuffered)
        m_socket->flush();
}

void UpstreamConnection::resume()
{
    m_paused = false;
    // Posted, not called: the caller resumes from inside its own handler (the client drained), and
    // reading here would run its bodyData slot re-entrantly. Rare: only after back-pressure. An
    // unbuffered socket is always read then: its end, if it came while paused, is seen by a read.
    if (m_unbuffered || m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &UpstreamConnection::handleReadyRead, Qt::QueuedConnection);
    else if (m_socket->state() != QAbstractSocket::ConnectedState)
        QMetaObject::invokeMethod(this, &UpstreamConnection::handleDisconnected, Qt::QueuedConnection);
}

void UpstreamConnection::handleReadyRead()
{
    if (!m_call) {
        // Bytes on an idle pooled connection: the server broke protocol (or, unbuffered, the
        // connection ended, seen by this read); never reuse it.
        char probe;
        if (m_unbuffered ? m_socket->read(&probe, 1) != 0 : m_socket->bytesAvailable() > 0) {
            m_broken = true;
            m_client->forget(this);
        }
        return;
    }
    if (m_paused)
        return;
    if (!m_call->payConnected())
        return; // its `connected` handler deleted the call (and detached this connection)
    // Read into the stack, not into a QByteArray per read (a 64 KiB allocation and, freed, a
    // malloc_consolidate per response in profile 1). The stack, not a member: a slot run from the
    // parser's callbacks may, through a nested event loop, read another connection.
    char slice[ReadSlice];
    while (!m_paused && m_call && (m_unbuffered || m_socket->bytesAvailable() > 0)) {
        const qint64 n = m_socket->read(slice, ReadSlice);
        if (n < 0 && m_unbuffered) {
            handleEnd(); // the connection ended (or broke): Qt says so only through this read
            return;
        }
        if (n <= 0)
            return;
        const size_t parsed = http_parser_execute(&m_parser, &settings(), slice, size_t(n));
        if (!m_call)
            return; // aborted or deleted from one of its handlers
        if (m_messageComplete) {
            complete(parsed != size_t(n));
            return;
        }
        if (HTTP_PARSER_ERRNO(&m_parser) != HPE_OK || parsed != size_t(n)) {
            fail(m_outOfMemory ? UpstreamError::OutOfMemory : UpstreamError::Protocol,
                 !m_protocolError.isEmpty()
                     ? m_protocolError
                     : QStringLiteral("malformed response: %1").arg(QString::fromLatin1(http_errno_description(HTTP_PARSER_ERRNO(&m_parser)))));
            return;
        }
        if (m_unbuffered && n < ReadSlice)
            return; // the kernel had no more; its read notification comes back for what follows
    }
}

void UpstreamConnection::handleDisconnected()
{
    if (!m_call) {
        m_broken = true;
        m_client->forget(this);
        return;
    }
    if (m_paused)
        return; // buffered bytes are read on resume; the end is seen then
    if (m_unbuffered || m_socket->bytesAvailable() > 0) {
        handleReadyRead();
        if (!m_call)
            return;
    }
    handleEnd();
}

void UpstreamConnection::handleEnd()
{
    if (m_unbuffered && m_socket->error() != QAbstractSocket::RemoteHostClosedError && m_socket->error() != QAbstractSocket::UnknownSocketError) {
        // Unbuffered, a broken connection is reported by the read that saw it, not by errorOccurred.
        fail(m_headSeen ? UpstreamError::ClosedMidBody : UpstreamError::ClosedBeforeHead, m_socket->errorString());
        return;
    }
    // EOF completes a body that runs to the end of the connection.
    http_parser_execute(&m_parser, &settings(), nullptr, 0);
    if (m_messageComplete) {
        complete(false);
        return;
    }
    fail(m_headSeen ? UpstreamError::ClosedMidBody : UpstreamError::ClosedBeforeHead,
         m_headSeen ? QStringLiteral("the upstream closed the connection inside the response body")
                    : QStringLiteral("the upstream closed the connection before answering"));
}

void UpstreamConnection::handleSocketError()
{
    if (!m_call) {
        m_broken = true;
        return;
    }
    const auto err = m_socket->error();
    if (err == QAbstractSocket::RemoteHostClosedError)
        return; // handled by disconnected
    if (m_connected) {
        fail(m_headSeen ? UpstreamError::ClosedMidBody : UpstreamError::ClosedBeforeHead, m_socket->errorString());
        return;
    }
    const bool tls = err == QAbstractSocket::SslHandshakeFailedError || err == QAbstractSocket::SslInternalError
                     || err == QAbstractSocket::SslInvalidUserDataError;
    fail(tls ? UpstreamError::TlsFailed : UpstreamError::ConnectFailed, m_socket->errorString());
}

void UpstreamConnection::fail(UpstreamError error, const QString &detail)
{
    m_connectDeadline.stop();
    m_broken = true;
    UpstreamCall *call = std::exchange(m_call, nullptr);
    m_socket->abort();
    m_client->forget(this);
    if (!call || call->m_done)
        return;
    call->m_connection = nullptr;
    if (m_writing) {
        // The write that failed runs inside UpstreamClient::send: its caller does not hold the call
        // yet. Reported from the event loop instead (not at all once aborted or deleted).
        m_client->post({call, true, error, detail});
        return;
    }
    call->reportFailure(error, detail);
}

void UpstreamConnection::complete(bool bytesLeft)
{
    UpstreamCall *call = std::exchange(m_call, nullptr);
    // Bytes after the answer, in this read or (buffered) in the socket's buffer: the connection is
    // out of step with its server and is not reused.
    const bool keepAlive = http_should_keep_alive(&m_parser) && m_socket->state() == QAbstractSocket::ConnectedState && !bytesLeft
                           && (m_unbuffered || m_socket->bytesAvailable() == 0);
    if (call)
        call->m_connection = nullptr;
    if (keepAlive)
        m_client->release(this);
    else
        m_client->forget(this);
    // The connection is back in the pool (or gone) before the caller hears anything: a handler
    // may send the next request on it. The call is done only after its `connected` (a handler of
    // which may abort or delete it).
    if (!call || !call->payConnected() || call->m_done)
        return;
    call->m_done = true;
    call->m_listener->handleUpstreamFinished();
}

void UpstreamConnection::detach()
{
    m_call = nullptr;
    m_broken = true;
    m_connectDeadline.stop();
    m_socket->abort();
    m_client->forget(this);
}

const http_parser_settings &UpstreamConnection::settings()
{
    static const http_parser_settings s = [] {
        http_parser_settings init;
        http_parser_settings_init(&init);
        init.on_status = &UpstreamConnection::onStatus;
        init.on_header_field = &UpstreamConnection::onHeaderField;
        init.on_header_value = &UpstreamConnection::onHeaderValue;
        init.on_headers_complete = &UpstreamConnection::onHeadersComplete;
        init.on_body = &UpstreamConnection::onBody;
        init.on_message_complete = &UpstreamConnection::onMessageComplete;
        return init;
    }();
    return s;
}

bool UpstreamConnection::countHead(size_t len)
{
    m_headBytes += qint64(len);
    if (m_headBytes <= UpstreamClient::MaxHeadBytes)
        return true;
    m_protocolError = QStringLiteral("the response head is larger than %1 KiB").arg(UpstreamClient::MaxHeadBytes / 1024);
    return false;
}

void UpstreamConnection::addHeader()
{
    // The name is lower-cased in place and handed over lower case (HttpHeaders has nothing left
    // to lower); a common name is a static array. m_field and m_value keep their capacity for the
    // next line.
    for (char &c : m_field)
        if (c >= 'A' && c <= 'Z')
            c = char(c + ('a' - 'A'));
    if (m_call)
        m_call->m_headers.addLowerCase(commonHeaderName(m_field), QByteArray(m_value.constData(), m_value.size()));
    m_field.resize(0);
    m_value.resize(0);
    m_lastWasValue = false;
}

int UpstreamConnection::onStatus(http_parser *p, const char *, size_t len)
{
    // The status line's fixed part ("HTTP/1.1 200 ") and its line end count too.
    return static_cast<UpstreamConnection *>(p->data)->countHead(len + 15) ? 0 : 1;
}

int UpstreamConnection::onHeaderField(http_parser *p, const char *at, size_t len)
{
    auto *self = static_cast<UpstreamConnection *>(p->data);
    // ": " and the line end of a header line count as well: many empty headers still cost.
    if (!self->countHead(len + (self->m_lastWasValue || self->m_field.isEmpty() ? 4 : 0)))
        return 1;
    if (self->m_lastWasValue)
        self->addHeader();
    self->m_field.append(at, qsizetype(len));
    return 0;
}

int UpstreamConnection::onHeaderValue(http_parser *p, const char *at, size_t len)
{
    auto *self = static_cast<UpstreamConnection *>(p->data);
    if (!self->countHead(len))
        return 1;
    self->m_value.append(at, qsizetype(len));
    self->m_lastWasValue = true;
    return 0;
}

int UpstreamConnection::onHeadersComplete(http_parser *p)
{
    auto *self = static_cast<UpstreamConnection *>(p->data);
    if (!self->m_call)
        return 1;
    if (!self->m_field.isEmpty())
        self->addHeader();
    self->m_field.resize(0);
    self->m_value.resize(0);
    self->m_lastWasValue = false;
    if (p->status_code == 101) {
        self->m_protocolError = QStringLiteral("the upstream switched protocols (HTTP 101) on a request that asked for none");
        return -1;
    }
    if (p->status_code / 100 == 1) {
        // An interim answer (100 Continue, 103 Early Hints): consumed, the final head follows.
        self->m_call->m_headers = HttpHeaders();
        self->m_call->m_headers.reserve(UpstreamClient::ExpectedHeaders);
        if (++self->m_interim > UpstreamClient::MaxInterimAnswers) {
            self->m_protocolError = QStringLiteral("more than %1 interim (1xx) answers before the final one").arg(UpstreamClient::MaxInterimAnswers);
            return -1;
        }
        return 0;
    }
    self->m_headSeen = true;
    self->m_call->m_status = int(p->status_code);
    self->m_call->m_listener->handleUpstreamHead();
    return self->m_call ? 0 : -1; // the handler aborted or deleted the call: read no further
}

int UpstreamConnection::onBody(http_parser *p, const char *at, size_t len)
{
    auto *self = static_cast<UpstreamConnection *>(p->data);
    if (!self->m_call)
        return 1;
    try {
        self->m_call->m_listener->handleUpstreamBody(QByteArray(at, qsizetype(len)));
    } catch (const std::bad_alloc &) {
        // Holding this answer needed more memory than the machine gave: the attempt fails (the
        // client gets the wire's error), the process and its other requests go on.
        self->m_protocolError = QStringLiteral("the proxy ran out of memory while holding the upstream's answer");
        self->m_outOfMemory = true;
        return 1;
    }
    return self->m_call ? 0 : 1;
}

int UpstreamConnection::onMessageComplete(http_parser *p)
{
    auto *self = static_cast<UpstreamConnection *>(p->data);
    if (p->status_code / 100 == 1)
        return 0; // an interim answer ends here; the parser reads the next head
    self->m_messageComplete = true;
    http_parser_pause(p, 1);
    return 0;
}

} // namespace Aile::Http
