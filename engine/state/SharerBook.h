#pragma once

#include "catalog/Catalog.h"
#include "catalog/Sharer.h"

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QString>

namespace Aile::State {

/// The sharers the engine routes to, what it knows of them and of their credentials: the
/// catalogue (providers, models, prices), the sharer rows, and per handle the secret held in
/// memory or why there is none. Owned by the engine on its thread; the planner, the dispatch, the
/// verifier and the management API read it (the management API and the verifier also change it).
struct SharerBook
{
    Catalog::Catalog catalog;
    QList<Catalog::Sharer> sharers;
    QHash<QString, QString> credentials;      // handle → secret, in memory only
    QHash<QString, QString> credentialErrors; // handle → why it has none
    QHash<QString, QString> credentialHomes;  // reference → the base URL its secret was entered for (Secrets::apiReferenceRefusal)

    const Catalog::Sharer *sharer(const QString &handle) const { return Catalog::findSharer(sharers, handle); }
    Catalog::Sharer *sharer(const QString &handle);
    /// The base URL a sharer is dialled at: its own, or its provider's.
    QString baseUrlOf(const Catalog::Sharer &sharer) const;
    /// After a sharer changed: its secret is in memory only while it may be sent (not needsKey()),
    /// and its reference's home is noted for the management API's check.
    /// newCredential: the sharer was just given its credential, which now belongs to its base URL.
    void noteCredentialBinding(const Catalog::Sharer &sharer, bool newCredential = false);
};

} // namespace Aile::State
