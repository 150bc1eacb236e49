#include "ConfigApply.h"

#include "core/EngineContext.h"
#include "keys/Routes.h"
#include "secrets/SecretStore.h"
#include "store/Store.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

namespace Aile::Config {

bool applyToStore(const ConfigFile &cfg, Store::Store &store, qint64 now, QString *adminTokenRef, QStringList *notes, QString *error)
{
    for (const Catalog::ProviderInfo &p : cfg.providers)
        store.saveProvider(p);
    if (!cfg.catalog.isEmpty()) {
        Catalog::Catalog overrides;
        if (!overrides.merge(QJsonDocument(cfg.catalog).toJson(), error, true))
            return false;
        for (const Catalog::ModelInfo &m : overrides.models())
            store.saveModelOverride(m);
        for (const Catalog::ProviderInfo &p : overrides.providers())
            store.saveProvider(p);
    }
    for (const Catalog::Sharer &s : cfg.sharers)
        if (!store.saveSharer(s, error))   // the credential binding and the plain-http refusal live there
            return false;
    const QList<Keys::ApiKey> existing = store.keys();
    for (const ProvisionedKey &pk : cfg.keys) {
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
            const QString why = QStringLiteral("key \"%1\" is not in the store yet; give its \"key\" to provision it").arg(pk.name);
            if (!notes) {
                *error = why;
                return false;
            }
            notes->append(why);
            continue;
        }
        if (pk.hasRouting)
            key.routing = pk.routing;
        if (pk.hasRoutes) {
            // Checked as the keys API checks them; the catalogue and sharers are checked once loaded.
            QJsonArray routes;
            if (const QString bad = Keys::validateRoutes(pk.routes, nullptr, nullptr, &routes); !bad.isEmpty()) {
                *error = QStringLiteral("key \"%1\": %2").arg(pk.name, bad);
                return false;
            }
            key.routes = routes;
        }
        store.saveKey(key);
    }
    if (!cfg.settings.isEmpty()) {
        QJsonObject merged = store.setting(QStringLiteral("settings")).toObject();
        for (auto it = cfg.settings.begin(); it != cfg.settings.end(); ++it)
            merged.insert(it.key(), it.value());
        store.saveSetting(QStringLiteral("settings"), merged);
    }
    if (!cfg.routing.isEmpty())
        store.saveSetting(QStringLiteral("routing"), cfg.routing);
    if (!cfg.adminToken.isEmpty()) {
        *adminTokenRef = cfg.adminToken;
        // A literal token is kept only in memory: the store never holds a secret.
        if (Secrets::Reference::parse(cfg.adminToken).has_value())
            store.saveSetting(QStringLiteral("adminTokenRef"), cfg.adminToken);
    }
    return true;
}

QJsonObject exportConfig(const EngineContext &ctx, const QString &adminTokenRef)
{
    QJsonArray providers, sharers, keys, models;
    for (const Catalog::ProviderInfo &p : ctx.catalog.providers())
        if (!p.builtIn)
            providers.append(p.toJson());
    for (const Catalog::ModelInfo &m : ctx.catalog.models())
        if (m.overridden)
            models.append(m.toJson());
    for (const Catalog::Sharer &s : ctx.sharers)
        sharers.append(s.toJson()); // a credential reference, never the credential
    for (const Keys::ApiKey &k : ctx.keys)
        keys.append(QJsonObject{{QStringLiteral("name"), k.name}, {QStringLiteral("routing"), k.routing}, {QStringLiteral("routes"), k.routes}});
    QJsonObject out{{QStringLiteral("providers"), providers},
                    {QStringLiteral("sharers"), sharers},
                    {QStringLiteral("keys"), keys},
                    {QStringLiteral("routing"), ctx.routing},
                    {QStringLiteral("settings"), ctx.settings.toJson()}};
    if (!models.isEmpty())
        out.insert(QStringLiteral("catalog"), QJsonObject{{QStringLiteral("models"), models}});
    if (Secrets::Reference::parse(adminTokenRef).has_value())
        out.insert(QStringLiteral("adminToken"), adminTokenRef);
    return out;
}

} // namespace Aile::Config
