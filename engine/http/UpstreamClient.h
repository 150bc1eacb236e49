#pragma once

#include "HttpHeaders.h"
#include "core/Clock.h"

#include <QtCore/QMultiHash>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QUrl>

#include <http_parser.h>

class QTcpSocket;
class QSslCertificate;

namespace Aile::Http {

enum class UpstreamError {
    None,
    ConnectFailed,    // refused, unreachable, DNS
    ConnectTimeout,   // TCP + TLS not up within the connect bound
    TlsFailed,        // handshake or certificate
    ClosedBeforeHead, // the connection ended before a response head
    ClosedMidBody,    // the connection ended inside the body
    Protocol,         // the response could not be parsed
    Aborted,          // we aborted it
    OutOfMemory,      // the proxy could not hold the answer: its own memory, not the upstream's fault
};
QString upstreamErrorName(UpstreamError error);

struct UpstreamRequest
{
    QByteArray method = QByteArrayLiteral("POST"); // static data: no allocation per request
    QUrl url;            // http or https; path and query as they go upstream
    HttpHeaders headers; // host and content-length are added by the client
    QByteArray body;
    qint64 connectTimeoutMs = 12'000;
};

class UpstreamConnection;
class UpstreamClient;

/// One upstream request in flight. Created by UpstreamClient::send; parented to the caller's
/// object. Signals arrive on the engine thread in order: connected, headReceived, bodyData…,
/// then exactly one of finished or failed (none after abort()).
class UpstreamCall : public QObject
{
    Q_OBJECT
public:
    ~UpstreamCall() override;
    void abort();
    /// Stops reading the response: the socket's bounded buffer fills and TCP pushes back.
    void pauseReading();
    void resumeReading();
    int status() const { return m_status; }
    const HttpHeaders &headers() const { return m_headers; }
    bool reusedConnection() const { return m_reused; }
    bool isDone() const { return m_done; }

Q_SIGNALS:
    /// On a reused pooled connection, emitted from the event loop after send() returns (or just
    /// before the call's first other signal).
    void connected();
    void headReceived();
    void bodyData(const QByteArray &bytes);
    void finished();
    void failed(Aile::Http::UpstreamError error, const QString &detail);

protected:
    void connectNotify(const QMetaMethod &signal) override;

private:
    friend class UpstreamConnection;
    friend class UpstreamClient;
    UpstreamCall(UpstreamClient *client, QObject *parent);
    /// Emits a `connected` still owed for a reused connection (ordering: before any other signal).
    void payConnected();
    void reportFailure(UpstreamError error, const QString &detail);

    QPointer<UpstreamClient> m_client;
    QPointer<UpstreamConnection> m_connection;
    int m_status = 0;
    HttpHeaders m_headers;
    bool m_reused = false;
    bool m_done = false;
    bool m_connectedOwed = false;
};

/// The upstream HTTP/1.1 client: a keep-alive pool per origin on QTcpSocket/QSslSocket with
/// http-parser. See docs/upstream-client.md for why this is not QNetworkAccessManager.
class UpstreamClient : public QObject
{
    Q_OBJECT
public:
    explicit UpstreamClient(Clock *clock, QObject *parent = nullptr);
    ~UpstreamClient() override;

    /// A response head (status line and header lines, interim 1xx heads included) larger than
    /// this is a protocol failure: the engine never buffers an endless head.
    static constexpr qint64 MaxHeadBytes = 64 * 1024;
    /// Interim answers (100 Continue, 103 Early Hints) read before the final head, at most.
    static constexpr int MaxInterimAnswers = 8;
    /// Header lines a response's list has room for from the start (providers send 10 to 30).
    /// 20 entries stay under 1 KiB, glibc's bound past which an allocation consolidates its bins.
    static constexpr qsizetype ExpectedHeaders = 20;

    UpstreamCall *send(const UpstreamRequest &request, QObject *owner);
    /// An idle pooled connection older than this is closed rather than reused (a server's own
    /// keep-alive timeout must not race our next request).
    void setIdleKeepAliveMs(qint64 ms) { m_idleKeepAliveMs = ms; }
    void addCaCertificates(const QList<QSslCertificate> &certificates);
    int idleConnections() const { return int(m_idle.size()); }
    int openConnections() const { return m_open; }
    /// Calls that exist (in flight, or finished and not yet deleted by their owner).
    int liveCalls() const { return m_liveCalls; }

private:
    friend class UpstreamConnection;
    friend class UpstreamCall;
    void release(UpstreamConnection *connection);
    void forget(UpstreamConnection *connection);
    void closeIdleTooOld();

    Clock *m_clock;
    qint64 m_idleKeepAliveMs = 4'000;
    QMultiHash<QString, UpstreamConnection *> m_idle;
    Deadline m_idleSweep; // one for the pool, armed for its oldest idle connection
    QList<QSslCertificate> *m_extraCa = nullptr;
    int m_open = 0;
    int m_liveCalls = 0;
};

} // namespace Aile::Http
