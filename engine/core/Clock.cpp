#include "Clock.h"

#include <QtCore/QDateTime>
#include <QtCore/QElapsedTimer>
#include <QtCore/QTimer>

namespace Aile {

SystemClock::~SystemClock()
{
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

quint64 SystemClock::schedule(qint64 delayMs, QObject *context, std::function<void()> fn)
{
    if (!m_timer) {
        m_timer = new QTimer;
        m_timer->setSingleShot(true);
        m_timer->setTimerType(Qt::PreciseTimer);
        QObject::connect(m_timer, &QTimer::timeout, m_timer, [this] { fireDue(); });
    }
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

void SystemClock::rearm()
{
    if (m_queue.empty()) {
        m_timer->stop();
        m_armedFor = -1;
        return;
    }
    const qint64 next = m_queue.begin()->first;
    m_armedFor = next;
    m_timer->start(int(qBound<qint64>(0, next - monotonicMs(), qint64(std::numeric_limits<int>::max()))));
}

void SystemClock::fireDue()
{
    m_armedFor = -1;
    const qint64 now = monotonicMs();
    while (!m_queue.empty() && m_queue.begin()->first <= now) {
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
    stop();
    m_clock = clock;
    m_id = clock->schedule(delayMs, context, [this, fn = std::move(fn)] {
        m_id = 0;
        fn();
    });
}

void Deadline::stop()
{
    if (m_id && m_clock)
        m_clock->cancel(m_id);
    m_id = 0;
}

} // namespace Aile
