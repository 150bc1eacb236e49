#pragma once

#include "host/Engine.h"
#include "store/TraceRecord.h"

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QString>

#include <functional>

namespace Aile::Ui {

/// How ManagementClient reaches an engine's management API: the embedded engine in-process
/// (InProcessTransport) or an engine elsewhere over HTTP with its admin token (HttpTransport).
/// send() never blocks; done runs on the GUI thread, at most once, and not once context is gone.
class IManagementTransport : public QObject
{
    Q_OBJECT
public:
    using Done = std::function<void(int status, const QByteArray &body)>;
    using QObject::QObject;

    /// path may carry a query ("/sharers?model=…"); body is JSON or empty. status 0: no engine.
    virtual void send(const QString &method, const QString &path, const QByteArray &body, QObject *context, Done done) = 0;
    /// Calls sent and not answered yet.
    virtual int pending() const = 0;
    /// Starts delivering the engine's finished requests as tracesRecorded (the in-process
    /// transport relays the engine's signal; the HTTP one opens GET /admin/traces/stream).
    virtual void watchTraces() { }
    /// Whether statusChanged comes by itself after each change (the embedded engine's signal);
    /// otherwise ManagementClient asks GET /admin/status after each change it makes.
    virtual bool pushesStatus() const { return false; }

Q_SIGNALS:
    /// The engine's status, pushed by the engine (in-process only; see pushesStatus).
    void statusChanged(const Aile::Api::EngineStatus &status);
    /// A batch of finished requests, about every 100 ms while requests finish.
    void tracesRecorded(const QList<Aile::Store::TraceRecord> &traces);
    /// Live batches were lost (a slow reader, a cut stream): what is shown should be read again.
    void tracesMissed();
};

} // namespace Aile::Ui
