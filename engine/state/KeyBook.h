#pragma once

#include "keys/ApiKey.h"

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QString>

namespace Aile::State {

/// The proxy's own API keys as the engine holds them (the store's rows, read at start and after
/// each change): the front door looks a presented key up here, the management API lists and edits them.
struct KeyBook
{
    QList<Keys::ApiKey> keys;

    /// The unrevoked key with this hash (Keys::hashKey of a presented plain key), or null. Found
    /// through an index of the keys by hash, not a scan (a team server holds many keys).
    const Keys::ApiKey *keyByHash(const QString &hash) const;
    /// A key by its id, else by its name (the management API and the CLI take either).
    const Keys::ApiKey *key(const QString &idOrName) const;
    Keys::ApiKey *key(const QString &idOrName);

private:
    // keys is edited in place (the management API, a configuration apply, a reload), so the index
    // is never trusted: a position it gives is used only when the key there still has the hash and
    // is not revoked; otherwise the scan answers and rebuilds it. Engine thread only.
    mutable QHash<QString, qsizetype> m_byHash;
};

} // namespace Aile::State
