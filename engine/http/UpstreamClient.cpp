#include "UpstreamClient.h"

#include <QtCore/QLoggingCategory>
#include <QtNetwork/QSslConfiguration>
#include <QtNetwork/QSslSocket>

#include <new>

Q_LOGGING_CATEGORY(lcUpstream, "aile.engine.upstream")

namespace Aile::Http {

QString upstreamErrorName(UpstreamError error)
{
    switch (error) {
    case UpstreamError::None: return QStringLiteral("none");
    case UpstreamError::ConnectFailed: return QStringLiteral("connect_failed");
    case UpstreamError::ConnectTimeout: return QStringLiteral("connect_timeout");
    case UpstreamError::TlsFailed: return QStringLiteral("tls_failed");
    case UpstreamError::ClosedBeforeHead: return QStringLiteral("closed_before_head");
    case UpstreamError::ClosedMidBody: return QStringLiteral("closed_mid_body");
    case UpstreamError::Protocol: return QStringLiteral("protocol_error");
    case UpstreamError::Aborted: return QStringLiteral("aborted");
    case UpstreamError::OutOfMemory: return QStringLiteral("out_of_memory");
    }
    return QStringLiteral("unknown");
}

/// One TCP (or TLS) connection to an origin, carrying one call at a time.
class UpstreamConnection : public QObject
{
public:
    UpstreamConnection(UpstreamClient *client, const QUrl &url);
    ~UpstreamConnection() override;

    void start(UpstreamCall *call, const UpstreamRequest &request);
    bool isReusable(qint64 now, qint64 maxIdleMs) const;
    void detach();      // the call was aborted: this connection is finished
    void pause() { m_paused = true; }
    void resume();

    QString origin;
    qint64 idleSinceMs = 0;
    Deadline idleDeadline;   // a pooled connection is closed once it is too old to reuse

private:
    void handleConnected();
    void handleReadyRead();
    void handleDisconnected();
    void handleSocketError();
    void fail(UpstreamError error, const QString &detail);
    void complete();
    void writeRequest();

    static const http_parser_settings &settings();
    static int onStatus(http_parser *p, const char *at, size_t len);
    /// Counts head bytes against MaxHeadBytes; false (and the reason kept) past it.
    bool countHead(size_t len);
    static int onHeaderField(http_parser *p, const char *at, size_t len);
    static int onHeaderValue(http_parser *p, const char *at, size_t len);
    static int onHeadersComplete(http_parser *p);
    static int onBody(http_parser *p, const char *at, size_t len);
    static int onMessageComplete(http_parser *p);

    UpstreamClient *m_client;
    QTcpSocket *m_socket;
    bool m_tls;
    QString m_host;
    quint16 m_port;
    bool m_connected = false;
    bool m_paused = false;
    bool m_messageComplete = false;
    bool m_broken = false;
    bool m_headSeen = false;
    QPointer<UpstreamCall> m_call;
    QByteArray m_pendingRequest;
    http_parser m_parser;
    QByteArray m_field, m_value;
    bool m_lastWasValue = false;
    qint64 m_headBytes = 0;
    int m_interim = 0;
    QString m_protocolError;   // why a callback stopped the parser
    bool m_outOfMemory = false;   // ... because holding the answer needed memory the machine did not give
    Deadline m_connectDeadline;
};

namespace {
QString originOf(const QUrl &url)
{
    return url.scheme() + QLatin1String("://") + url.host() + QLatin1Char(':')
           + QString::number(url.port(url.scheme() == QLatin1String("https") ? 443 : 80));
}
} // namespace

UpstreamConnection::UpstreamConnection(UpstreamClient *client, const QUrl &url)
    : QObject(client), origin(originOf(url)), m_client(client), m_tls(url.scheme() == QLatin1String("https")),
      m_host(url.host()), m_port(quint16(url.port(m_tls ? 443 : 80)))
{
    ++m_client->m_open;
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
    } else {
        m_socket = new QTcpSocket(this);
        connect(m_socket, &QTcpSocket::connected, this, &UpstreamConnection::handleConnected);
    }
    // Bounded: when the client reading our relay is slow we stop reading and TCP pushes back.
    m_socket->setReadBufferSize(64 * 1024);
    connect(m_socket, &QTcpSocket::readyRead, this, &UpstreamConnection::handleReadyRead);
    connect(m_socket, &QTcpSocket::disconnected, this, &UpstreamConnection::handleDisconnected);
    connect(m_socket, &QAbstractSocket::errorOccurred, this, &UpstreamConnection::handleSocketError);
}

UpstreamConnection::~UpstreamConnection()
{
    --m_client->m_open;
}

bool UpstreamConnection::isReusable(qint64 now, qint64 maxIdleMs) const
{
    return !m_broken && m_socket->state() == QAbstractSocket::ConnectedState && m_socket->bytesAvailable() == 0
           && now - idleSinceMs < maxIdleMs;
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
    m_field.clear();
    m_value.clear();
    http_parser_init(&m_parser, HTTP_RESPONSE);
    m_parser.data = this;

    QByteArray target = request.url.path(QUrl::FullyEncoded).toUtf8();
    if (target.isEmpty())
        target = "/";
    if (request.url.hasQuery())
        target += '?' + request.url.query(QUrl::FullyEncoded).toUtf8();
    QByteArray out;
    out.reserve(512 + request.body.size());
    out += request.method + ' ' + target + " HTTP/1.1\r\nhost: " + m_host.toUtf8();
    if (m_port != (m_tls ? 443 : 80))
        out += ':' + QByteArray::number(m_port);
    out += "\r\n";
    request.headers.appendTo(out);
    if (!request.body.isEmpty() || request.method == "POST" || request.method == "PUT")
        out += "content-length: " + QByteArray::number(request.body.size()) + "\r\n";
    out += "\r\n";
    out += request.body;
    m_pendingRequest = out;

    if (m_connected) {
        call->m_reused = true;
        QMetaObject::invokeMethod(this, [this] {
            if (m_call)
                Q_EMIT m_call->connected();
            writeRequest();
        }, Qt::QueuedConnection);
        return;
    }
    m_connectDeadline.start(m_client->m_clock, request.connectTimeoutMs, this, [this, ms = request.connectTimeoutMs] {
        fail(UpstreamError::ConnectTimeout, QStringLiteral("no connection to %1:%2 within %3 s").arg(m_host).arg(m_port).arg(ms / 1000.0));
    });
    if (m_tls)
        static_cast<QSslSocket *>(m_socket)->connectToHostEncrypted(m_host, m_port);
    else
        m_socket->connectToHost(m_host, m_port);
}

void UpstreamConnection::handleConnected()
{
    m_connectDeadline.stop();
    m_connected = true;
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    if (m_call)
        Q_EMIT m_call->connected();
    writeRequest();
}

void UpstreamConnection::writeRequest()
{
    if (!m_call || m_pendingRequest.isEmpty())
        return;
    m_socket->write(m_pendingRequest);
    m_socket->flush();
    m_pendingRequest.clear();
}

void UpstreamConnection::resume()
{
    m_paused = false;
    if (m_socket->bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &UpstreamConnection::handleReadyRead, Qt::QueuedConnection);
    else if (m_socket->state() != QAbstractSocket::ConnectedState)
        QMetaObject::invokeMethod(this, &UpstreamConnection::handleDisconnected, Qt::QueuedConnection);
}

void UpstreamConnection::handleReadyRead()
{
    if (m_paused || !m_call) {
        if (!m_call && m_socket->bytesAvailable() > 0) {
            // Bytes on an idle pooled connection: the server broke protocol; never reuse it.
            m_broken = true;
        }
        return;
    }
    while (!m_paused && m_call && m_socket->bytesAvailable() > 0) {
        const QByteArray data = m_socket->read(64 * 1024);
        const size_t parsed = http_parser_execute(&m_parser, &settings(), data.constData(), size_t(data.size()));
        if (!m_call)
            return; // aborted from a slot
        if (m_messageComplete) {
            complete();
            return;
        }
        if (HTTP_PARSER_ERRNO(&m_parser) != HPE_OK || parsed != size_t(data.size())) {
            fail(m_outOfMemory ? UpstreamError::OutOfMemory : UpstreamError::Protocol,
                 !m_protocolError.isEmpty()
                     ? m_protocolError
                     : QStringLiteral("malformed response: %1").arg(QString::fromLatin1(http_errno_description(HTTP_PARSER_ERRNO(&m_parser)))));
            return;
        }
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
    if (m_socket->bytesAvailable() > 0) {
        handleReadyRead();
        if (!m_call)
            return;
    }
    // EOF completes a body that runs to the end of the connection.
    http_parser_execute(&m_parser, &settings(), nullptr, 0);
    if (m_messageComplete) {
        complete();
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
    QPointer<UpstreamCall> call = m_call;
    m_call = nullptr;
    m_socket->abort();
    m_client->forget(this);
    if (call && !call->m_done) {
        call->m_done = true;
        call->m_connection = nullptr;
        Q_EMIT call->failed(error, detail);
    }
}

void UpstreamConnection::complete()
{
    QPointer<UpstreamCall> call = m_call;
    m_call = nullptr;
    const bool keepAlive = http_should_keep_alive(&m_parser) && m_socket->state() == QAbstractSocket::ConnectedState
                           && m_socket->bytesAvailable() == 0;
    if (call) {
        call->m_done = true;
        call->m_connection = nullptr;
    }
    if (keepAlive)
        m_client->release(this);
    else
        m_client->forget(this);
    if (call)
        Q_EMIT call->finished();
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
    if (self->m_lastWasValue) {
        if (self->m_call)
            self->m_call->m_headers.add(self->m_field, self->m_value);
        self->m_field.clear();
        self->m_value.clear();
        self->m_lastWasValue = false;
    }
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
        self->m_call->m_headers.add(self->m_field, self->m_value);
    self->m_field.clear();
    self->m_value.clear();
    self->m_lastWasValue = false;
    if (p->status_code == 101) {
        self->m_protocolError = QStringLiteral("the upstream switched protocols (HTTP 101) on a request that asked for none");
        return -1;
    }
    if (p->status_code / 100 == 1) {
        // An interim answer (100 Continue, 103 Early Hints): consumed, the final head follows.
        self->m_call->m_headers = HttpHeaders();
        if (++self->m_interim > UpstreamClient::MaxInterimAnswers) {
            self->m_protocolError = QStringLiteral("more than %1 interim (1xx) answers before the final one").arg(UpstreamClient::MaxInterimAnswers);
            return -1;
        }
        return 0;
    }
    self->m_headSeen = true;
    self->m_call->m_status = int(p->status_code);
    Q_EMIT self->m_call->headReceived();
    return 0;
}

int UpstreamConnection::onBody(http_parser *p, const char *at, size_t len)
{
    auto *self = static_cast<UpstreamConnection *>(p->data);
    if (!self->m_call)
        return 1;
    try {
        Q_EMIT self->m_call->bodyData(QByteArray(at, qsizetype(len)));
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
        return 0;   // an interim answer ends here; the parser reads the next head
    self->m_messageComplete = true;
    http_parser_pause(p, 1);
    return 0;
}

// ---- UpstreamCall ------------------------------------------------------------------------------

UpstreamCall::UpstreamCall(UpstreamClient *client, QObject *parent) : QObject(parent), m_client(client)
{
    ++client->m_liveCalls;
}

UpstreamCall::~UpstreamCall()
{
    if (!m_done && m_connection)
        m_connection->detach();
    if (m_client)
        --m_client->m_liveCalls;
}

void UpstreamCall::abort()
{
    if (m_done)
        return;
    m_done = true;
    if (m_connection)
        m_connection->detach();
    m_connection = nullptr;
}

void UpstreamCall::pauseReading()
{
    if (m_connection)
        m_connection->pause();
}

void UpstreamCall::resumeReading()
{
    if (m_connection)
        m_connection->resume();
}

// ---- UpstreamClient ----------------------------------------------------------------------------

UpstreamClient::UpstreamClient(Clock *clock, QObject *parent) : QObject(parent), m_clock(clock) {}

UpstreamClient::~UpstreamClient()
{
    // Each connection counts itself out of m_open: delete them while this is still an
    // UpstreamClient, not later from ~QObject (UBSan: member access in a destroyed object).
    qDeleteAll(findChildren<UpstreamConnection *>(Qt::FindDirectChildrenOnly));
    delete m_extraCa;
}

void UpstreamClient::addCaCertificates(const QList<QSslCertificate> &certificates)
{
    if (!m_extraCa)
        m_extraCa = new QList<QSslCertificate>;
    *m_extraCa += certificates;
}

UpstreamCall *UpstreamClient::send(const UpstreamRequest &request, QObject *owner)
{
    auto *call = new UpstreamCall(this, owner);
    const QString origin = originOf(request.url);
    const qint64 now = m_clock->nowMs();
    UpstreamConnection *connection = nullptr;
    while (UpstreamConnection *idle = m_idle.take(origin)) {
        idle->idleDeadline.stop();
        if (idle->isReusable(now, m_idleKeepAliveMs)) {
            connection = idle;
            break;
        }
        idle->deleteLater();
    }
    if (!connection)
        connection = new UpstreamConnection(this, request.url);
    connection->start(call, request);
    return call;
}

void UpstreamClient::release(UpstreamConnection *connection)
{
    connection->idleSinceMs = m_clock->nowMs();
    m_idle.insert(connection->origin, connection);
    // Closed when too old to reuse, not at the next send: an idle engine holds no upstream sockets.
    connection->idleDeadline.start(m_clock, m_idleKeepAliveMs, connection, [this, connection] { forget(connection); });
}

void UpstreamClient::forget(UpstreamConnection *connection)
{
    connection->idleDeadline.stop();
    m_idle.remove(connection->origin, connection);
    connection->deleteLater();
}

} // namespace Aile::Http
