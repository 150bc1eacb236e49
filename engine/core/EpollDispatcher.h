#pragma once

#include <QtCore/QAbstractEventDispatcher>
#include <QtCore/QHash>

#include <atomic>
#include <map>

namespace Aile {

/// The engine thread's event loop on epoll(7), as Qt's own dispatchers are on poll(2): socket
/// notifiers become epoll registrations, timers sit in one ordered map, posted events and other
/// threads' wake-ups come through an eventfd (docs/performance.md "Change 14 (SSE)").
///
/// Why: each pass of Qt's dispatchers hands the kernel every descriptor the thread watches and the
/// kernel sets up and tears down a wait on each, where epoll_wait touches only the ready ones. On
/// the relay of an SSE event (one read, one send) that was most of the engine's kernel time.
///
/// `aile serve`'s loop and the desktop app's engine thread run on it unless AILE_EVENT_LOOP=qt
/// (wanted()); everything else, the GUI thread included, keeps Qt's. The thread's GLib main context
/// runs inside it: a new context, pushed as the thread's default on the first pass and owned by
/// it, prepared and queried each pass, its descriptors (its own wake-up, mostly) kept in the epoll
/// set and its timeout folded into the wait, then checked and dispatched. libsecret, under
/// QtKeychain, answers through that context, so the keychain works on this loop as on Qt's GLib one.
///
/// Semantics follow QEventDispatcherUNIX: notifiers are level-triggered (a hang-up or an error
/// activates the read and write notifiers), timers are repeating and fire in due order at most
/// once per pass (a zero timer once per pass), a timer is not re-entered from its own event, and
/// interrupt() ends the current pass.
class EpollDispatcher final : public QAbstractEventDispatcher
{
public:
    explicit EpollDispatcher(QObject *parent = nullptr);
    ~EpollDispatcher() override;

    /// Unless AILE_EVENT_LOOP=qt is in the environment.
    static bool wanted();
    /// A dispatcher to install, or null: AILE_EVENT_LOOP=qt, or the kernel refused epoll or eventfd
    /// (Qt's own loop then). The caller installs it (QCoreApplication or QThread setEventDispatcher).
    static EpollDispatcher *makeIfWanted();
    /// Whether the kernel gave the epoll and eventfd descriptors (false: do not install it).
    bool isValid() const { return m_epoll >= 0 && m_wake >= 0; }

    bool processEvents(QEventLoop::ProcessEventsFlags flags) override;
    void registerSocketNotifier(QSocketNotifier *notifier) override;
    void unregisterSocketNotifier(QSocketNotifier *notifier) override;
    void registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject *object) override;
    bool unregisterTimer(int timerId) override;
    bool unregisterTimers(QObject *object) override;
    QList<TimerInfo> registeredTimers(QObject *object) const override;
    int remainingTime(int timerId) override;
    void wakeUp() override;
    void interrupt() override;

private:
    struct Watch
    {
        QSocketNotifier *read = nullptr;
        QSocketNotifier *write = nullptr;
        QSocketNotifier *exception = nullptr;
        quint32 events = 0; // what epoll watches for this descriptor now (0: not registered)
    };
    struct Timer
    {
        qint64 intervalMs = 0;
        Qt::TimerType type = Qt::CoarseTimer;
        QObject *object = nullptr;
        std::multimap<qint64, int>::iterator due; // in m_due
        bool firing = false;
    };

    static qint64 nowNs();
    void update(int fd, Watch &watch);
    int activateSockets(int fd, quint32 events);
    int activateTimers();
    int timeoutMs() const;

    void glibStart();
    void glibBeforeWait(int *timeoutMs);
    int glibAfterWait();
    void syncGlibDescriptors(int count);

    struct Glib; // the GLib context and its descriptors (EpollDispatcher.cpp)
    Glib *m_glib = nullptr;
    int m_epoll = -1;
    int m_wake = -1; // eventfd
    std::atomic<bool> m_wakePending{false};
    std::atomic<bool> m_interrupted{false};
    QHash<int, Watch> m_watches;
    QHash<int, Timer> m_timers;
    std::multimap<qint64, int> m_due; // due time (CLOCK_MONOTONIC ns) -> timer id
};

} // namespace Aile
