#include "HttpExchange.h"

#include "HeaderRules.h"
#include "HttpConnection.h"
#include "HttpServer.h"

#include <QtCore/QLoggingCategory>

#include <atomic>
#include <charconv>
#include <cstdio>
#include <utility>

Q_DECLARE_LOGGING_CATEGORY(lcHttp)

namespace Aile::Http {

namespace {
std::atomic<quint64> g_nextExchangeId{1};
}

class HttpExchange::Callbacks final : public ExchangeListener
{
public:
    explicit Callbacks(ExchangeCallbacks callbacks) : m_f(std::move(callbacks)) { }
    // Each runs from a copy: a function may replace the listener, which deletes this.
    void exchangeDrained() override { run(m_f.drained); }
    void exchangeClientGone() override { run(m_f.clientGone); }
    void exchangeEnded() override { run(m_f.ended); }

private:
    static void run(const std::function<void()> &f)
    {
        if (!f)
            return;
        const auto copy = f;
        copy();
    }
    ExchangeCallbacks m_f;
};

HttpExchange::HttpExchange(HttpConnection *connection, HttpRequest request)
    : m_connection(connection), m_request(std::move(request)), m_id(g_nextExchangeId++)
{
    m_isHead = m_request.method == "HEAD";
    ++m_connection->m_server->m_liveExchanges;
}

// The one end: the listener hears it first, with nothing left to write to (a listener that
// writes from here writes nowhere), then references go null.
HttpExchange::~HttpExchange()
{
    --m_connection->m_server->m_liveExchanges;
    m_finished = true;
    m_clientGone = true;
    m_beforeLastBytes = {};
    if (ExchangeListener *listener = std::exchange(m_listener, nullptr))
        listener->exchangeEnded();
    if (m_refSlot)
        *m_refSlot = nullptr;
}

void HttpExchange::listen(ExchangeCallbacks callbacks)
{
    auto kept = std::make_unique<Callbacks>(std::move(callbacks));
    m_listener = kept.get();
    m_callbacks = std::move(kept); // a previous one may be running: it runs from its own copy
}

CredentialMemo &HttpExchange::credentialMemo()
{
    return m_connection->m_credentialMemo;
}

ExchangeRef HttpExchange::ref()
{
    if (!m_refSlot)
        m_refSlot = std::make_shared<HttpExchange *>(this);
    return ExchangeRef(m_refSlot);
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

bool HttpExchange::endOfTurnArmed() const
{
    return m_connection->m_turnTimer != 0;
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
        // Relay latency: a chunk leaves at once, with a head still pending, in one write. A small
        // one (an SSE event) is framed in the connection's buffer and flushed here, so nothing is
        // left for the end of the turn and no turn is armed for it: an armed turn costs each
        // relayed event a second pass of the event loop (docs/performance.md "Change 14 (SSE)").
        char sizeLine[24];
        char *end = std::to_chars(sizeLine, sizeLine + 16, static_cast<unsigned long long>(data.size()), 16).ptr;
        *end++ = '\r';
        *end++ = '\n';
        if (data.size() < HoldBytes) {
            QByteArray &out = m_connection->m_out;
            out.append(sizeLine, end - sizeLine).append(data).append("\r\n", 2);
        } else {
            put(sizeLine, end - sizeLine);
            put(data);
            put("\r\n", 2);
        }
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
        if (m_listener)
            m_listener->exchangeDrained();
    }
}

void HttpExchange::handleClientGone()
{
    if (m_clientGone)
        return;
    m_clientGone = true;
    if (m_listener)
        m_listener->exchangeClientGone();
}

} // namespace Aile::Http
