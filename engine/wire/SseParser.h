#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QList>

#include <utility>

namespace Aile::Wire {

/// One server-sent event as it came over the wire.
struct SseEvent
{
    QByteArray raw;         // every byte of the event including its terminating blank line
    QByteArray name;        // "event:" field, empty when absent
    QByteArray data;        // "data:" lines joined with '\n'
    bool usageOnly = false; // a chat chunk carrying only usage (set by ResponseMeter)
    bool isComment() const { return name.isEmpty() && data.isEmpty(); }
};

/// Splits a byte stream into SSE events (LF, CRLF or CR line ends). Bytes of an unfinished
/// event stay buffered until its blank line arrives, up to MaxEventBytes.
class SseParser
{
public:
    /// One event (and so any one of its lines) may hold this much: a base64 image arrives on one
    /// data line. Past it the parser stops, drops what it held and reports overflowed().
    static constexpr qsizetype MaxEventBytes = 8 * 1024 * 1024;

    /// Appends bytes and returns the events they complete, in order.
    QList<SseEvent> feed(const QByteArray &bytes);
    /// Whatever is buffered without a terminating blank line (a cut stream's tail).
    QByteArray pending() const { return m_buffer; }
    QByteArray takePending()
    {
        m_scanFrom = 0;
        return std::exchange(m_buffer, QByteArray());
    }
    qsizetype pendingSize() const { return m_buffer.size(); }
    /// An event grew past MaxEventBytes; nothing more is parsed.
    bool overflowed() const { return m_overflowed; }

private:
    QByteArray m_buffer;
    bool m_overflowed = false;
    qsizetype m_scanFrom = 0;
};

} // namespace Aile::Wire
