#pragma once

#include "HttpHeaders.h"
#include "core/Clock.h"

#include <QtCore/QMultiHash>
#include <QtCore/QObject>
#include <QtCore/QUrl>

#include <functional>
#include <memory>

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
class UpstreamCall;

/// What a call tells its owner, on the engine thread and in order: connected (when it listens to
/// it), head, body…, then exactly one of finished or failed; nothing after abort() or after the
/// call is deleted. Any handler may abort or delete the call, or send another one: the client
/// touches neither the call nor the listener after a handler that did.
class UpstreamListener
{
public:
    /// TCP (and TLS) is up. On a reused pooled connection it comes just before the call's first
    /// other event, or from the event loop after send() returns when hearsConnected() says so.
    virtual void handleUpstreamConnected() { }
    /// Whether this listener needs `connected` as soon as the connection is there (a deadline that
    /// starts then), not only before the head. False: no event is posted for it.
    virtual bool hearsConnected() const { return false; }
    /// The final response head (interim 1xx heads are not reported): status() and headers() hold it.
    virtual void handleUpstreamHead() { }
    /// Body bytes as they arrive, de-chunked.
    virtual void handleUpstreamBody(const QByteArray &bytes) { Q_UNUSED(bytes); }
    virtual void handleUpstreamFinished() = 0;
    virtual void handleUpstreamFailed(UpstreamError error, const QString &detail) = 0;

protected:
    ~UpstreamListener() = default;
};

/// A listener made of functions, for callers off the hot path (probes, model tests, pings, tests):
/// an unset function ignores its event. Kept by the call it was sent with. A function that deletes
/// its call runs to its end: each runs from a copy of its own.
struct UpstreamCallbacks
{
    std::function<void()> connected; // set: heard as soon as the connection is up
    std::function<void(const UpstreamCall &call)> head;
    std::function<void(const QByteArray &bytes)> body;
    std::function<void(const UpstreamCall &call)> finished;
    std::function<void(UpstreamError error, const QString &detail)> failed;
};

/// One upstream request in flight: a plain object (no QObject, no signal, no posted deletion),
/// owned by whoever sent it (UpstreamClient::send returns it) and deleted when they are done with
/// it, from inside one of its own events too. Deleting it aborts it.
class UpstreamCall
{
public:
    ~UpstreamCall();
    UpstreamCall(const UpstreamCall &) = delete;
    UpstreamCall &operator=(const UpstreamCall &) = delete;

    /// Stops the call: its connection closes, and its listener hears nothing more.
    void abort();
    /// Stops reading the response: the socket's bounded buffer fills and TCP pushes back.
    void pauseReading();
    void resumeReading();
    int status() const { return m_status; }
    const HttpHeaders &headers() const { return m_headers; }
    bool reusedConnection() const { return m_reused; }
    /// Finished, failed or aborted: no event follows.
    bool isDone() const { return m_done; }

private:
    friend class UpstreamConnection;
    friend class UpstreamClient;
    class Relay; // an UpstreamCallbacks turned listener
    UpstreamCall(UpstreamClient *client, UpstreamListener *listener);
    /// Tells the listener `connected` if a reused connection still owes it (before any other event).
    /// False when the listener deleted the call meanwhile (then nothing of it may be touched).
    bool payConnected();
    void reportFailure(UpstreamError error, const QString &detail);
    /// The client is going: the call outlives it, detached.
    void orphan();

    UpstreamClient *m_client;                  // null once the client is gone
    UpstreamConnection *m_connection = nullptr; // while a connection carries it
    UpstreamListener *m_listener;
    std::unique_ptr<Relay> m_relay; // sent with callbacks: the listener, kept here
    UpstreamCall *m_prevLive = nullptr, *m_nextLive = nullptr; // the client's list of live calls
    int m_status = 0;
    HttpHeaders m_headers;
    bool m_reused = false;
    bool m_done = false;
    bool m_connectedOwed = false;
    bool m_noticePosted = false; // the client holds a notice for it (UpstreamClient::post)
    bool *m_deleted = nullptr;   // set while a handler runs that must know whether it deleted the call
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

    /// Sends request; listener hears the call's events (see UpstreamListener) and must outlive the
    /// call or delete it first. Nothing is heard before send() returns: what happens inside it (a
    /// write that fails at once) is told from the event loop.
    std::unique_ptr<UpstreamCall> send(const UpstreamRequest &request, UpstreamListener &listener);
    /// The same, the events told to callbacks that the call keeps.
    std::unique_ptr<UpstreamCall> send(const UpstreamRequest &request, UpstreamCallbacks callbacks);
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
    std::unique_ptr<UpstreamCall> start(UpstreamCall *call, const UpstreamRequest &request);
    /// What a call is owed from the event loop rather than from inside send(): a failure of the
    /// write done there, or `connected` on a reused connection. One posted event serves them all.
    struct Notice
    {
        UpstreamCall *call;
        bool failure;
        UpstreamError error;
        QString detail;
    };
    void post(Notice notice);
    void deliverNotices();
    void dropNotices(UpstreamCall *call);

    Clock *m_clock;
    qint64 m_idleKeepAliveMs = 4'000;
    QMultiHash<QString, UpstreamConnection *> m_idle;
    Deadline m_idleSweep; // one for the pool, armed for its oldest idle connection
    QList<QSslCertificate> *m_extraCa = nullptr;
    int m_open = 0;
    int m_liveCalls = 0;
    UpstreamCall *m_firstLive = nullptr; // every live call, so that one outliving the client is detached
    QList<Notice> m_notices;
    bool m_noticesPosted = false;
};

} // namespace Aile::Http
