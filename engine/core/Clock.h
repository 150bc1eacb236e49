#pragma once

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QPointer>

class QTimer;

#include <functional>
#include <map>

namespace Aile {

/// The engine's only source of time. Every deadline, cooldown, budget day and timestamp goes
/// through it, so tests drive time with ManualClock instead of sleeping.
class Clock
{
public:
    virtual ~Clock() = default;
    /// Wall-clock time, milliseconds since the Unix epoch (UTC).
    virtual qint64 nowMs() const = 0;
    /// Runs fn once after delayMs on the calling thread's event loop, unless cancelled or
    /// context is destroyed first. Returns a non-zero id.
    virtual quint64 schedule(qint64 delayMs, QObject *context, std::function<void()> fn) = 0;
    virtual void cancel(quint64 id) = 0;
};

/// Real time. One QTimer (created on the thread that first schedules) serves every deadline
/// from an ordered map, so arming and cancelling a deadline costs no QObject: the request path
/// arms several per request.
class SystemClock final : public Clock
{
public:
    SystemClock() = default;
    ~SystemClock() override;
    qint64 nowMs() const override;
    quint64 schedule(qint64 delayMs, QObject *context, std::function<void()> fn) override;
    void cancel(quint64 id) override;

private:
    struct Pending
    {
        quint64 id;
        QPointer<QObject> context;
        bool hasContext;
        std::function<void()> fn;
    };
    using Queue = std::multimap<qint64, Pending>;
    void fireDue();
    void rearm();
    qint64 monotonicMs() const;

    Queue m_queue;
    QHash<quint64, Queue::iterator> m_index;
    QTimer *m_timer = nullptr;
    qint64 m_armedFor = -1;
    quint64 m_nextId = 1;
};

/// Test time: nothing fires until advance() moves the clock past a deadline.
/// Must be used from one thread (the engine's, which in tests is the test thread).
class ManualClock final : public Clock
{
public:
    explicit ManualClock(qint64 startMs = 1'800'000'000'000);
    qint64 nowMs() const override { return m_now; }
    quint64 schedule(qint64 delayMs, QObject *context, std::function<void()> fn) override;
    void cancel(quint64 id) override;
    /// Moves time forward, firing due callbacks in deadline order.
    void advance(qint64 ms);
    int pendingTimers() const { return int(m_pending.size()); }

private:
    struct Pending
    {
        quint64 id;
        QPointer<QObject> context;
        bool hasContext;
        std::function<void()> fn;
    };
    qint64 m_now;
    quint64 m_nextId = 1;
    std::multimap<qint64, Pending> m_pending;
};

/// A one-shot deadline owned by an object; re-arming or destroying cancels the previous one.
class Deadline
{
public:
    Deadline() = default;
    Deadline(const Deadline &) = delete;
    Deadline &operator=(const Deadline &) = delete;
    ~Deadline() { stop(); }
    void start(Clock *clock, qint64 delayMs, QObject *context, std::function<void()> fn);
    void stop();
    bool isActive() const { return m_id != 0; }

private:
    Clock *m_clock = nullptr;
    quint64 m_id = 0;
};

} // namespace Aile
