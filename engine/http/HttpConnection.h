#pragma once

#include "ClientSocket.h"
#include "HttpExchange.h"
#include "RequestParser.h"
#include "core/Clock.h"

#include <QtCore/QObject>
#include <QtCore/QList>
#include <QtNetwork/QHostAddress>

namespace Aile::Http {

class HttpExchange;
class HttpServer;

/// One inbound TCP connection: feeds what it reads to a RequestParser and serves the requests
/// one at a time (a pipelined request waits until the previous answer is finished and mostly
/// sent), enforcing the server's limits and deadlines. It reads and writes the accepted
/// descriptor itself (ClientSocket), with no QTcpSocket.
class HttpConnection : public QObject
{
    Q_OBJECT
public:
    /// Takes ownership of the accepted, non-blocking `descriptor`.
    HttpConnection(HttpServer *server, int descriptor, const QHostAddress &peer, quint16 localPort);
    ~HttpConnection() override;

    /// The client's descriptor while the connection is open, else -1 (diagnostics, tests).
    int descriptor() const { return m_socket.descriptor(); }
    /// How many times the kernel left answer bytes that were queued for the write notifier.
    int queuedWrites() const { return m_socket.queuedWrites(); }
    /// Bytes written as they are, after what is already written (test support: the malformed or
    /// interim answers of a fake upstream, which no HttpExchange call would produce).
    void writeRaw(const QByteArray &bytes);
    /// Closes the connection once what was written has been sent.
    void closeWhenSent();

    /// How readily the server may close this connection to make room for a new one.
    enum class Shed {
        Idle,    // keep-alive with nothing arriving or waiting: first to go
        Stalled, // a request still arriving, or answers the client is not reading
        Busy,    // a request being served: never shed
    };
    Shed shedClass() const;
    /// When bytes last moved in either direction (the engine's clock).
    qint64 lastProgressMs() const { return m_lastProgressMs; }
    /// Closes the connection at once to make room (the server's connection cap).
    void shed();
    /// Request bytes read from the socket and not yet parsed (diagnostics, tests).
    qint64 bufferedInputBytes() const;
    /// Answer bytes not yet handed to the kernel: held for the next flush, or in the socket.
    qint64 pendingOutputBytes() const;

protected:
    void timerEvent(QTimerEvent *event) override;

private:
    friend class HttpExchange;
    void handleReadable();
    void handleWritable();
    void handlePeerClosed();
    void dropClient();
    void parseBuffered();
    void consume(const char *data, qsizetype size);
    void updateReading();
    void send(const char *data, qint64 size, const QByteArray *whole = nullptr);
    bool outputBlocked() const;
    void dispatchRequest();
    void exchangeFinished(bool keepAlive);
    void refuse(int status, const QString &message);
    void armHeaderDeadline();
    void armBodyDeadline();
    void armSendDeadline();
    void noteSent(qint64 sent);
    void closeNow();
    bool flushOutput();
    void armTurn();
    void retireExchanges();

    HttpServer *m_server;
    ClientSocket m_socket;
    RequestParser m_parser;
    QByteArray m_inbuf; // read while a request is served or answers wait: parsed when they are done
    QHostAddress m_peer;
    quint16 m_localPort;
    bool m_closing = false;
    bool m_lingering = false;
    bool m_closeWhenSent = false;
    bool m_writeFailed = false; // a send(2) failed: the client is dropped at the end of the turn
    bool m_deleting = false;
    int m_served = 0;
    qint64 m_lastProgressMs = 0;
    qint64 m_lastSentMs = 0;            // when the client last took answer bytes, or bytes began to wait
    CredentialMemo m_credentialMemo;    // HttpExchange::credentialMemo
    HttpExchange *m_exchange = nullptr; // the request being served (owned, a child)
    QList<HttpExchange *> m_retired;    // finished; deleted at the end of the turn
    QByteArray m_out;                   // answer bytes for the next write (see HttpExchange)
    int m_turnTimer = 0;                // the zero timer: "the end of this event-loop turn"
    Deadline m_headerDeadline;
    Deadline m_bodyDeadline;
    Deadline m_idleDeadline;
    Deadline m_sendDeadline; // armed while answer bytes wait in the socket's queue
};

} // namespace Aile::Http
