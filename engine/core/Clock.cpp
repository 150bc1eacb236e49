#include "Clock.h"

#include <QtCore/QDateTime>
#include <QtCore/QTimer>

namespace Aile {

qint64 SystemClock::nowMs() const
{
    return QDateTime::currentMSecsSinceEpoch();
}

SystemClock::~SystemClock()
{
    // Deleting a timer also drops its connections, so nothing calls back into a dead clock.
    const auto timers = m_timers;
    m_timers.clear();
    qDeleteAll(timers);
}

quint64 SystemClock::schedule(qint64 delayMs, QObject *context, std::function<void()> fn)
{
    const quint64 id = m_nextId++;
    auto *timer = new QTimer;
    timer->setSingleShot(true);
    timer->setTimerType(delayMs < 2000 ? Qt::PreciseTimer : Qt::CoarseTimer);
    QObject::connect(timer, &QTimer::timeout, context, [this, id, timer, fn = std::move(fn)] {
        m_timers.remove(id);
        timer->deleteLater();
        fn();
    });
    // A destroyed context disconnects the lambda; the timer must not outlive it silently.
    QObject::connect(context, &QObject::destroyed, timer, [this, id, timer] {
        m_timers.remove(id);
        timer->deleteLater();
    });
    m_timers.insert(id, timer);
    timer->start(int(qBound<qint64>(0, delayMs, qint64(std::numeric_limits<int>::max()))));
    return id;
}

void SystemClock::cancel(quint64 id)
{
    if (QObject *timer = m_timers.take(id)) {
        static_cast<QTimer *>(timer)->stop();
        timer->deleteLater();
    }
}

ManualClock::ManualClock(qint64 startMs) : m_now(startMs) {}

quint64 ManualClock::schedule(qint64 delayMs, QObject *context, std::function<void()> fn)
{
    const quint64 id = m_nextId++;
    m_pending.emplace(m_now + qMax<qint64>(0, delayMs),
                      Pending{id, QPointer<QObject>(context), context != nullptr, std::move(fn)});
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
