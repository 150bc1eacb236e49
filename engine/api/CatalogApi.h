#pragma once

#include "ManagementApi.h"

#include <functional>

namespace Aile {
namespace State {
struct SharerBook;
}
namespace Store {
class Store;
}

namespace Api {

/// The price table through the management API: list it, override one model's entry (or put it
/// back to the shipped figures), add a provider of your own by base URL, and re-import a whole
/// table from a JSON file. Overrides live in the store and are laid over the shipped table.
class CatalogApi : public ManagementComponent
{
public:
    /// sharers: the catalogue as loaded and who uses a provider; store: where edits go;
    /// reloadState: re-reads the store into the engine after an edit.
    CatalogApi(const State::SharerBook &sharers, Store::Store &store, const std::function<void()> &reloadState)
        : m_book(sharers), m_store(store), m_reloadState(reloadState)
    { }
    static bool handles(const QByteArray &path) { return path == "/catalog" || path.startsWith("/catalog/"); }
    bool handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply) override;

private:
    void answer(const ManagementRequest &request, const ManagementReply &reply);
    void list(const ManagementRequest &request, const ManagementReply &reply) const;
    void putModel(const QString &provider, const QString &id, const QJsonObject &body, const ManagementReply &reply);
    void resetModel(const QString &provider, const QString &id, const ManagementReply &reply);
    void putProvider(const QString &id, const QJsonObject &body, const ManagementReply &reply);
    void removeProvider(const QString &id, const ManagementReply &reply);
    void import(const QByteArray &body, const ManagementReply &reply);
    void reload();

    const State::SharerBook &m_book;
    Store::Store &m_store;
    const std::function<void()> &m_reloadState;
};

} // namespace Api
} // namespace Aile
