#pragma once

#include "HttpRequest.h"

#include <QtCore/QObject>

#include <functional>

namespace Aile::Http {

class HttpConnection;

/// One request and its response on an inbound connection. The handler answers either at once
/// (respond) or as a stream (startStream, writeChunk, finishStream). The exchange may vanish
/// when the client goes away: hold it in a QPointer and listen for clientGone.
class HttpExchange : public QObject
{
    Q_OBJECT
public:
    HttpExchange(HttpConnection *connection, HttpRequest request);

    const HttpRequest &request() const { return m_request; }
    quint64 id() const { return m_id; }

    /// A complete answer with Content-Length.
    void respond(int status, const HttpHeaders &headers, const QByteArray &body);
    /// Starts an answer whose body follows in pieces; the head goes out at once. With a
    /// known contentLength the body is sent as is, otherwise with chunked transfer-encoding.
    void startStream(int status, const HttpHeaders &headers, qint64 contentLength = -1);
    /// Sends bytes of a streamed answer, flushed immediately.
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
    /// Bytes accepted from writeChunk that the socket has not yet handed to the kernel.
    qint64 pendingBytes() const;
    /// Above this many pending bytes a producer should pause; drained() says when to resume.
    static constexpr qint64 HighWaterBytes = 256 * 1024;
    static constexpr qint64 LowWaterBytes = 64 * 1024;

Q_SIGNALS:
    /// Pending bytes fell below LowWaterBytes after having been above HighWaterBytes.
    void drained();
    /// The client disconnected before the answer was finished.
    void clientGone();

private:
    friend class HttpConnection;
    void handleBytesWritten();
    void handleClientGone();
    void writeHead(int status, const HttpHeaders &headers, qint64 contentLength);
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
    qint64 m_bodyLeft = -1;        // with a Content-Length: body bytes not yet written
    QByteArray m_heldTail;         // the body's last byte(s), released by finishStream
    std::function<void()> m_beforeLastBytes;
};

} // namespace Aile::Http
