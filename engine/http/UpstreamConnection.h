#pragma once

#include "UpstreamClient.h"

#include <http_parser.h>

namespace Aile::Http {

/// One TCP (or TLS) connection to an origin, carrying one call at a time. Internal to
/// UpstreamClient: it owns the socket and the response parser, the client owns the pool.
class UpstreamConnection : public QObject
{
public:
    UpstreamConnection(UpstreamClient *client, const QUrl &url, const QString &origin);
    ~UpstreamConnection() override;

    void start(UpstreamCall *call, const UpstreamRequest &request);
    bool isReusable(qint64 now, qint64 maxIdleMs) const;
    void detach(); // the call was aborted: this connection is finished
    void pause() { m_paused = true; }
    void resume();

    const QString origin;
    qint64 idleSinceMs = 0;

private:
    void handleConnected();
    void handleReadyRead();
    void handleDisconnected();
    void handleSocketError();
    void handleEnd();
    void fail(UpstreamError error, const QString &detail);
    void complete(bool bytesLeft);
    void send(const QByteArray &bytes);
    void writeRequest();
    QByteArray serialise(const UpstreamRequest &request) const;

    static const http_parser_settings &settings();
    static int onStatus(http_parser *p, const char *at, size_t len);
    /// Counts head bytes against MaxHeadBytes; false (and the reason kept) past it.
    bool countHead(size_t len);
    void addHeader();
    static int onHeaderField(http_parser *p, const char *at, size_t len);
    static int onHeaderValue(http_parser *p, const char *at, size_t len);
    static int onHeadersComplete(http_parser *p);
    static int onBody(http_parser *p, const char *at, size_t len);
    static int onMessageComplete(http_parser *p);

    UpstreamClient *m_client;
    QTcpSocket *m_socket;
    bool m_tls;
    /// Plain HTTP runs its socket unbuffered: no ring buffers of Qt's per socket (a 16 KiB read
    /// chunk and a 32 KiB write chunk, kept once used), the response is read from the kernel into
    /// the stack, and the end of the connection is seen by a read (Qt emits no `disconnected` for
    /// it). TLS keeps QSslSocket's buffering, which its decryption needs.
    bool m_unbuffered;
    QString m_host;
    quint16 m_port;
    QByteArray m_hostLine; // "host: name[:port]\r\n": the same for every request on this connection
    bool m_connected = false;
    bool m_paused = false;
    bool m_messageComplete = false;
    bool m_broken = false;
    bool m_headSeen = false;
    bool m_writing = false; // inside the request's write, itself inside UpstreamClient::send
    UpstreamCall *m_call = nullptr; // cleared by the call when it is aborted or deleted (detach)
    QByteArray m_pendingRequest; // the request while the connection is being set up
    http_parser m_parser;
    QByteArray m_field, m_value; // the header line being read (a line may span two reads)
    bool m_lastWasValue = false;
    qint64 m_headBytes = 0;
    int m_interim = 0;
    QString m_protocolError;    // why a callback stopped the parser
    bool m_outOfMemory = false; // ... because holding the answer needed memory the machine did not give
    Deadline m_connectDeadline;
};

} // namespace Aile::Http
