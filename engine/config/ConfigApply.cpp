#include "ConfigApply.h"

#include "core/EngineSettings.h"
#include "state/KeyBook.h"
#include "state/SharerBook.h"
#include "secrets/SecretStore.h"
#include "store/Store.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

namespace Aile::Config {

bool applyToStore(const ConfigFile &cfg, Store::Store &store, qint64 now, QString *adminTokenRef, QString *error)
{
    // One transaction: a write the database refuses half-way leaves the store as it was.
    const QList<Keys::ApiKey> existing = store.keys();
    QString refused;
    QString refusal; // a refusal with its own words, said as it is
    const bool written = store.inTransaction([&] {
        auto ok = [&](bool saved, const QString &what) {
            if (!saved && refused.isEmpty())
                refused = what;
            return saved;
        };
        for (const Catalog::ProviderInfo &p : cfg.providers)
            if (!ok(store.saveProvider(p), QStringLiteral("provider ") + p.id))
                return false;
        if (!cfg.catalog.isEmpty()) {
            Catalog::Catalog overrides;
            if (!overrides.merge(QJsonDocument(cfg.catalog).toJson(), &refused, true))
                return false;
            for (const Catalog::ModelInfo &m : overrides.models())
                if (!ok(store.saveModelOverride(m), QStringLiteral("model %1/%2").arg(m.provider, m.id)))
                    return false;
            for (const Catalog::ProviderInfo &p : overrides.providers())
                if (!ok(store.saveProvider(p), QStringLiteral("provider ") + p.id))
                    return false;
        }
        for (const Catalog::Sharer &s : cfg.sharers) {
            // The store holds the credential binding and the plain-http refusal (docs/secrets.md).
            QString why;
            if (!store.saveSharer(s, &why)) {
                refusal = QStringLiteral("sharer %1: %2").arg(s.handle, why.isEmpty() ? QStringLiteral("the store refused it") : why);
                return false;
            }
        }
        for (const ProvisionedKey &pk : cfg.keys) {
            if (pk.skip)
                continue;
            Keys::ApiKey key;
            const auto old = std::find_if(existing.begin(), existing.end(), [&](const Keys::ApiKey &k) { return k.name == pk.name; });
            if (!pk.plainKey.isEmpty()) {
                key = Keys::ApiKey::fromPlain(pk.name, pk.plainKey, now);
                if (old != existing.end() && old->hash == key.hash) {
                    key.createdMs = old->createdMs;
                    key.revoked = old->revoked; // a revoked key is not revived by the file at the next start
                }
                if (old != existing.end()) {
                    key.routing = old->routing;
                    key.routes = old->routes;
                }
            } else if (old != existing.end()) {
                key = *old;
            } else {
                continue; // validate() has refused it or noted it
            }
            // validate() left the routing and routes as they are stored.
            if (pk.hasRouting)
                key.routing = pk.routing;
            if (pk.hasRoutes)
                key.routes = pk.routes;
            if (!ok(store.saveKey(key), QStringLiteral("key \"%1\"").arg(pk.name)))
                return false;
        }
        if (!cfg.settings.isEmpty()) {
            QJsonObject merged = store.setting(QStringLiteral("settings")).toObject();
            for (auto it = cfg.settings.begin(); it != cfg.settings.end(); ++it)
                merged.insert(it.key(), it.value());
            if (!ok(store.saveSetting(QStringLiteral("settings"), merged), QStringLiteral("settings")))
                return false;
        }
        if (!cfg.routing.isEmpty() && !ok(store.saveSetting(QStringLiteral("routing"), cfg.routing), QStringLiteral("routing")))
            return false;
        // A literal token is kept only in memory: the store never holds a secret.
        if (!cfg.adminToken.isEmpty() && Secrets::Reference::parse(cfg.adminToken).has_value()
            && !ok(store.saveSetting(QStringLiteral("adminTokenRef"), cfg.adminToken), QStringLiteral("adminToken")))
            return false;
        return true;
    });
    if (!written && !refusal.isEmpty()) {
        if (error)
            *error = refusal + QStringLiteral("; nothing was applied");
        return false;
    }
    if (!written) {
        if (error)
            *error = QStringLiteral("the store refused %1; nothing was applied (see the engine log)")
                         .arg(refused.isEmpty() ? QStringLiteral("the transaction") : refused);
        return false;
    }
    if (!cfg.adminToken.isEmpty() && adminTokenRef)
        *adminTokenRef = cfg.adminToken;
    return true;
}

QJsonObject exportConfig(const State::SharerBook &book, const State::KeyBook &keyBook, const QJsonObject &routing, const EngineSettings &settings,
                         const QString &adminTokenRef)
{
    QJsonArray providers, sharers, keys, models;
    for (const Catalog::ProviderInfo &p : book.catalog.providers())
        if (!p.builtIn)
            providers.append(p.toJson());
    for (const Catalog::ModelInfo &m : book.catalog.models())
        if (m.overridden)
            models.append(m.toJson());
    for (const Catalog::Sharer &s : book.sharers)
        sharers.append(s.toJson()); // a credential reference, never the credential
    for (const Keys::ApiKey &k : keyBook.keys)
        keys.append(QJsonObject{{QStringLiteral("name"), k.name}, {QStringLiteral("routing"), k.routing}, {QStringLiteral("routes"), k.routes}});
    QJsonObject out{{QStringLiteral("providers"), providers},
                    {QStringLiteral("sharers"), sharers},
                    {QStringLiteral("keys"), keys},
                    {QStringLiteral("routing"), routing},
                    {QStringLiteral("settings"), settings.toJson()}};
    if (!models.isEmpty())
        out.insert(QStringLiteral("catalog"), QJsonObject{{QStringLiteral("models"), models}});
    if (Secrets::Reference::parse(adminTokenRef).has_value())
        out.insert(QStringLiteral("adminToken"), adminTokenRef);
    return out;
}

} // namespace Aile::Config
