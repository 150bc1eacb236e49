#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QObject>
#include <QtCore/QString>

#include <functional>

namespace Aile::Ui {

/// How ManagementClient reaches an engine's management API: the embedded engine in-process today
/// (InProcessTransport); an engine elsewhere over HTTP with its admin token fits the same shape.
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
};

} // namespace Aile::Ui
