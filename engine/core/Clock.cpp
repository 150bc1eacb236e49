#include "Clock.h"

#include <QtCore/QDateTime>
#include <QtCore/QElapsedTimer>
#include <QtCore/QTimer>

#include <utility>

namespace Aile {

void Clock::arm(Deadline &deadline, qint64 delayMs)
{
    disarm(deadline);
    deadline.m_id = schedule(delayMs, deadline.m_context.data(), [d = &deadline] {
        d->m_id = 0;
        d->fire();
    });
}

void Clock::disarm(Deadline &deadline)
{
    if (deadline.m_id)
        cancel(std::exchange(deadline.m_id, 0));
}

SystemClock::~SystemClock()
{
    for (Deadline *deadline : m_heap)
        deadline->m_heapAt = Deadline::NotArmed;
    delete m_timer;
}

qint64 SystemClock::nowMs() const
{
    return QDateTime::currentMSecsSinceEpoch();
}

qint64 SystemClock::monotonicMs() const
{
    static QElapsedTimer epoch = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return epoch.elapsed();
}

void SystemClock::ensureTimer()
{
    if (m_timer)
        return;
    m_timer = new QTimer;
    m_timer->setSingleShot(true);
    m_timer->setTimerType(Qt::PreciseTimer);
    QObject::connect(m_timer, &QTimer::timeout, m_timer, [this] { fireDue(); });
}

quint64 SystemClock::schedule(qint64 delayMs, QObject *context, std::function<void()> fn)
{
    ensureTimer();
    const quint64 id = m_nextId++;
    auto it = m_queue.emplace(monotonicMs() + qMax<qint64>(0, delayMs), Pending{id, QPointer<QObject>(context), context != nullptr, std::move(fn)});
    m_index.insert(id, it);
    if (m_armedFor < 0 || it->first < m_armedFor)
        rearm();
    return id;
}

void SystemClock::cancel(quint64 id)
{
    auto found = m_index.find(id);
    if (found == m_index.end())
        return;
    m_queue.erase(*found);
    m_index.erase(found);
    // The timer may fire early for a cancelled deadline; fireDue then simply re-arms.
}

// A deadline armed again is moved within the heap: no node is freed or made.
void SystemClock::arm(Deadline &deadline, qint64 delayMs)
{
    ensureTimer();
    deadline.m_dueMs = monotonicMs() + qMax<qint64>(0, delayMs);
    deadline.m_order = m_nextId++;
    if (deadline.m_heapAt == Deadline::NotArmed) {
        m_heap.push_back(&deadline);
        deadline.m_heapAt = m_heap.size() - 1;
    }
    siftUp(deadline.m_heapAt);
    siftDown(deadline.m_heapAt);
    if (m_armedFor < 0 || deadline.m_dueMs < m_armedFor)
        rearm();
}

void SystemClock::disarm(Deadline &deadline)
{
    if (deadline.m_heapAt != Deadline::NotArmed)
        removeAt(deadline.m_heapAt);
    // The timer may fire early for it; fireDue then simply re-arms.
}

bool SystemClock::earlier(const Deadline *a, const Deadline *b)
{
    return a->m_dueMs < b->m_dueMs || (a->m_dueMs == b->m_dueMs && a->m_order < b->m_order);
}

void SystemClock::place(std::size_t at, Deadline *deadline)
{
    m_heap[at] = deadline;
    deadline->m_heapAt = at;
}

void SystemClock::siftUp(std::size_t at)
{
    Deadline *moving = m_heap[at];
    while (at > 0) {
        const std::size_t parent = (at - 1) / 2;
        if (!earlier(moving, m_heap[parent]))
            break;
        place(at, m_heap[parent]);
        at = parent;
    }
    place(at, moving);
}

void SystemClock::siftDown(std::size_t at)
{
    Deadline *moving = m_heap[at];
    const std::size_t size = m_heap.size();
    for (;;) {
        std::size_t child = 2 * at + 1;
        if (child >= size)
            break;
        if (child + 1 < size && earlier(m_heap[child + 1], m_heap[child]))
            ++child;
        if (!earlier(m_heap[child], moving))
            break;
        place(at, m_heap[child]);
        at = child;
    }
    place(at, moving);
}

void SystemClock::removeAt(std::size_t at)
{
    Deadline *removed = m_heap[at];
    Deadline *last = m_heap.back();
    m_heap.pop_back();
    removed->m_heapAt = Deadline::NotArmed;
    if (removed == last)
        return;
    place(at, last);
    siftUp(at);
    siftDown(last->m_heapAt);
}

void SystemClock::rearm()
{
    if (m_queue.empty() && m_heap.empty()) {
        m_timer->stop();
        m_armedFor = -1;
        return;
    }
    qint64 next = m_heap.empty() ? m_queue.begin()->first : m_heap.front()->m_dueMs;
    if (!m_queue.empty())
        next = qMin(next, m_queue.begin()->first);
    m_armedFor = next;
    m_timer->start(int(qBound<qint64>(0, next - monotonicMs(), qint64(std::numeric_limits<int>::max()))));
}

// Due functions and deadlines run in the order of their due times (ties: in the order armed).
void SystemClock::fireDue()
{
    m_armedFor = -1;
    const qint64 now = monotonicMs();
    for (;;) {
        const bool queueDue = !m_queue.empty() && m_queue.begin()->first <= now;
        const bool heapDue = !m_heap.empty() && m_heap.front()->m_dueMs <= now;
        if (!queueDue && !heapDue)
            break;
        if (heapDue) {
            const Deadline *d = m_heap.front();
            const auto q = m_queue.begin();
            if (!queueDue || d->m_dueMs < q->first || (d->m_dueMs == q->first && d->m_order < q->second.id)) {
                fireDeadline();
                continue;
            }
        }
        auto node = m_queue.extract(m_queue.begin());
        m_index.remove(node.mapped().id);
        Pending &p = node.mapped();
        if (p.hasContext && !p.context)
            continue;
        p.fn();
    }
    if (m_armedFor < 0)
        rearm();
}

void SystemClock::fireDeadline()
{
    Deadline *deadline = m_heap.front();
    removeAt(0);
    deadline->fire();
}

ManualClock::ManualClock(qint64 startMs) : m_now(startMs) { }

quint64 ManualClock::schedule(qint64 delayMs, QObject *context, std::function<void()> fn)
{
    const quint64 id = m_nextId++;
    m_pending.emplace(m_now + qMax<qint64>(0, delayMs), Pending{id, QPointer<QObject>(context), context != nullptr, std::move(fn)});
    return id;
}

void ManualClock::cancel(quint64 id)
{
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it) {
        if (it->second.id == id) {
            m_pending.erase(it);
            return;
        }
    }
}

void ManualClock::advance(qint64 ms)
{
    const qint64 target = m_now + ms;
    while (!m_pending.empty() && m_pending.begin()->first <= target) {
        auto node = m_pending.extract(m_pending.begin());
        m_now = qMax(m_now, node.key());
        Pending &p = node.mapped();
        if (p.hasContext && !p.context)
            continue;
        p.fn();
    }
    m_now = target;
}

void Deadline::start(Clock *clock, qint64 delayMs, QObject *context, std::function<void()> fn)
{
    if (m_clock && m_clock != clock)
        stop();
    m_clock = clock;
    m_fn = std::move(fn);
    if (m_context.data() != context) // a QPointer assignment costs atomics: only when it changes
        m_context = context;
    m_hasContext = context != nullptr;
    clock->arm(*this, delayMs);
}

void Deadline::stop()
{
    if (m_clock && isActive())
        m_clock->disarm(*this);
    m_fn = nullptr;
}

// Disarmed already. The function runs from a local: it may delete this deadline with its owner,
// or arm it again with a new function.
void Deadline::fire()
{
    std::function<void()> fn = std::move(m_fn);
    m_fn = nullptr;
    if (m_hasContext && !m_context)
        return;
    fn();
}

} // namespace Aile
