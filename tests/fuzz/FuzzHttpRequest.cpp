// fuzz_http_request: the bytes of one inbound connection through the request parser exactly as
// http/HttpConnection feeds it (docs/hardening.md, "Clients").
//
// Input: byte 0 seeds the split of the rest into reads of 1..64 bytes (0: one read), so request
// lines, headers and chunk sizes fall across reads as they do off a socket. The rest is what the
// client sent: one request or several pipelined.
//
// Checked on every request the parser yields: each header name is an RFC 9110 token and each
// value a field value, the body is within the limit, and the response head built from those
// headers keeps one header per line.
#include "http/HeaderRules.h"
#include "http/RequestParser.h"

#include <QtCore/QJsonObject>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace Aile::Http;

namespace {

constexpr qint64 MaxHeaderBytes = 64 * 1024;
constexpr qint64 MaxBodyBytes = 1024 * 1024; // small, so the fuzzer reaches the 413 path

void check(bool ok)
{
    if (!ok)
        std::abort();
}

void checkRequest(const HttpRequest &r)
{
    check(r.body.size() <= MaxBodyBytes);
    check(!r.method.isEmpty());
    for (const auto &[name, value] : r.headers.entries()) {
        check(isToken(name));
        check(isFieldValue(value));
    }
    QByteArray head;
    check(r.headers.appendTo(head).isEmpty());
    check(head.count("\r\n") == r.headers.size());
    check(!head.contains('\0'));
    (void)requestNameRefusal(r.headers, QJsonObject());
    (void)r.queryValue(QStringLiteral("beta"));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned seed = data[0];
    const char *bytes = reinterpret_cast<const char *>(data + 1);
    const qsizetype total = qsizetype(size - 1);

    RequestParser parser(MaxHeaderBytes, MaxBodyBytes);
    qsizetype at = 0;
    int requests = 0;
    QByteArray pending; // what the connection holds between reads
    while (at < total || !pending.isEmpty()) {
        if (pending.isEmpty()) {
            qsizetype n = total - at;
            if (seed) {
                seed = seed * 1103515245u + 12345u;
                n = qMin<qsizetype>(n, 1 + (seed >> 16) % 64);
            }
            pending = QByteArray(bytes + at, n);
            at += n;
        }
        const RequestParser::Phase before = parser.phase();
        const qsizetype used = parser.feed(pending.constData(), pending.size());
        check(used >= 0 && used <= pending.size());
        pending.remove(0, used);
        const RequestParser::Phase now = parser.phase();
        if (now == RequestParser::Phase::Refused) {
            const int status = parser.refusalStatus();
            check(status == 400 || status == 413 || status == 431);
            check(!parser.refusalMessage().isEmpty());
            break;
        }
        if (now == RequestParser::Phase::Complete) {
            ++requests;
            const bool upgrade = parser.upgrade();
            checkRequest(parser.takeRequest());
            if (upgrade)
                break; // what follows is not HTTP/1.1; the connection closes
            continue;
        }
        if (used == 0 && now == before && !pending.isEmpty())
            break; // HttpConnection waits for more bytes here; so does the fuzzer's input end
    }
    check(requests <= int(size));
    return 0;
}
