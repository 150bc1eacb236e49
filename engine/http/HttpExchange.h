#pragma once

#include "HttpRequest.h"

#include <functional>
#include <memory>

namespace Aile::Http {

class HttpConnection;
class HttpExchange;

/// What the request handler learnt of the credential a client presents (Api::ApiRouter: its key's
/// SHA-256), kept while the connection lives: a keep-alive client sends the same key on every
/// request, and hashing it again took ~7k instructions a request (docs/performance.md
/// "Change 16 (admit)").
struct CredentialMemo
{
    QString presented; // the key as the client presented it
    QString digest;
};

/// What the owner of an answer in progress hears from its exchange, by virtual call (no QObject,
/// signal or connection per request). One listener per exchange (HttpExchange::setListener).
/// After a call returns the exchange touches the listener no more, so a listener may finish the
/// exchange, detach itself or delete itself from inside any of these.
class ExchangeListener
{
public:
    /// Pending bytes fell below LowWaterBytes after having been above HighWaterBytes.
    virtual void exchangeDrained() { }
    /// The client went away before the answer was finished (told once). The exchange lives on
    /// until its connection goes; what is written to it meanwhile goes nowhere.
    virtual void exchangeClientGone() { }
    /// The exchange is being deleted (told exactly once, the last thing it tells): its answer was
    /// finished and the turn is over, or its connection is going. Drop every pointer to it.
    virtual void exchangeEnded() { }

protected:
    ~ExchangeListener() = default;
};

/// A listener made of functions, for callers off the hot path (tests, the fake upstream): an
/// unset function ignores its event. Kept by the exchange (HttpExchange::listen).
struct ExchangeCallbacks
{
    // Initialised, so that a caller naming only the events it wants ({.clientGone = ...}) is not
    // told by -Wmissing-field-initializers that it left the others out.
    std::function<void()> drained{};
    std::function<void()> clientGone{};
    std::function<void()> ended{};
};

/// A weak reference to an exchange for code that answers later (a timer, a management call)
/// without being its listener: null once the exchange is deleted. An exchange's first ref()
/// allocates the slot its references share; the proxy's path takes none.
class ExchangeRef
{
public:
    ExchangeRef() = default;
    HttpExchange *get() const { return m_slot ? *m_slot : nullptr; }
    bool isNull() const { return get() == nullptr; }
    operator HttpExchange *() const { return get(); }
    HttpExchange *operator->() const { return get(); }

private:
    friend class HttpExchange;
    explicit ExchangeRef(std::shared_ptr<HttpExchange *> slot) : m_slot(std::move(slot)) { }
    std::shared_ptr<HttpExchange *> m_slot;
};

/// One request and its response on an inbound connection. The handler answers either at once
/// (respond) or as a stream (startStream, writeChunk, finishStream). The exchange may vanish
/// when the client goes away: its owner listens (setListener: clientGone, drained, ended), or
/// holds an ExchangeRef. A plain object (no QObject): its connection owns it and deletes it at the
/// end of the event-loop turn in which it finished (never inside one of its own calls), or with
/// the connection; either way its listener hears exchangeEnded exactly once, first.
///
/// Writing: what an answer writes is assembled in its connection's output buffer and handed to
/// the socket in one piece at a flush point, so an answer costs one write(2), not one per part
/// (each write to a loopback socket costs kernel work and wakes the client again). respond,
/// finishStream, abortStream and a chunked writeChunk flush at once; a head, and the body of an
/// answer with a Content-Length, wait for the next of those, for HoldBytes to gather, or for the
/// end of the current event-loop turn (HttpConnection's turn timer).
class HttpExchange
{
public:
    HttpExchange(HttpConnection *connection, HttpRequest request);
    ~HttpExchange();
    HttpExchange(const HttpExchange &) = delete;
    HttpExchange &operator=(const HttpExchange &) = delete;

    const HttpRequest &request() const { return m_request; }
    quint64 id() const { return m_id; }
    /// The connection the request came on (test support: the raw bytes a fake upstream writes).
    HttpConnection *connection() const { return m_connection; }
    /// The memo of the connection the request came on.
    CredentialMemo &credentialMemo();

    /// Who hears clientGone, drained and ended; null: nobody. Replaces the previous listener.
    void setListener(ExchangeListener *listener) { m_listener = listener; }
    ExchangeListener *listener() const { return m_listener; }
    /// Listens with functions the exchange keeps (replaces the listener).
    void listen(ExchangeCallbacks callbacks);
    /// A weak reference: null once this exchange is deleted.
    ExchangeRef ref();

    /// A complete answer with Content-Length.
    void respond(int status, const HttpHeaders &headers, const QByteArray &body);
    /// Starts an answer whose body follows in pieces; the head goes out with the first flush
    /// (at the latest at the end of this event-loop turn). With a known contentLength the body is
    /// sent as is, otherwise with chunked transfer-encoding.
    void startStream(int status, const HttpHeaders &headers, qint64 contentLength = -1);
    /// Sends bytes of a streamed answer: a chunk (size line, data and CRLF in one write) at
    /// once; a Content-Length body's bytes by the end of this event-loop turn.
    void writeChunk(const QByteArray &data);
    void finishStream();
    /// Ends a streamed answer without its terminating chunk, so the client sees a cut.
    void abortStream();

    /// Runs once, right before the answer's last bytes go to the socket (respond, finishStream):
    /// what must be recorded before a client can hold the whole answer (the ledger journal). With
    /// a known Content-Length, the body's last byte is held back until finishStream for this.
    void setBeforeLastBytes(std::function<void()> hook) { m_beforeLastBytes = std::move(hook); }

    bool headSent() const { return m_headSent; }
    bool isFinished() const { return m_finished; }
    bool isClientGone() const { return m_clientGone; }
    /// Bytes accepted from writeChunk that the connection has not yet handed to the kernel.
    qint64 pendingBytes() const;
    /// How many times this exchange's bytes were handed to the socket (one per flush point, the
    /// figure behind "one write per answer"; tests read it).
    int socketHandOffs() const { return m_handOffs; }
    /// Whether the connection's end-of-turn pass is armed (tests: a relayed chunk that left at
    /// once arms none, so an SSE event costs one pass of the event loop, not two).
    bool endOfTurnArmed() const;
    /// Pending output past this goes to the socket without waiting for the end of the turn
    /// (below LowWaterBytes, so held output alone never keeps a producer paused).
    static constexpr qsizetype HoldBytes = 32 * 1024;
    /// Above this many pending bytes a producer should pause; exchangeDrained says when to resume.
    static constexpr qint64 HighWaterBytes = 256 * 1024;
    static constexpr qint64 LowWaterBytes = 64 * 1024;

private:
    friend class HttpConnection;
    void handleBytesWritten();
    void handleClientGone();
    void writeHead(int status, const HttpHeaders &headers, qint64 contentLength);
    void put(const char *data, qsizetype size);
    void put(const QByteArray &bytes);
    void flush();
    void runBeforeLastBytes();

    HttpConnection *m_connection;
    HttpRequest m_request;
    quint64 m_id;
    bool m_headSent = false;
    bool m_finished = false;
    bool m_clientGone = false;
    bool m_waitingForDrain = false;
    bool m_isHead = false;
    bool m_chunked = true;
    int m_handOffs = 0;
    qint64 m_bodyLeft = -1; // with a Content-Length: body bytes not yet written
    QByteArray m_heldTail;  // the body's last byte(s), released by finishStream
    std::function<void()> m_beforeLastBytes;
    ExchangeListener *m_listener = nullptr;
    class Callbacks;                           // ExchangeCallbacks turned listener
    std::unique_ptr<Callbacks> m_callbacks;    // listen(): the listener, kept here
    std::shared_ptr<HttpExchange *> m_refSlot; // ref(): nulled on deletion
};

} // namespace Aile::Http
