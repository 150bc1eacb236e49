#pragma once

#include "HttpRequest.h"

#include <http_parser.h>

namespace Aile::Http {

/// Turns the bytes of one inbound connection into requests, with no socket: HttpConnection feeds
/// it what it reads, and the fuzz target feeds it anything. It stops after each complete request
/// (the next pipelined one waits until takeRequest) and on the first refusal, which carries the
/// status and the message the client gets.
class RequestParser
{
public:
    enum class Phase {
        Idle,     // between requests
        Head,     // request line and headers arriving
        Body,     // headers complete, body arriving
        Complete, // a whole request is ready: takeRequest
        Refused,  // refusalStatus and refusalMessage say why; the connection closes
    };

    RequestParser(qint64 maxHeaderBytes, qint64 maxBodyBytes);
    /// Header lines a request's list has room for from the start (an SDK sends about a dozen).
    static constexpr qsizetype ExpectedHeaders = 16;
    RequestParser(const RequestParser &) = delete;
    RequestParser &operator=(const RequestParser &) = delete;

    /// Parses what belongs to the current request and returns how many bytes it used; the rest
    /// (a pipelined request) is for the next call, after takeRequest.
    qsizetype feed(const char *data, qsizetype size);
    Phase phase() const { return m_phase; }
    /// The head asked for "Expect: 100-continue" (true once per request).
    bool takeContinueRequest() { return std::exchange(m_wantsContinue, false); }

    /// The complete request; the parser moves on to the next one.
    HttpRequest takeRequest();
    /// Whether the connection may carry another request after the one just taken.
    bool keepAlive() const { return m_keepAlive; }
    /// An Upgrade request: answered as a plain request, then the connection closes.
    bool upgrade() const { return m_parser.upgrade; }

    int refusalStatus() const { return m_refusal; }
    const QString &refusalMessage() const { return m_refusalMessage; }
    /// The path of the request being parsed (for the error's wire shape), possibly empty.
    QByteArray currentPath() const;

private:
    static const http_parser_settings &settings();
    static int onMessageBegin(http_parser *p);
    static int onUrl(http_parser *p, const char *at, size_t len);
    static int onHeaderField(http_parser *p, const char *at, size_t len);
    static int onHeaderValue(http_parser *p, const char *at, size_t len);
    static int onHeadersComplete(http_parser *p);
    static int onBody(http_parser *p, const char *at, size_t len);
    static int onMessageComplete(http_parser *p);
    bool countHeaderBytes(size_t len);
    bool finishField();
    int refuse(int status, const QString &message);

    qint64 m_maxHeaderBytes;
    qint64 m_maxBodyBytes;
    http_parser m_parser;
    Phase m_phase = Phase::Idle;
    HttpRequest m_request;
    QByteArray m_field;
    QByteArray m_value;
    bool m_lastWasValue = false;
    bool m_wantsContinue = false;
    bool m_keepAlive = true;
    qint64 m_headerBytes = 0;
    int m_refusal = 0;
    QString m_refusalMessage;
};

} // namespace Aile::Http
