#pragma once

#include "store/TraceRecord.h"

#include <QtCore/QObject>

#include <deque>

namespace Aile::Log {

/// The access log's lines written a slice at a time, one slice per turn of the event loop, instead
/// of a whole published batch at once: at one connection's rate a batch of the trace sink's 100 ms
/// is ~900 requests, ~1 ms of the engine thread, which the request that waited behind it paid
/// (docs/performance.md "Change 12 (tail)", "Change 13 (record)"). Lines keep their order across
/// slices and batches; flush() writes what is left at once (the engine stopping), as does the
/// destructor. Nothing is kept when the aile.access category is off.
class AccessLogQueue : public QObject
{
public:
    /// Lines per slice: ~25 µs of formatting and one write(2).
    static constexpr qsizetype SliceLines = 32;

    explicit AccessLogQueue(QObject *parent = nullptr);
    ~AccessLogQueue() override;

    /// Queues a batch (TraceSink::tracesRecorded) and asks for a slice at the next turn.
    void append(const QList<Store::TraceRecord> &batch);
    /// Writes every line still queued, now.
    void flush();
    /// Lines queued and not written yet.
    qsizetype pending() const;

private:
    void writeSlice();
    void writeFront(qsizetype lines);

    std::deque<QList<Store::TraceRecord>> m_batches;
    qsizetype m_at = 0; // lines of the front batch already written
    bool m_sliceQueued = false;
};

} // namespace Aile::Log
