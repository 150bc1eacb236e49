#pragma once

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QPointer>

class QTimer;

#include <functional>
#include <map>
#include <vector>

namespace Aile {

class Deadline;

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

protected:
    friend class Deadline;
    /// Arms (or moves, when it is armed) a deadline, and disarms it. By default through
    /// schedule and cancel (ManualClock: what tests see is unchanged); SystemClock keeps the
    /// deadline itself in its queue, so arming, moving and disarming allocate nothing.
    virtual void arm(Deadline &deadline, qint64 delayMs);
    virtual void disarm(Deadline &deadline);
};

/// Real time. One QTimer (created on the thread that first schedules) serves every deadline, so
/// arming and cancelling one costs no QObject: the request path arms several per request.
/// Scheduled functions wait in an ordered map; Deadlines wait in place, in a binary heap of
/// pointers to them (no node, no wrapped function, nothing allocated once the heap has grown).
class SystemClock final : public Clock
{
public:
    SystemClock() = default;
    ~SystemClock() override;
    qint64 nowMs() const override;
    quint64 schedule(qint64 delayMs, QObject *context, std::function<void()> fn) override;
    void cancel(quint64 id) override;
    /// Deadlines waiting in place (diagnostics, tests).
    int armedDeadlines() const { return int(m_heap.size()); }

protected:
    void arm(Deadline &deadline, qint64 delayMs) override;
    void disarm(Deadline &deadline) override;

private:
    struct Pending
    {
        quint64 id;
        QPointer<QObject> context;
        bool hasContext;
        std::function<void()> fn;
    };
    using Queue = std::multimap<qint64, Pending>;
    void ensureTimer();
    void fireDue();
    void fireDeadline();
    void rearm();
    qint64 monotonicMs() const;
    // The heap of armed deadlines, earliest first (ties: in the order armed).
    static bool earlier(const Deadline *a, const Deadline *b);
    void place(std::size_t at, Deadline *deadline);
    void siftUp(std::size_t at);
    void siftDown(std::size_t at);
    void removeAt(std::size_t at);

    Queue m_queue;
    QHash<quint64, Queue::iterator> m_index;
    std::vector<Deadline *> m_heap;
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

/// A one-shot deadline owned by an object; re-arming moves it, destroying cancels it. On a
/// SystemClock it waits in place: it must not move in memory (it is a member of its owner), and
/// its function is kept in it (a function that captures a pointer or two allocates nothing).
/// The function may re-arm its deadline or delete it with its owner.
class Deadline
{
public:
    Deadline() = default;
    Deadline(const Deadline &) = delete;
    Deadline &operator=(const Deadline &) = delete;
    ~Deadline() { stop(); }
    void start(Clock *clock, qint64 delayMs, QObject *context, std::function<void()> fn);
    void stop();
    bool isActive() const { return m_id != 0 || m_heapAt != NotArmed; }

private:
    friend class Clock;
    friend class SystemClock;
    static constexpr std::size_t NotArmed = std::size_t(-1);
    /// Runs the function, unless its context is gone; it was disarmed first.
    void fire();

    Clock *m_clock = nullptr;
    quint64 m_id = 0;                // armed through Clock::schedule
    std::size_t m_heapAt = NotArmed; // armed in place: where it sits in SystemClock's heap
    qint64 m_dueMs = 0;
    quint64 m_order = 0; // ties between equal due times: the order armed
    QPointer<QObject> m_context;
    bool m_hasContext = false;
    std::function<void()> m_fn;
};

} // namespace Aile
