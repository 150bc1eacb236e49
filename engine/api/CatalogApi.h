#pragma once

#include "ManagementApi.h"

namespace Aile {
struct EngineContext;

namespace Api {

/// The price table through the management API: list it, override one model's entry (or put it
/// back to the shipped figures), add a provider of your own by base URL, and re-import a whole
/// table from a JSON file. Overrides live in the store and are laid over the shipped table.
class CatalogApi
{
public:
    explicit CatalogApi(EngineContext &context) : m_ctx(context) {}
    static bool handles(const QByteArray &path) { return path == "/catalog" || path.startsWith("/catalog/"); }
    void handle(const ManagementRequest &request, const ManagementReply &reply);

private:
    void list(const ManagementRequest &request, const ManagementReply &reply) const;
    void putModel(const QString &provider, const QString &id, const QJsonObject &body, const ManagementReply &reply);
    void resetModel(const QString &provider, const QString &id, const ManagementReply &reply);
    void putProvider(const QString &id, const QJsonObject &body, const ManagementReply &reply);
    void removeProvider(const QString &id, const ManagementReply &reply);
    void import(const QByteArray &body, const ManagementReply &reply);
    void reload();

    EngineContext &m_ctx;
};

} // namespace Api
} // namespace Aile
