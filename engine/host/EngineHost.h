#pragma once

#include "Engine.h"

#include <QtCore/QObject>
#include <QtCore/QThread>

namespace Aile {

/// Lives on the main thread and owns the engine thread: starts the Engine worker on its own
/// QThread and relays its signals (queued, value types only). Nothing here blocks on the engine.
class EngineHost : public QObject
{
    Q_OBJECT
public:
    explicit EngineHost(EngineOptions options, QObject *parent = nullptr);
    ~EngineHost() override;

    void start();
    /// Before start(): listen on this port instead (0: any free one).
    void setListenPort(quint16 port);
    /// Asks the engine to stop; stopped() follows, then the thread ends.
    void stop();
    void requestStatus();
    /// A management call in-process; the answer comes as managementReplied with the returned id.
    quint64 manage(const QString &method, const QString &path, const QByteArray &body = {});
    bool isRunning() const { return m_thread.isRunning(); }

Q_SIGNALS:
    void started(const QString &address, quint16 port);
    void startFailed(const QString &error);
    void stopped();
    void statusChanged(const Aile::Api::EngineStatus &status);
    void tracesRecorded(const QList<Aile::Store::TraceRecord> &traces);
    void managementReplied(quint64 id, int status, const QByteArray &body);

private:
    QThread m_thread;
    Engine *m_engine;
    quint64 m_nextCall = 1;
};

} // namespace Aile
