#pragma once

#include "HttpRequest.h"

#include <QtCore/QObject>

#include <functional>

namespace Aile::Http {

class HttpConnection;

/// One request and its response on an inbound connection. The handler answers either at once
/// (respond) or as a stream (startStream, writeChunk, finishStream). The exchange may vanish
/// when the client goes away: hold it in a QPointer and listen for clientGone. Its connection
/// owns it and deletes it at the end of the event-loop turn in which it finished (never inside
/// one of its own calls), or with the connection.
///
/// Writing: what an answer writes is assembled in its connection's output buffer and handed to
/// the socket in one piece at a flush point, so an answer costs one write(2), not one per part
/// (each write to a loopback socket costs kernel work and wakes the client again). respond,
/// finishStream, abortStream and a chunked writeChunk flush at once; a head, and the body of an
/// answer with a Content-Length, wait for the next of those, for HoldBytes to gather, or for the
/// end of the current event-loop turn (HttpConnection's turn timer).
class HttpExchange : public QObject
{
    Q_OBJECT
public:
    HttpExchange(HttpConnection *connection, HttpRequest request);

    const HttpRequest &request() const { return m_request; }
    quint64 id() const { return m_id; }

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
    /// Pending output past this goes to the socket without waiting for the end of the turn
    /// (below LowWaterBytes, so held output alone never keeps a producer paused).
    static constexpr qsizetype HoldBytes = 32 * 1024;
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
};

} // namespace Aile::Http
