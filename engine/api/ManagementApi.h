#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QObject>
#include <QtCore/QString>

#include <functional>

namespace Aile {
class Clock;
struct EngineSettings;
namespace State {
struct SharerBook;
struct KeyBook;
}
namespace Store {
class Store;
class TraceSink;
}
namespace Health {
class HealthBook;
class QuotaBook;
}
namespace Billing {
class SpendBook;
}
namespace Dispatch {
class Verifier;
}
namespace Secrets {
class SecretStore;
}
namespace Routing {
class RequestPlanner;
}

namespace Api {

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

/// What the management API uses of the engine, by reference: it is the one component that edits
/// the engine's state (sharers, keys, the routing section, the catalogue), so it sees most of it;
/// each call it hands on (keys, catalogue, dry run, replay, usage, trace actions) gets only its part.
struct ManagementServices
{
    Clock &clock;
    const EngineSettings &settings;
    State::SharerBook &sharers;            // sharers, their credentials, the catalogue
    State::KeyBook &keys;
    QJsonObject &routing;                  // the routing section: default_model, fallback_models, selection, models
    Store::Store *store;                   // null: nothing is saved (an engine without a store)
    Store::TraceSink *traces;
    Health::HealthBook *health;            // null in an engine without one
    Health::QuotaBook &quota;
    Billing::SpendBook &spend;
    Dispatch::Verifier *verifier;
    Secrets::SecretStore *secrets;
    const Routing::RequestPlanner &planner;   // the sharers listing and the dry run plan through it
    const QString &adminTokenRef;             // where the admin token comes from (exports name it)
    const std::function<void()> &reloadState; // re-reads the store after an import
};

/// The management API (GUI, CLI and scripts share it): traces, the sharers listing in routing
/// order, sharer add/edit/remove/re-link, model tests and probes. Callers are authenticated
/// before they get here (admin token over HTTP; the GUI in-process).
class ManagementApi
{
public:
    explicit ManagementApi(const ManagementServices &services) : m_s(services) {}
    bool handles(const QByteArray &path) const;
    /// Answers through reply, now or later; context guards late answers.
    void handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply);

private:
    void listTraces(const ManagementRequest &request, QObject *context, const ManagementReply &reply);
    void listSharers(const ManagementRequest &request, const ManagementReply &reply);
    void saveSharer(const QString &handle, const QJsonObject &body, QObject *context, const ManagementReply &reply);
    void removeSharer(const QString &handle, const ManagementReply &reply);
    void importConfig(const ManagementRequest &request, const ManagementReply &reply);
    void accountRouting(const ManagementRequest &request, const ManagementReply &reply);

    ManagementServices m_s;
};

/// Compares secrets in time independent of where they differ.
bool sameSecret(const QString &a, const QString &b);
/// An error body for the management API.
QJsonObject managementError(const QString &message);
/// Where a credential reference keeps its secret: "keychain", "file" (the opted-in plain-text
/// file), "env", or "none" (no reference).
QString credentialStoreOf(const QString &credentialRef);

} // namespace Api
} // namespace Aile
