// Model naming: one spelling for ids that differ only in case and dots, and the id a provider
// lists for a bare model (auto/ and the bare-model lever).
#include "Router.h"

#include "state/EngineContext.h"

namespace Aile::Routing {

QString Router::spelling(const QString &id)
{
    QString s = id.toLower();
    s.replace(QLatin1Char('.'), QLatin1Char('-'));
    return s;
}

QString Router::matchingModel(const QString &provider, const QString &bareId) const
{
    const QString want = spelling(bareId);
    QStringList ids;
    for (const Catalog::ModelInfo *m : m_ctx.catalog.modelsOf(provider)) {
        ids << m->id;
        ids += m->aliases;
    }
    for (const Catalog::Sharer &s : m_ctx.sharers)
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
