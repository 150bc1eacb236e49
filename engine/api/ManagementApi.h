#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QObject>
#include <QtCore/QString>

#include <functional>
#include <memory>
#include <vector>

namespace Aile::Api {

/// One management call, from HTTP (GET /sharers …) or from the GUI in-process.
struct ManagementRequest
{
    QByteArray method;
    QByteArray path;
    QByteArray query;
    QByteArray body;
    QString queryValue(const QString &name) const;
    bool hasQuery(const QString &name) const;
};
using ManagementReply = std::function<void(int status, const QJsonObject &body)>;

/// One part of the management API (keys, sharers, the catalogue, usage, …). The Engine builds each
/// once and hands it, through its constructor, only the services it uses (docs/architecture.md,
/// "What a component depends on"); none sees the engine's state whole.
class ManagementComponent
{
public:
    virtual ~ManagementComponent() = default;
    /// Takes the call when it is one of this component's, answers through reply (now or later;
    /// context guards late answers) and returns true; returns false, answering nothing, otherwise.
    virtual bool handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply) = 0;
};

/// The management API (GUI, CLI and scripts share it): the components in the order they are
/// asked. Callers are authenticated before they get here (admin token over HTTP; the GUI in-process).
class ManagementApi
{
public:
    /// Whether path is a management path at all (the router asks before it checks the admin token).
    static bool handles(const QByteArray &path);
    /// Asked after the components added before it.
    void add(std::unique_ptr<ManagementComponent> component);
    /// The first component that takes the call answers it; a 404 naming the call when none does.
    void handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply);

private:
    std::vector<std::unique_ptr<ManagementComponent>> m_components;
};

/// Compares secrets in time independent of where they differ.
bool sameSecret(QStringView a, QStringView b);
/// An error body for the management API.
QJsonObject managementError(const QString &message);
/// Where a credential reference keeps its secret: "keychain", "file" (the opted-in plain-text
/// file), "env", or "none" (no reference).
QString credentialStoreOf(const QString &credentialRef);

} // namespace Aile::Api
