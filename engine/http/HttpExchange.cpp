#include "HttpExchange.h"

#include "HeaderRules.h"
#include "HttpConnection.h"

#include <QtCore/QLoggingCategory>

#include <atomic>
#include <cstdio>
#include <utility>

Q_DECLARE_LOGGING_CATEGORY(lcHttp)

namespace Aile::Http {

namespace {
std::atomic<quint64> g_nextExchangeId{1};
}

HttpExchange::HttpExchange(HttpConnection *connection, HttpRequest request)
    : QObject(connection), m_connection(connection), m_request(std::move(request)), m_id(g_nextExchangeId++)
{
    m_isHead = m_request.method == "HEAD";
}

void HttpExchange::writeHead(int status, const HttpHeaders &headers, qint64 contentLength)
{
    // Straight into the connection's output buffer, whose capacity outlives the exchange.
    QByteArray &head = m_connection->m_out;
    head.reserve(head.size() + 256 + headers.size() * 48);
    // Numbers are formatted on the stack: QByteArray::number allocates each time.
    char number[24];
    head += "HTTP/1.1 ";
    head.append(number, std::snprintf(number, sizeof number, "%d ", status));
    head += http_status_str(http_status(status));
    head += "\r\n";
    // Whatever reached these headers, a value that could end the line never reaches the client.
    for (const QByteArray &name : headers.appendTo(head))
        qCWarning(lcHttp).noquote() << "left out response header" << printable(name) << "whose name or value could break the response head";
    if (contentLength >= 0) {
        head += "content-length: ";
        head.append(number, std::snprintf(number, sizeof number, "%lld\r\n", static_cast<long long>(contentLength)));
    } else {
        head += "transfer-encoding: chunked\r\n";
    }
    if (!m_connection->m_parser.keepAlive())
        head += "connection: close\r\n";
    head += "\r\n";
    m_headSent = true;
}

// Small pieces gather in the connection's buffer; a large one goes to the socket on its own
// after what is pending (copying it twice would cost more than the extra write).
void HttpExchange::put(const char *data, qsizetype size)
{
    if (size >= HoldBytes) {
        flush();
        m_connection->send(data, size);
        ++m_handOffs;
        return;
    }
    m_connection->m_out.append(data, size);
    if (m_connection->m_out.size() >= HoldBytes)
        flush();
    else
        m_connection->armTurn();
}

void HttpExchange::put(const QByteArray &bytes)
{
    if (bytes.size() < HoldBytes) {
        put(bytes.constData(), bytes.size());
        return;
    }
    flush();
    m_connection->send(bytes.constData(), bytes.size(), &bytes); // what the kernel leaves is shared with the socket's buffer, not copied
    ++m_handOffs;
}

void HttpExchange::flush()
{
    if (m_connection->flushOutput())
        ++m_handOffs;
}

void HttpExchange::runBeforeLastBytes()
{
    if (auto hook = std::exchange(m_beforeLastBytes, {}))
        hook();
}

void HttpExchange::respond(int status, const HttpHeaders &headers, const QByteArray &body)
{
    if (m_headSent || m_finished || m_clientGone)
        return;
    runBeforeLastBytes();
    writeHead(status, headers, body.size());
    if (!m_isHead && !body.isEmpty())
        put(body);
    m_finished = true;
    flush();
    m_connection->exchangeFinished(true);
}

void HttpExchange::startStream(int status, const HttpHeaders &headers, qint64 contentLength)
{
    if (m_headSent || m_finished || m_clientGone)
        return;
    m_chunked = contentLength < 0;
    m_bodyLeft = m_isHead ? -1 : contentLength;
    writeHead(status, headers, contentLength);
    m_connection->armTurn();
}

void HttpExchange::writeChunk(const QByteArray &data)
{
    if (!m_headSent || m_finished || m_clientGone || data.isEmpty() || m_isHead)
        return;
    if (m_chunked) {
        // Relay latency: a chunk leaves at once, with a head still pending, in one write.
        char sizeLine[20];
        const int n = std::snprintf(sizeLine, sizeof sizeLine, "%llx\r\n", static_cast<unsigned long long>(data.size()));
        put(sizeLine, n);
        put(data);
        put("\r\n", 2);
        flush();
    } else if (m_bodyLeft >= 0 && data.size() >= m_bodyLeft) {
        // The body's last byte waits for finishStream, after what must be recorded first. Bytes
        // past the announced Content-Length never leave: on a kept-alive connection the client
        // would read them as the start of its next answer.
        if (data.size() > m_bodyLeft)
            qCWarning(lcHttp) << "left out" << (data.size() - m_bodyLeft) << "bytes written past the answer's Content-Length";
        const qsizetype now = qMax<qsizetype>(0, m_bodyLeft - 1);
        if (now > 0)
            put(data.constData(), now);
        m_heldTail += data.mid(now, m_bodyLeft - now);
        m_bodyLeft = 0;
    } else {
        put(data);
        if (m_bodyLeft >= 0)
            m_bodyLeft -= data.size();
    }
    if (pendingBytes() > HighWaterBytes)
        m_waitingForDrain = true;
}

void HttpExchange::finishStream()
{
    if (!m_headSent || m_finished || m_clientGone)
        return;
    runBeforeLastBytes();
    if (!m_isHead && m_chunked)
        put("0\r\n\r\n", 5);
    if (!m_heldTail.isEmpty())
        put(std::exchange(m_heldTail, {}));
    m_finished = true;
    flush();
    m_connection->exchangeFinished(true);
}

void HttpExchange::abortStream()
{
    if (m_finished || m_clientGone)
        return;
    m_finished = true;
    flush(); // what was written goes out; the missing rest tells the client the answer was cut
    m_connection->exchangeFinished(false);
}

qint64 HttpExchange::pendingBytes() const
{
    return m_clientGone ? 0 : m_connection->pendingOutputBytes();
}

void HttpExchange::handleBytesWritten()
{
    if (m_waitingForDrain && pendingBytes() < LowWaterBytes) {
        m_waitingForDrain = false;
        Q_EMIT drained();
    }
}

void HttpExchange::handleClientGone()
{
    if (m_clientGone)
        return;
    m_clientGone = true;
    Q_EMIT clientGone();
}

} // namespace Aile::Http
