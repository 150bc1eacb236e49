// Model naming: one spelling for ids that differ only in case and dots, and the id a provider
// lists for a bare model (auto/ and the bare-model lever).
#include "ModelNaming.h"

#include "catalog/Catalog.h"
#include "catalog/Sharer.h"

namespace Aile::Routing {

QString spelling(const QString &id)
{
    QString s = id.toLower();
    s.replace(QLatin1Char('.'), QLatin1Char('-'));
    return s;
}

QString matchingModel(const Catalog::Catalog &catalog, const QList<Catalog::Sharer> &sharers, const QString &provider, const QString &bareId)
{
    const QString want = spelling(bareId);
    QStringList ids;
    for (const Catalog::ModelInfo *m : catalog.modelsOf(provider)) {
        ids << m->id;
        ids += m->aliases;
    }
    for (const Catalog::Sharer &s : sharers)
        if (s.provider == provider)
            ids += s.models;
    for (const QString &id : ids)
        if (spelling(id) == want)
            return id;
    for (const QString &id : ids)
        if (spelling(id).endsWith(QLatin1Char('/') + want))
            return id;
    return {};
}

} // namespace Aile::Routing
