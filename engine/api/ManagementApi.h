#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QObject>
#include <QtCore/QString>

#include <functional>

namespace Aile {
struct EngineContext;
namespace Keys {
struct ApiKey;
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

/// The management API (GUI, CLI and scripts share it): traces, the sharers listing in routing
/// order, sharer add/edit/remove/re-link, model tests and probes. Callers are authenticated
/// before they get here (admin token over HTTP; the GUI in-process).
class ManagementApi
{
public:
    explicit ManagementApi(EngineContext &context) : m_ctx(context) {}
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
    // Keys (ManagementKeys.cpp).
    bool handleKeys(const ManagementRequest &request, const ManagementReply &reply);
    QJsonObject keyJson(const Keys::ApiKey &key) const;

    EngineContext &m_ctx;
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
