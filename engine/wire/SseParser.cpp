#include "SseParser.h"

#include <cstring>

namespace Aile::Wire {

namespace {

// The index of the first line end ('\n' or '\r') in [from, n), or n: two memchr passes over the
// line rather than a test per byte (an event is mostly one long data line).
qsizetype lineEnd(const char *b, qsizetype from, qsizetype n)
{
    const void *lf = std::memchr(b + from, '\n', size_t(n - from));
    const qsizetype limit = lf ? static_cast<const char *>(lf) - b : n;
    const void *cr = std::memchr(b + from, '\r', size_t(limit - from));
    return cr ? static_cast<const char *>(cr) - b : limit;
}

// Finds the end of the first event (index just past its blank line) or -1.
qsizetype eventEnd(const QByteArray &bytes, qsizetype from)
{
    const char *b = bytes.constData();
    const qsizetype n = bytes.size();
    for (qsizetype i = lineEnd(b, qMax<qsizetype>(0, from), n); i < n; i = lineEnd(b, i + 1, n)) {
        // i ends a line; a blank line follows when the next line end comes right away.
        qsizetype j = i + 1;
        if (b[i] == '\r' && j < n && b[j] == '\n')
            ++j;
        if (j < n) {
            const char d = b[j];
            if (d == '\n')
                return j + 1;
            if (d == '\r')
                return (j + 1 < n && b[j + 1] == '\n') ? j + 2 : (j + 1 < n ? j + 1 : -1);
        }
        if (j >= n)
            return -1;
        i = j - 1; // the next line starts at j
    }
    return -1;
}

void parseFields(SseEvent &ev)
{
    const QByteArray &r = ev.raw;
    const char *b = r.constData();
    const qsizetype n = r.size();
    bool firstData = true;
    qsizetype start = 0;
    while (start < n) {
        const qsizetype end = lineEnd(b, start, n);
        const qsizetype lineStart = start;
        start = end + 1;
        if (end < n && b[end] == '\r' && start < n && b[start] == '\n')
            ++start;
        if (end == lineStart || b[lineStart] == ':')
            continue;
        const QByteArrayView line(b + lineStart, end - lineStart);
        const qsizetype colon = line.indexOf(':');
        const QByteArrayView field = colon < 0 ? line : line.first(colon);
        QByteArrayView value = colon < 0 ? QByteArrayView() : line.sliced(colon + 1);
        if (value.startsWith(' '))
            value = value.sliced(1);
        if (field == "event") {
            ev.name = value.toByteArray();
        } else if (field == "data") {
            if (!firstData)
                ev.data += '\n';
            ev.data += value;
            firstData = false;
        }
    }
}

} // namespace

QList<SseEvent> SseParser::feed(const QByteArray &bytes)
{
    QList<SseEvent> out;
    if (m_overflowed)
        return out;
    m_buffer += bytes;
    qsizetype consumed = 0;
    qsizetype from = m_scanFrom;
    for (;;) {
        const qsizetype end = eventEnd(m_buffer, from);
        if (end < 0)
            break;
        if (end - consumed > MaxEventBytes)
            break; // an oversized event that completed within this feed
        SseEvent ev;
        ev.raw = m_buffer.mid(consumed, end - consumed);
        parseFields(ev);
        out.append(std::move(ev));
        consumed = end;
        from = end;
    }
    if (consumed == m_buffer.size())
        m_buffer = QByteArray(); // the usual read, whole events: the next read is shared, not copied
    else if (consumed > 0)
        m_buffer.remove(0, consumed);
    if (m_buffer.size() > MaxEventBytes) {
        // The unfinished event is past the cap: give its memory back now.
        m_overflowed = true;
        m_buffer = QByteArray();
        m_scanFrom = 0;
        return out;
    }
    // Resume the scan one byte early so a line end split across feeds is still seen.
    m_scanFrom = qMax<qsizetype>(0, m_buffer.size() - 2);
    return out;
}

} // namespace Aile::Wire
