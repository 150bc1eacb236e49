#pragma once

#include "Conversation.h"
#include "wire/SseParser.h"

#include <QtCore/QByteArray>
#include <QtCore/QHash>
#include <QtCore/QList>

namespace Aile::Translate {

/// Reads one wire's streamed answer, one SSE event at a time, into StreamEvents.
class StreamDecoder
{
public:
    virtual ~StreamDecoder() = default;
    virtual QList<StreamEvent> decode(const Wire::SseEvent &event) = 0;
    Notes notes;
};

/// Writes StreamEvents as one wire's SSE events. It keeps what the wire's framing needs (which
/// block is open, the index of each item), never the answer for later.
class StreamEncoder
{
public:
    virtual ~StreamEncoder() = default;
    virtual QByteArray encode(const StreamEvent &event) = 0;
    bool finished() const { return m_finished; }
    Notes notes;
    QStringList customTools; // the request's Responses custom tools (CustomTools.h)

protected:
    static QByteArray frame(const QByteArray &name, const QJsonObject &data);
    bool m_finished = false;
};

} // namespace Aile::Translate
