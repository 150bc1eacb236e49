// The engine thread's loop on epoll (core/EpollDispatcher.h): a QThread runs it, objects in that
// thread use QTimer and QSocketNotifier as the engine does, and the test thread reads what they
// recorded. Behaviour is Qt's dispatchers': timers in due order, zero timers once per pass,
// level-triggered notifiers, wake-ups and quit from another thread.
#include "core/EpollDispatcher.h"

#include <QtCore/QMutex>
#include <QtCore/QSocketNotifier>
#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QtTest/QtTest>

#include <glib.h>
#include <memory>
#include <sys/socket.h>
#include <unistd.h>

using namespace Aile;

namespace {

// Lives in the epoll thread; what it saw, read under a lock by the test thread.
class Probe : public QObject
{
public:
    QStringList seen() const
    {
        QMutexLocker lock(&m_lock);
        return m_seen;
    }
    void note(const QString &what)
    {
        QMutexLocker lock(&m_lock);
        m_seen.append(what);
    }

    int zeroTimer = 0;
    int zeroFires = 0;
    int killAfter = 0;

protected:
    void timerEvent(QTimerEvent *event) override
    {
        if (event->timerId() != zeroTimer)
            return;
        ++zeroFires;
        note(QStringLiteral("zero %1").arg(zeroFires));
        if (zeroFires == killAfter) {
            killTimer(zeroTimer);
            zeroTimer = 0;
        }
    }

private:
    mutable QMutex m_lock;
    QStringList m_seen;
};

} // namespace

class TestEpollDispatcher : public QObject
{
    Q_OBJECT

private:
    QThread *m_thread = nullptr;
    EpollDispatcher *m_dispatcher = nullptr;
    Probe *m_probe = nullptr;

    // Runs f in the epoll thread and waits for it (a queued call: the loop must wake for it).
    template <class F> void inLoop(F f) { QVERIFY(QMetaObject::invokeMethod(m_probe, f, Qt::BlockingQueuedConnection)); }

private Q_SLOTS:
    void init()
    {
        m_thread = new QThread;
        m_dispatcher = new EpollDispatcher;
        QVERIFY(m_dispatcher->isValid());
        m_thread->setEventDispatcher(m_dispatcher);
        m_probe = new Probe;
        m_probe->moveToThread(m_thread);
        m_thread->start();
    }

    void cleanup()
    {
        // deleteLater called in the loop before quit: the deferred deletion is then pending when
        // the loop ends, and the thread delivers it as it finishes (a queued deleteLater raced quit).
        Probe *p = m_probe;
        inLoop([p] { p->deleteLater(); });
        m_thread->quit();
        QVERIFY(m_thread->wait(5000)); // quit from another thread wakes a blocked epoll_wait
        delete m_thread;
        m_thread = nullptr;
    }

    void theThreadRunsOnTheEpollDispatcher()
    {
        QAbstractEventDispatcher *used = nullptr;
        inLoop([&used] { used = QAbstractEventDispatcher::instance(); });
        QCOMPARE(used, static_cast<QAbstractEventDispatcher *>(m_dispatcher));
    }

    // Single-shot timers fire in the order they are due, not the order they were started.
    void timersFireInDueOrder()
    {
        Probe *p = m_probe;
        inLoop([p] {
            QTimer::singleShot(40, p, [p] { p->note(QStringLiteral("40 ms")); });
            QTimer::singleShot(15, p, [p] { p->note(QStringLiteral("15 ms")); });
            QTimer::singleShot(0, p, [p] { p->note(QStringLiteral("0 ms")); });
        });
        QTRY_COMPARE(p->seen(), (QStringList{QStringLiteral("0 ms"), QStringLiteral("15 ms"), QStringLiteral("40 ms")}));
    }

    // A repeating timer repeats until stopped; a stopped one is no longer registered, and
    // remainingTime tells a running one's wait.
    void aRepeatingTimerRepeatsUntilStopped()
    {
        Probe *p = m_probe;
        QTimer *timer = nullptr;
        int remaining = -2;
        inLoop([p, &timer, &remaining] {
            timer = new QTimer(p);
            timer->setTimerType(Qt::PreciseTimer);
            timer->setInterval(2);
            auto count = std::make_shared<int>(0);
            QObject::connect(timer, &QTimer::timeout, p, [p, timer, count] {
                p->note(QStringLiteral("tick"));
                if (++*count == 5)
                    timer->stop();
            });
            timer->start();
            remaining = timer->remainingTime();
        });
        QVERIFY2(remaining >= 0 && remaining <= 2, qPrintable(QString::number(remaining)));
        QTRY_COMPARE(p->seen().size(), 5);
        bool active = true;
        int registered = -1;
        EpollDispatcher *d = m_dispatcher;
        inLoop([timer, &active, &registered, d] {
            active = timer->isActive();
            registered = int(d->registeredTimers(timer).size());
        });
        QVERIFY(!active);
        QCOMPARE(registered, 0);
        QCOMPARE(p->seen().size(), 5); // no tick after stop
    }

    // A zero timer fires once per pass of the loop, after the call that started it, and a
    // killTimer from inside its own event ends it.
    void aZeroTimerFiresOncePerPassUntilKilled()
    {
        Probe *p = m_probe;
        inLoop([p] {
            p->killAfter = 3;
            p->zeroTimer = p->startTimer(0);
            p->note(QStringLiteral("started"));
        });
        QTRY_COMPARE(p->seen(),
                     (QStringList{QStringLiteral("started"), QStringLiteral("zero 1"), QStringLiteral("zero 2"), QStringLiteral("zero 3")}));
    }

    // Level-triggered, like poll: a notifier whose handler leaves the byte unread is told again;
    // a disabled one is not told; the peer's close activates the read notifier (read gives 0).
    void socketNotifiersAreLevelTriggered()
    {
        int fds[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
        Probe *p = m_probe;
        QSocketNotifier *notifier = nullptr;
        const int ours = fds[0];
        inLoop([p, &notifier, ours] {
            notifier = new QSocketNotifier(ours, QSocketNotifier::Read, p);
            auto calls = std::make_shared<int>(0);
            QObject::connect(notifier, &QSocketNotifier::activated, p, [p, ours, calls] {
                ++*calls;
                if (*calls == 1) {
                    p->note(QStringLiteral("readable, left unread"));
                    return;
                }
                char buf[16];
                const ssize_t n = ::read(ours, buf, sizeof buf);
                p->note(n == 0 ? QStringLiteral("end of stream") : QStringLiteral("read %1").arg(n));
            });
        });
        QCOMPARE(::write(fds[1], "x", 1), ssize_t(1));
        QTRY_COMPARE(p->seen(), (QStringList{QStringLiteral("readable, left unread"), QStringLiteral("read 1")}));
        inLoop([notifier] { notifier->setEnabled(false); });
        QCOMPARE(::write(fds[1], "yz", 2), ssize_t(2));
        // Proof the loop ran past the write without telling the disabled notifier: a queued call
        // that comes after it.
        inLoop([p] { p->note(QStringLiteral("pass")); });
        QCOMPARE(p->seen().last(), QStringLiteral("pass"));
        inLoop([notifier] { notifier->setEnabled(true); });
        QTRY_COMPARE(p->seen().last(), QStringLiteral("read 2"));
        ::close(fds[1]);
        QTRY_COMPARE(p->seen().last(), QStringLiteral("end of stream"));
        inLoop([notifier] { delete notifier; });
        ::close(fds[0]);
    }

    // A write notifier is told while the socket takes bytes; the handler that disables it ends it.
    void aWriteNotifierIsToldWhenWritable()
    {
        int fds[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
        Probe *p = m_probe;
        const int ours = fds[0];
        inLoop([p, ours] {
            auto *notifier = new QSocketNotifier(ours, QSocketNotifier::Write, p);
            QObject::connect(notifier, &QSocketNotifier::activated, p, [p, notifier] {
                p->note(QStringLiteral("writable"));
                notifier->setEnabled(false);
            });
        });
        QTRY_COMPARE(p->seen(), QStringList{QStringLiteral("writable")});
        inLoop([p] { p->note(QStringLiteral("pass")); });
        QCOMPARE(p->seen(), (QStringList{QStringLiteral("writable"), QStringLiteral("pass")}));
        ::close(fds[0]);
        ::close(fds[1]);
    }

    // GLib's context runs inside the loop (libsecret answers through it): a timeout source attached
    // on the thread fires, and a call invoked on the context from another thread wakes the loop.
    void glibSourcesRunInsideTheLoop()
    {
        Probe *p = m_probe;
        GMainContext *context = nullptr;
        inLoop([p, &context] {
            context = g_main_context_ref_thread_default();
            GSource *timeout = g_timeout_source_new(5);
            g_source_set_callback(
                timeout,
                [](gpointer probe) -> gboolean {
                    static_cast<Probe *>(probe)->note(QStringLiteral("GLib timeout"));
                    return G_SOURCE_REMOVE;
                },
                p, nullptr);
            g_source_attach(timeout, context);
            g_source_unref(timeout);
        });
        QVERIFY(context != g_main_context_default()); // the loop's own, pushed as the thread's default
        QTRY_COMPARE(p->seen(), QStringList{QStringLiteral("GLib timeout")});
        g_main_context_invoke(
            context,
            [](gpointer probe) -> gboolean {
                static_cast<Probe *>(probe)->note(QStringLiteral("invoked from another thread"));
                return G_SOURCE_REMOVE;
            },
            p);
        QTRY_COMPARE(p->seen().last(), QStringLiteral("invoked from another thread"));
        g_main_context_unref(context);
    }

    // The queued calls above already wake the blocked loop from the test thread; a posted event
    // with no timer and no socket pending does too, many times over, each delivered once.
    void postedEventsFromAnotherThreadAreDeliveredOnce()
    {
        Probe *p = m_probe;
        for (int i = 0; i < 100; ++i)
            QMetaObject::invokeMethod(
                p, [p, i] { p->note(QString::number(i)); }, Qt::QueuedConnection);
        QTRY_COMPARE(p->seen().size(), 100);
        QCOMPARE(p->seen().first(), QStringLiteral("0"));
        QCOMPARE(p->seen().last(), QStringLiteral("99"));
    }
};

QTEST_GUILESS_MAIN(TestEpollDispatcher)
#include "TestEpollDispatcher.moc"
