#include "EpollDispatcher.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QSocketNotifier>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <glib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <vector>

namespace Aile {

namespace {

// An epoll registration of one of GLib's descriptors carries this bit above the descriptor.
constexpr quint64 GlibTag = quint64(1) << 32;

constexpr quint32 ReadEvents = EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR;
constexpr quint32 WriteEvents = EPOLLOUT | EPOLLHUP | EPOLLERR;

// A notifier's event: what QEventDispatcherUNIX sends, read by QSocketNotifier::event.
int activate(QSocketNotifier *notifier)
{
    if (!notifier || !notifier->isEnabled())
        return 0;
    QEvent event(QEvent::SockAct);
    QCoreApplication::sendEvent(notifier, &event);
    return 1;
}

quint32 epollEventsOf(gushort condition)
{
    quint32 events = 0;
    if (condition & G_IO_IN)
        events |= EPOLLIN;
    if (condition & G_IO_OUT)
        events |= EPOLLOUT;
    if (condition & G_IO_PRI)
        events |= EPOLLPRI;
    return events;
}

gushort glibConditionOf(quint32 events)
{
    gushort condition = 0;
    if (events & EPOLLIN)
        condition |= G_IO_IN;
    if (events & EPOLLOUT)
        condition |= G_IO_OUT;
    if (events & EPOLLPRI)
        condition |= G_IO_PRI;
    if (events & EPOLLERR)
        condition |= G_IO_ERR;
    if (events & EPOLLHUP)
        condition |= G_IO_HUP;
    return condition;
}

} // namespace

struct EpollDispatcher::Glib
{
    GMainContext *context = nullptr;
    gint priority = 0;
    bool ready = false;
    std::vector<GPollFD> fds;        // what the pass's query asked for; revents filled after the wait
    int count = 0;                   // how many of fds the query filled
    std::vector<GPollFD> registered; // what the epoll set holds for the context
};

EpollDispatcher::EpollDispatcher(QObject *parent) : QAbstractEventDispatcher(parent)
{
    m_epoll = ::epoll_create1(EPOLL_CLOEXEC);
    m_wake = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_epoll >= 0 && m_wake >= 0) {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = m_wake;
        if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wake, &ev) != 0) {
            ::close(m_wake);
            m_wake = -1;
        }
    }
}

EpollDispatcher::~EpollDispatcher()
{
    if (m_glib) {
        // Deleted on its own thread (QThread's finish, QCoreApplication's destructor), the one
        // that pushed and owns the context.
        if (g_main_context_is_owner(m_glib->context))
            g_main_context_release(m_glib->context);
        if (g_main_context_get_thread_default() == m_glib->context)
            g_main_context_pop_thread_default(m_glib->context);
        g_main_context_unref(m_glib->context);
        delete m_glib;
    }
    if (m_wake >= 0)
        ::close(m_wake);
    if (m_epoll >= 0)
        ::close(m_epoll);
}

bool EpollDispatcher::wanted()
{
    return qEnvironmentVariable("AILE_EVENT_LOOP") != QLatin1String("qt");
}

EpollDispatcher *EpollDispatcher::makeIfWanted()
{
    if (!wanted())
        return nullptr;
    auto *dispatcher = new EpollDispatcher;
    if (dispatcher->isValid())
        return dispatcher;
    delete dispatcher;
    return nullptr;
}

qint64 EpollDispatcher::nowNs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// --- socket notifiers ----------------------------------------------------------------------------

void EpollDispatcher::registerSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    if (fd < 0)
        return;
    Watch &watch = m_watches[fd];
    switch (notifier->type()) {
    case QSocketNotifier::Read: watch.read = notifier; break;
    case QSocketNotifier::Write: watch.write = notifier; break;
    case QSocketNotifier::Exception: watch.exception = notifier; break;
    }
    update(fd, watch);
}

void EpollDispatcher::unregisterSocketNotifier(QSocketNotifier *notifier)
{
    const int fd = int(notifier->socket());
    const auto it = m_watches.find(fd);
    if (it == m_watches.end())
        return;
    Watch &watch = *it;
    if (watch.read == notifier)
        watch.read = nullptr;
    if (watch.write == notifier)
        watch.write = nullptr;
    if (watch.exception == notifier)
        watch.exception = nullptr;
    update(fd, watch);
    if (!watch.read && !watch.write && !watch.exception)
        m_watches.erase(it);
}

// Level-triggered, like poll(2): a notifier is told again on the next pass while its condition
// holds. A descriptor closed behind the dispatcher's back has left the epoll set already; the
// errors of a late EPOLL_CTL_DEL say so and are not a failure.
void EpollDispatcher::update(int fd, Watch &watch)
{
    quint32 want = 0;
    if (watch.read)
        want |= EPOLLIN | EPOLLRDHUP;
    if (watch.write)
        want |= EPOLLOUT;
    if (watch.exception)
        want |= EPOLLPRI;
    if (want == watch.events)
        return;
    epoll_event ev{};
    ev.events = want;
    ev.data.fd = fd;
    if (want == 0) {
        ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, &ev);
    } else if (watch.events == 0) {
        if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev) != 0 && errno == EEXIST)
            ::epoll_ctl(m_epoll, EPOLL_CTL_MOD, fd, &ev);
    } else if (::epoll_ctl(m_epoll, EPOLL_CTL_MOD, fd, &ev) != 0 && errno == ENOENT) {
        ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev);
    }
    watch.events = want;
}

// Each notifier is looked up again before it is told: the one before may have removed or
// replaced it.
int EpollDispatcher::activateSockets(int fd, quint32 events)
{
    int told = 0;
    if (events & EPOLLPRI) {
        const auto it = m_watches.constFind(fd);
        if (it != m_watches.constEnd())
            told += activate(it->exception);
    }
    if (events & ReadEvents) {
        const auto it = m_watches.constFind(fd);
        if (it != m_watches.constEnd())
            told += activate(it->read);
    }
    if (events & WriteEvents) {
        const auto it = m_watches.constFind(fd);
        if (it != m_watches.constEnd())
            told += activate(it->write);
    }
    return told;
}

// --- timers -------------------------------------------------------------------------------------

void EpollDispatcher::registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object)
{
    unregisterTimer(timerId);
    Timer timer;
    timer.intervalMs = qMax<qint64>(0, interval);
    timer.type = timerType;
    timer.object = object;
    timer.due = m_due.emplace(nowNs() + timer.intervalMs * 1'000'000, timerId);
    m_timers.insert(timerId, timer);
}

bool EpollDispatcher::unregisterTimer(int timerId)
{
    const auto it = m_timers.find(timerId);
    if (it == m_timers.end())
        return false;
    m_due.erase(it->due);
    m_timers.erase(it);
    return true;
}

bool EpollDispatcher::unregisterTimers(QObject *object)
{
    bool any = false;
    for (auto it = m_timers.begin(); it != m_timers.end();) {
        if (it->object == object) {
            m_due.erase(it->due);
            it = m_timers.erase(it);
            any = true;
        } else {
            ++it;
        }
    }
    return any;
}

QList<QAbstractEventDispatcher::TimerInfo> EpollDispatcher::registeredTimers(QObject *object) const
{
    QList<TimerInfo> out;
    for (auto it = m_timers.cbegin(); it != m_timers.cend(); ++it)
        if (it->object == object)
            out.append(TimerInfo(it.key(), int(it->intervalMs), it->type));
    return out;
}

int EpollDispatcher::remainingTime(int timerId)
{
    const auto it = m_timers.constFind(timerId);
    if (it == m_timers.constEnd())
        return -1;
    return int(qMax<qint64>(0, (it->due->first - nowNs() + 999'999) / 1'000'000));
}

int EpollDispatcher::timeoutMs() const
{
    if (m_due.empty())
        return -1;
    const qint64 left = m_due.begin()->first - nowNs();
    if (left <= 0)
        return 0;
    return int(qMin<qint64>((left + 999'999) / 1'000'000, 24 * 3600 * 1000)); // rounded up: never early
}

// The timers due now, each once: a timer re-armed while this pass runs (a zero timer, or one
// whose next due time has also passed) waits for the next pass. The next due time counts from
// the last one, or from now when the loop fell behind by more than an interval.
int EpollDispatcher::activateTimers()
{
    const qint64 now = nowNs();
    std::vector<int> due;
    for (auto it = m_due.begin(); it != m_due.end() && it->first <= now; ++it)
        due.push_back(it->second);
    int fired = 0;
    for (const int id : due) {
        auto it = m_timers.find(id);
        if (it == m_timers.end() || it->firing)
            continue; // removed by an earlier timer's event, or this event is inside its own
        const qint64 interval = it->intervalMs * 1'000'000;
        qint64 next = it->due->first + interval;
        if (next <= now)
            next = now + interval;
        m_due.erase(it->due);
        it->due = m_due.emplace(next, id);
        it->firing = true;
        QObject *object = it->object;
        QTimerEvent event(id);
        QCoreApplication::sendEvent(object, &event);
        ++fired;
        it = m_timers.find(id); // the event may have removed it, or others
        if (it != m_timers.end())
            it->firing = false;
    }
    return fired;
}

// --- GLib's context, inside the pass --------------------------------------------------------------

// Made on the first pass, on the loop's own thread: a context of its own, pushed as the thread's
// default (so that what libsecret starts here answers here) and owned for good (so that a source
// attached from another thread wakes it).
void EpollDispatcher::glibStart()
{
    if (m_glib)
        return;
    m_glib = new Glib;
    m_glib->context = g_main_context_new();
    g_main_context_push_thread_default(m_glib->context);
    g_main_context_acquire(m_glib->context);
    m_glib->fds.resize(4);
}

void EpollDispatcher::glibBeforeWait(int *timeoutMs)
{
    Glib &g = *m_glib;
    g.ready = g_main_context_prepare(g.context, &g.priority);
    gint wait = -1;
    int count;
    while ((count = g_main_context_query(g.context, g.priority, &wait, g.fds.data(), gint(g.fds.size()))) > int(g.fds.size()))
        g.fds.resize(size_t(count));
    g.count = count;
    for (int i = 0; i < count; ++i)
        g.fds[size_t(i)].revents = 0;
    syncGlibDescriptors(count);
    if (g.ready)
        wait = 0;
    if (wait >= 0 && (*timeoutMs < 0 || wait < *timeoutMs))
        *timeoutMs = wait;
}

// The context's descriptors rarely change (its own wake-up, mostly): the epoll set is touched
// only when they do.
void EpollDispatcher::syncGlibDescriptors(int count)
{
    Glib &g = *m_glib;
    const auto same = [](const GPollFD &a, const GPollFD &b) { return a.fd == b.fd && a.events == b.events; };
    if (size_t(count) == g.registered.size() && std::equal(g.registered.begin(), g.registered.end(), g.fds.begin(), same))
        return;
    for (const GPollFD &old : g.registered) {
        epoll_event ev{};
        ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, old.fd, &ev);
    }
    g.registered.clear();
    for (int i = 0; i < count; ++i) {
        const GPollFD &want = g.fds[size_t(i)];
        epoll_event ev{};
        ev.events = epollEventsOf(want.events);
        ev.data.u64 = GlibTag | quint32(want.fd);
        if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, want.fd, &ev) == 0)
            g.registered.push_back(GPollFD{want.fd, want.events, 0});
    }
}

int EpollDispatcher::glibAfterWait()
{
    if (!m_glib)
        return 0;
    Glib &g = *m_glib;
    if (!g_main_context_check(g.context, g.priority, g.fds.data(), g.count))
        return 0;
    g_main_context_dispatch(g.context);
    return 1;
}

// --- the pass -----------------------------------------------------------------------------------

void EpollDispatcher::wakeUp()
{
    if (m_wakePending.exchange(true))
        return; // one write is enough until the loop reads it
    const quint64 one = 1;
    [[maybe_unused]] const ssize_t n = ::write(m_wake, &one, sizeof one);
}

void EpollDispatcher::interrupt()
{
    m_interrupted.store(true);
    wakeUp();
}

bool EpollDispatcher::processEvents(QEventLoop::ProcessEventsFlags flags)
{
    m_interrupted.store(false);
    glibStart(); // before anything of this pass runs: what it starts in GLib answers here
    Q_EMIT awake();
    QCoreApplication::sendPostedEvents();
    if (m_interrupted.load())
        return false;
    const bool wait = flags.testFlag(QEventLoop::WaitForMoreEvents);
    if (wait)
        Q_EMIT aboutToBlock();
    // A post during the events just sent wrote the eventfd: the wait below returns at once.
    int timeout = wait ? timeoutMs() : 0;
    glibBeforeWait(&timeout);
    epoll_event events[64];
    int n = ::epoll_wait(m_epoll, events, 64, timeout);
    if (n < 0)
        n = 0; // EINTR: a signal; the caller's loop comes back
    int handled = 0;
    for (int i = 0; i < n; ++i) {
        if (events[i].data.u64 & GlibTag) {
            const int fd = int(events[i].data.u64 & 0xffffffffu);
            for (int k = 0; k < m_glib->count; ++k)
                if (m_glib->fds[size_t(k)].fd == fd)
                    m_glib->fds[size_t(k)].revents |= glibConditionOf(events[i].events);
            events[i].events = 0; // told to GLib's check below; epoll never reports an empty set
        }
    }
    for (int i = 0; i < n && !m_interrupted.load(); ++i) {
        if (events[i].events == 0)
            continue; // one of GLib's, handed over above
        const int fd = events[i].data.fd;
        if (fd == m_wake) {
            quint64 count = 0;
            [[maybe_unused]] const ssize_t r = ::read(m_wake, &count, sizeof count);
            m_wakePending.store(false);
            ++handled; // posted events: the caller's next pass sends them
            continue;
        }
        if (!flags.testFlag(QEventLoop::ExcludeSocketNotifiers))
            handled += activateSockets(fd, events[i].events);
    }
    handled += glibAfterWait(); // even when interrupted: GLib's prepare is always followed by its check
    if (!m_interrupted.load() && !flags.testFlag(QEventLoop::X11ExcludeTimers))
        handled += activateTimers();
    return handled > 0;
}

} // namespace Aile
