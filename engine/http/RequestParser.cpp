#include "RequestParser.h"

#include "HeaderRules.h"

#include <climits>
#include <new>
#include <utility>

namespace Aile::Http {

RequestParser::RequestParser(qint64 maxHeaderBytes, qint64 maxBodyBytes) : m_maxHeaderBytes(maxHeaderBytes), m_maxBodyBytes(maxBodyBytes)
{
    http_parser_init(&m_parser, HTTP_REQUEST);
    m_parser.data = this;
}

const http_parser_settings &RequestParser::settings()
{
    static const http_parser_settings s = [] {
        http_parser_settings init;
        http_parser_settings_init(&init);
        init.on_message_begin = &RequestParser::onMessageBegin;
        init.on_url = &RequestParser::onUrl;
        init.on_header_field = &RequestParser::onHeaderField;
        init.on_header_value = &RequestParser::onHeaderValue;
        init.on_headers_complete = &RequestParser::onHeadersComplete;
        init.on_body = &RequestParser::onBody;
        init.on_message_complete = &RequestParser::onMessageComplete;
        return init;
    }();
    return s;
}

qsizetype RequestParser::feed(const char *data, qsizetype size)
{
    if (m_phase == Phase::Complete || m_phase == Phase::Refused || size <= 0)
        return 0;
    const size_t parsed = http_parser_execute(&m_parser, &settings(), data, size_t(size));
    if (m_phase == Phase::Refused || m_phase == Phase::Complete)
        return qsizetype(parsed);
    const auto err = HTTP_PARSER_ERRNO(&m_parser);
    if (err == HPE_INVALID_HEADER_TOKEN)
        refuse(400, QStringLiteral("malformed HTTP request: invalid character in a header; header names are HTTP tokens "
                                   "and values are visible text, spaces and tabs, without control characters"));
    else if (err != HPE_OK && err != HPE_PAUSED)
        refuse(400, QStringLiteral("malformed HTTP request: %1").arg(QLatin1String(http_errno_description(err))));
    return qsizetype(parsed);
}

HttpRequest RequestParser::takeRequest()
{
    HttpRequest out = std::move(m_request);
    m_request = HttpRequest();
    m_phase = Phase::Idle;
    http_parser_pause(&m_parser, 0);
    return out;
}

QByteArray RequestParser::currentPath() const
{
    const qsizetype q = m_request.target.indexOf('?');
    return q < 0 ? m_request.target : m_request.target.left(q);
}

int RequestParser::refuse(int status, const QString &message)
{
    if (m_phase != Phase::Refused) {
        m_phase = Phase::Refused;
        m_refusal = status;
        m_refusalMessage = message;
    }
    return 1; // stops http-parser
}

bool RequestParser::countHeaderBytes(size_t len)
{
    m_headerBytes += qint64(len);
    if (m_headerBytes <= m_maxHeaderBytes)
        return true;
    refuse(431, QStringLiteral("request header section is larger than %1 KiB; send fewer or shorter headers").arg(m_maxHeaderBytes / 1024));
    return false;
}

// A header line is whole once the next name starts or the head ends: both halves are checked
// then, so a name or value split across reads is judged as one.
bool RequestParser::finishField()
{
    if (!isToken(m_field)) {
        refuse(400, QStringLiteral("header field name \"%1\" is not an HTTP token (RFC 9110: letters, digits and "
                                   "!#$%&'*+-.^_`|~, no spaces or other separators); the client or a proxy in front "
                                   "of it sent a malformed header")
                        .arg(printable(m_field)));
        return false;
    }
    if (!isFieldValue(m_value)) {
        refuse(400, QStringLiteral("header %1 holds a control character (%2); header values are visible text, spaces "
                                   "and tabs only")
                        .arg(printable(m_field), printable(m_value)));
        return false;
    }
    // Lower-cased in place and handed over: no copy of either half per header line.
    m_request.headers.addLowerCase(std::exchange(m_field, {}).toLower(), std::exchange(m_value, {}));
    m_lastWasValue = false;
    return true;
}

// ---- http-parser callbacks -------------------------------------------------------------------

int RequestParser::onMessageBegin(http_parser *p)
{
    auto *self = static_cast<RequestParser *>(p->data);
    self->m_phase = Phase::Head;
    self->m_request.headers.reserve(ExpectedHeaders);
    self->m_headerBytes = 0;
    self->m_lastWasValue = false;
    self->m_field.clear();
    self->m_value.clear();
    return 0;
}

int RequestParser::onUrl(http_parser *p, const char *at, size_t len)
{
    auto *self = static_cast<RequestParser *>(p->data);
    if (!self->countHeaderBytes(len))
        return 1;
    self->m_request.target.append(at, qsizetype(len));
    return 0;
}

int RequestParser::onHeaderField(http_parser *p, const char *at, size_t len)
{
    auto *self = static_cast<RequestParser *>(p->data);
    if (!self->countHeaderBytes(len + 4)) // ": " and CRLF count against the section too
        return 1;
    if (self->m_lastWasValue && !self->finishField())
        return 1;
    self->m_field.append(at, qsizetype(len));
    return 0;
}

int RequestParser::onHeaderValue(http_parser *p, const char *at, size_t len)
{
    auto *self = static_cast<RequestParser *>(p->data);
    if (!self->countHeaderBytes(len))
        return 1;
    self->m_value.append(at, qsizetype(len));
    self->m_lastWasValue = true;
    return 0;
}

int RequestParser::onHeadersComplete(http_parser *p)
{
    auto *self = static_cast<RequestParser *>(p->data);
    if ((!self->m_field.isEmpty() || self->m_lastWasValue) && !self->finishField())
        return -1;
    HttpRequest &r = self->m_request;
    // http-parser's method names are static strings: referenced, not copied (one allocation less per request).
    const char *method = http_method_str(http_method(p->method));
    r.method = QByteArray::fromRawData(method, qsizetype(qstrlen(method)));
    const qsizetype q = r.target.indexOf('?');
    r.path = q < 0 ? r.target : r.target.left(q);
    r.query = q < 0 ? QByteArray() : r.target.mid(q + 1);
    r.httpMinor = p->http_minor;
    const bool hasLength = p->content_length != ULLONG_MAX && p->content_length > 0;
    if (hasLength && p->content_length > quint64(self->m_maxBodyBytes)) {
        self->refuse(413, QStringLiteral("request body is larger than %1 MiB; send a smaller body").arg(self->m_maxBodyBytes / (1024 * 1024)));
        return -1;
    }
    // The body buffer grows as bytes arrive: a Content-Length alone reserves nothing.
    self->m_wantsContinue = r.headers.value("expect").toLower() == "100-continue";
    self->m_phase = Phase::Body;
    return 0;
}

int RequestParser::onBody(http_parser *p, const char *at, size_t len)
{
    auto *self = static_cast<RequestParser *>(p->data);
    if (self->m_request.body.size() + qint64(len) > self->m_maxBodyBytes) {
        self->refuse(413, QStringLiteral("request body is larger than %1 MiB; send a smaller body").arg(self->m_maxBodyBytes / (1024 * 1024)));
        return 1;
    }
    // A body grows as it arrives; when the machine cannot give it more memory, this request is
    // refused and the process, its other connections and the ledger go on (docs/hardening.md).
    try {
        self->m_request.body.append(at, qsizetype(len));
    } catch (const std::bad_alloc &) {
        self->m_request.body = QByteArray();
        return self->refuse(503, QStringLiteral("the proxy is out of memory and cannot hold this request body; "
                                                "retry shortly, or send a smaller body"));
    }
    return 0;
}

int RequestParser::onMessageComplete(http_parser *p)
{
    auto *self = static_cast<RequestParser *>(p->data);
    self->m_phase = Phase::Complete;
    self->m_keepAlive = http_should_keep_alive(p) && !p->upgrade;
    http_parser_pause(p, 1);
    return 0;
}

} // namespace Aile::Http
