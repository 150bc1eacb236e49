#pragma once

#include <QtCore/QList>
#include <QtCore/QString>

namespace Aile::Catalog {
class Catalog;
struct Sharer;
} // namespace Aile::Catalog

namespace Aile::Routing {

/// "claude-sonnet-5.5" and "claude-sonnet-5-5" are one spelling (and case does not count).
QString spelling(const QString &id);
/// The id provider lists for a bare model id (the catalogue's ids and aliases, then the sharers'
/// own model lists), in any spelling, or as the tail of a namespaced id; empty when none.
QString matchingModel(const Catalog::Catalog &catalog, const QList<Catalog::Sharer> &sharers, const QString &provider, const QString &bareId);

} // namespace Aile::Routing
