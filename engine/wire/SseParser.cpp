#include "SseParser.h"

namespace Aile::Wire {

namespace {

// Finds the end of the first event (index just past its blank line) or -1.
qsizetype eventEnd(const QByteArray &b, qsizetype from)
{
    const qsizetype n = b.size();
    for (qsizetype i = qMax<qsizetype>(0, from); i < n; ++i) {
        const char c = b.at(i);
        if (c != '\n' && c != '\r')
            continue;
        // i ends a line; a blank line follows when the next line end comes right away.
        qsizetype j = i + 1;
        if (c == '\r' && j < n && b.at(j) == '\n')
            ++j;
        if (j < n) {
            const char d = b.at(j);
            if (d == '\n')
                return j + 1;
            if (d == '\r')
                return (j + 1 < n && b.at(j + 1) == '\n') ? j + 2 : (j + 1 < n ? j + 1 : -1);
        }
    }
    return -1;
}

void parseFields(SseEvent &ev)
{
    qsizetype start = 0;
    const QByteArray &r = ev.raw;
    bool firstData = true;
    while (start < r.size()) {
        qsizetype end = start;
        while (end < r.size() && r.at(end) != '\n' && r.at(end) != '\r')
            ++end;
        const QByteArray line = r.mid(start, end - start);
        start = end + 1;
        if (end < r.size() && r.at(end) == '\r' && start < r.size() && r.at(start) == '\n')
            ++start;
        if (line.isEmpty() || line.startsWith(':'))
            continue;
        const qsizetype colon = line.indexOf(':');
        const QByteArray field = colon < 0 ? line : line.left(colon);
        QByteArray value = colon < 0 ? QByteArray() : line.mid(colon + 1);
        if (value.startsWith(' '))
            value.remove(0, 1);
        if (field == "event") {
            ev.name = value;
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
    if (consumed > 0)
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
