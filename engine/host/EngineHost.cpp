#include "EngineHost.h"

#include "core/EpollDispatcher.h"

namespace Aile {

EngineHost::EngineHost(EngineOptions options, QObject *parent) : QObject(parent), m_engine(new Engine(std::move(options)))
{
    m_thread.setObjectName(QStringLiteral("aile-engine"));
    // The engine thread's loop on epoll, unless AILE_EVENT_LOOP=qt (core/EpollDispatcher.h).
    if (auto *dispatcher = EpollDispatcher::makeIfWanted())
        m_thread.setEventDispatcher(dispatcher);
    m_engine->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_engine, &QObject::deleteLater);
    connect(m_engine, &Engine::started, this, &EngineHost::started);
    connect(m_engine, &Engine::startFailed, this, &EngineHost::startFailed);
    connect(m_engine, &Engine::statusChanged, this, &EngineHost::statusChanged);
    connect(m_engine, &Engine::tracesRecorded, this, &EngineHost::tracesRecorded);
    connect(m_engine, &Engine::managementReplied, this, &EngineHost::managementReplied);
    connect(m_engine, &Engine::stopped, this, [this] {
        // The engine goes with its thread (deleteLater on finished): nothing may reach it after this.
        m_engine = nullptr;
        m_thread.quit();
        Q_EMIT stopped();
    });
}

EngineHost::~EngineHost()
{
    if (m_thread.isRunning()) {
        // Last resort at exit: the engine's stop is quick (close the listener, flush traces).
        if (m_engine)
            QMetaObject::invokeMethod(m_engine, &Engine::stop, Qt::QueuedConnection);
        m_thread.quit();
        m_thread.wait(5000);
    }
}

void EngineHost::start()
{
    if (!m_engine)
        return;
    m_thread.start();
    QMetaObject::invokeMethod(m_engine, &Engine::start, Qt::QueuedConnection);
}

void EngineHost::setListenPort(quint16 port)
{
    // The engine's thread has not started: nothing else touches it yet.
    if (m_engine && !m_thread.isRunning())
        m_engine->setListenPort(port);
}

void EngineHost::stop()
{
    if (!m_engine || !m_thread.isRunning()) {
        Q_EMIT stopped();
        return;
    }
    QMetaObject::invokeMethod(m_engine, &Engine::stop, Qt::QueuedConnection);
}

quint64 EngineHost::manage(const QString &method, const QString &path, const QByteArray &body)
{
    const quint64 id = m_nextCall++;
    if (!m_engine) {
        // Stopped: answer as the engine does before it runs, still asynchronously.
        QMetaObject::invokeMethod(
            this, [this, id] { Q_EMIT managementReplied(id, 503, QByteArray("{\"error\":{\"message\":\"the engine is not running\"}}")); },
            Qt::QueuedConnection);
        return id;
    }
    QMetaObject::invokeMethod(
        m_engine, [engine = m_engine, id, method, path, body] { engine->manage(id, method, path, body); }, Qt::QueuedConnection);
    return id;
}

void EngineHost::requestStatus()
{
    if (!m_engine)
        return;
    QMetaObject::invokeMethod(m_engine, &Engine::requestStatus, Qt::QueuedConnection);
}

} // namespace Aile
