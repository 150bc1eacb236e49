#include "ConfigValidation.h"

#include "EntryChecks.h"
#include "FieldChecks.h"
#include "keys/KeyRouting.h"
#include "keys/Routes.h"
#include "store/Store.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonDocument>
#include <QtCore/QSet>

namespace Aile::Config {

Baseline Baseline::of(const Store::Store &store)
{
    Baseline b;
    b.catalog = Catalog::Catalog::builtIn();
    for (const Catalog::ProviderInfo &p : store.customProviders())
        b.catalog.upsertProvider(p);
    for (const Catalog::ModelInfo &m : store.modelOverrides())
        b.catalog.upsertModel(m);
    b.sharers = store.sharers();
    b.keys = store.keys();
    return b;
}

std::optional<Baseline> Baseline::ofDataDir(const QString &dataDir, QString *error)
{
    const QString path = QDir(dataDir).filePath(QStringLiteral("aile.db"));
    if (dataDir.isEmpty() || !QFileInfo::exists(path))
        return empty();
    Store::Store store(path, true);
    if (!store.open(error))
        return std::nullopt;
    return of(store);
}

std::optional<Baseline> Baseline::ofStore(const QString &location, QString *error)
{
    Store::Store store(location, true);
    if (!store.open(error))
        return std::nullopt;
    if (store.schemaVersion() == 0)
        return empty(); // a new database: the engine makes the schema when it opens it
    return of(store);
}

Baseline Baseline::empty()
{
    Baseline b;
    b.catalog = Catalog::Catalog::builtIn();
    return b;
}

namespace {

// Keys::validateRouting says what is wrong; this finds which setting to point at: the first one
// refused on its own (a clash between two settings points at the routing object).
QString routingPointer(const QJsonObject &routing, const Catalog::Catalog &catalog, const QString &pointer)
{
    for (auto it = routing.begin(); it != routing.end(); ++it)
        if (!Keys::validateRouting(QJsonObject{{it.key(), it.value()}}, {}, catalog, nullptr).isEmpty())
            return pointerTo(pointer, it.key());
    return pointer;
}

// The same for Keys::validateRoutes: the first route whose list up to it is refused, then within
// it the target or the setting refused beside the route's name and targets alone.
QString routesPointer(const QJsonArray &routes, const Catalog::Catalog &catalog, const QList<Catalog::Sharer> &sharers, const QString &pointer)
{
    auto refused = [&](const QJsonArray &list) { return !Keys::validateRoutes(list, &catalog, &sharers, nullptr).isEmpty(); };
    QJsonArray prefix;
    for (int j = 0; j < routes.size(); ++j) {
        prefix.append(routes.at(j));
        if (!refused(prefix))
            continue;
        const QString at = pointerTo(pointer, j);
        const QJsonObject route = routes.at(j).toObject();
        if (route.isEmpty())
            return at;
        const QJsonValue name = route.value(QLatin1String("name"));
        const QJsonArray targets = route.value(QLatin1String("targets")).toArray();
        auto alone = [&](const QJsonArray &ts) { return QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("targets"), ts}}; };
        if (refused(QJsonArray{alone(targets)})) {
            for (int k = 0; k < targets.size(); ++k) {
                if (!refused(QJsonArray{alone(QJsonArray{targets.at(k)})}))
                    continue;
                const QString targetAt = pointerTo(pointerTo(at, QStringLiteral("targets")), k);
                const QJsonObject t = targets.at(k).toObject();
                for (auto it = t.begin(); it != t.end(); ++it) {
                    if (it.key() == QLatin1String("model"))
                        continue;
                    const QJsonObject one{{QStringLiteral("model"), t.value(QLatin1String("model"))}, {it.key(), it.value()}};
                    if (refused(QJsonArray{alone(QJsonArray{one})}))
                        return pointerTo(targetAt, it.key());
                }
                return targetAt;
            }
            return route.contains(QLatin1String("targets")) ? pointerTo(at, QStringLiteral("targets")) : at;
        }
        for (auto it = route.begin(); it != route.end(); ++it) {
            QJsonObject probe = alone(targets);
            probe.insert(it.key(), it.value());
            if (refused(QJsonArray{probe}))
                return pointerTo(at, it.key());
        }
        return at;
    }
    return pointer;
}

} // namespace

Problems validate(ConfigFile &cfg, const Baseline &base, UnknownKey unknownKey, QStringList *notes)
{
    Problems out = cfg.problems;

    // The catalogue and the sharers as they will be once applied.
    Catalog::Catalog catalog = base.catalog;
    for (const Catalog::ProviderInfo &p : cfg.providers)
        catalog.upsertProvider(p);
    Catalog::Catalog overrides;
    if (!cfg.catalog.isEmpty() && overrides.merge(QJsonDocument(cfg.catalog).toJson(), nullptr, true)) {
        for (const Catalog::ProviderInfo &p : overrides.providers())
            catalog.upsertProvider(p);
        for (const Catalog::ModelInfo &m : overrides.models())
            catalog.upsertModel(m);
    }
    const QJsonArray models = cfg.catalog.value(QLatin1String("models")).toArray();
    for (int i = 0; i < models.size(); ++i) {
        const QJsonObject m = models.at(i).toObject();
        const QString provider = m.value(QLatin1String("provider")).toString();
        if (!provider.isEmpty() && !catalog.provider(provider))
            addProblem(&out, pointerTo(pointerTo(QStringLiteral("/catalog/models"), i), QStringLiteral("provider")),
                       QStringLiteral("model %1/%2").arg(provider, m.value(QLatin1String("id")).toString()),
                       QStringLiteral("unknown provider \"%1\"; add it under \"providers\" first").arg(provider));
    }

    QList<Catalog::Sharer> sharers = base.sharers;
    const QJsonArray sharerEntries = cfg.root.value(QLatin1String("sharers")).toArray();
    QSet<QString> handles;
    for (int i = 0; i < sharerEntries.size(); ++i) {
        const auto s = Catalog::Sharer::fromJson(sharerEntries.at(i).toObject(), nullptr);
        if (!s)
            continue;
        const QString at = pointerTo(QStringLiteral("/sharers"), i);
        if (handles.contains(s->handle))
            addProblem(&out, at, sharerLabel(sharerEntries.at(i).toObject()),
                       QStringLiteral("another entry of \"sharers\" has the same handle %1; give each sharer its own").arg(s->handle));
        handles.insert(s->handle);
        if (!catalog.provider(s->provider))
            addProblem(
                &out, pointerTo(at, QStringLiteral("provider")), sharerLabel(sharerEntries.at(i).toObject()),
                QStringLiteral("unknown provider \"%1\"; add it under \"providers\" first (GET /catalog lists the known ones)").arg(s->provider));
        sharers.removeIf([&](const Catalog::Sharer &x) { return x.handle == s->handle; });
        sharers.append(*s);
    }

    QSet<QString> names;
    for (ProvisionedKey &pk : cfg.keys) {
        const QString at = pointerTo(QStringLiteral("/keys"), pk.index);
        const QString entry = keyLabel(pk.name);
        if (names.contains(pk.name))
            addProblem(&out, pointerTo(at, QStringLiteral("name")), entry,
                       QStringLiteral("another entry of \"keys\" has the same name; give each key its own"));
        names.insert(pk.name);
        const auto stored = std::find_if(base.keys.begin(), base.keys.end(), [&](const Keys::ApiKey &k) { return k.name == pk.name; });
        const bool known = stored != base.keys.end();
        if (pk.plainKey.isEmpty() && !known) {
            const QString why = QStringLiteral("not in the store yet; give its \"key\" to provision it");
            if (unknownKey == UnknownKey::Note) {
                pk.skip = true;
                if (notes)
                    notes->append(entry + QStringLiteral(" is ") + why);
                continue;
            }
            addProblem(&out, at, entry, why);
        }
        // Checked as PUT /keys checks them: routes first, then the routing settings against the routes.
        QJsonArray routes = known ? stored->routes : QJsonArray();
        const QJsonValue given = cfg.root.value(QLatin1String("keys")).toArray().at(pk.index).toObject().value(QLatin1String("routes"));
        if (pk.hasRoutes && given.isArray()) {
            if (const QString bad = Keys::validateRoutes(given, &catalog, &sharers, &routes); !bad.isEmpty()) {
                addProblem(&out, routesPointer(pk.routes, catalog, sharers, pointerTo(at, QStringLiteral("routes"))), entry, bad);
                continue;
            }
        }
        const QJsonObject asked = pk.hasRouting ? pk.routing : known ? stored->routing : QJsonObject();
        QJsonObject routing;
        if (const QString bad = Keys::validateRouting(asked, routes, catalog, &routing); !bad.isEmpty()) {
            const QString routingAt = pointerTo(at, QStringLiteral("routing"));
            addProblem(&out, pk.hasRouting ? routingPointer(asked, catalog, routingAt) : routingAt, entry, bad);
            continue;
        }
        pk.routing = routing;
        pk.routes = routes;
        pk.hasRouting = pk.hasRouting || pk.hasRoutes;
        pk.hasRoutes = pk.hasRoutes || pk.hasRouting;
    }
    // In the order of the text, as a reader goes through the file.
    if (cfg.text) {
        auto place = [&](const Problem &p) {
            const JsoncText::Position at = cfg.text->positionOf(p);
            return std::pair(at.line, at.column);
        };
        std::stable_sort(out.begin(), out.end(), [&](const Problem &a, const Problem &b) { return place(a) < place(b); });
    }
    return out;
}

} // namespace Aile::Config
