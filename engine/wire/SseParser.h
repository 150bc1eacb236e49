#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QList>

#include <utility>

namespace Aile::Wire {

/// One server-sent event as it came over the wire.
struct SseEvent
{
    QByteArray raw;     // every byte of the event including its terminating blank line
    QByteArray name;    // "event:" field, empty when absent
    QByteArray data;    // "data:" lines joined with '\n'
    bool usageOnly = false;   // a chat chunk carrying only usage (set by ResponseMeter)
    bool isComment() const { return name.isEmpty() && data.isEmpty(); }
};

/// Splits a byte stream into SSE events (LF, CRLF or CR line ends). Bytes of an unfinished
/// event stay buffered until its blank line arrives.
class SseParser
{
public:
    /// Appends bytes and returns the events they complete, in order.
    QList<SseEvent> feed(const QByteArray &bytes);
    /// Whatever is buffered without a terminating blank line (a cut stream's tail).
    QByteArray pending() const { return m_buffer; }
    QByteArray takePending() { m_scanFrom = 0; return std::exchange(m_buffer, QByteArray()); }
    qsizetype pendingSize() const { return m_buffer.size(); }

private:
    QByteArray m_buffer;
    qsizetype m_scanFrom = 0;
};

} // namespace Aile::Wire
