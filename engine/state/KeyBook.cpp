#include "KeyBook.h"

#include <utility>

namespace Aile::State {

const Keys::ApiKey *KeyBook::keyByHash(const QString &hash) const
{
    if (hash.isEmpty())
        return nullptr;
    const qsizetype i = m_byHash.value(hash, -1);
    if (i >= 0 && i < keys.size() && keys.at(i).hash == hash && !keys.at(i).revoked)
        return &keys.at(i);
    // Not placed by the index (a key added, removed or revoked since, or no such key): the scan
    // answers, and a key it finds rebuilds the index. An unknown key costs the scan, as before.
    for (const Keys::ApiKey &k : keys) {
        if (k.hash == hash && !k.revoked) {
            m_byHash.clear();
            m_byHash.reserve(keys.size());
            for (qsizetype j = 0; j < keys.size(); ++j)
                if (!keys.at(j).revoked)
                    m_byHash.insert(keys.at(j).hash, j);
            return &k;
        }
    }
    return nullptr;
}

const Keys::ApiKey *KeyBook::key(const QString &idOrName) const
{
    for (const Keys::ApiKey &k : keys)
        if (k.id == idOrName)
            return &k;
    for (const Keys::ApiKey &k : keys)
        if (k.name == idOrName)
            return &k;
    return nullptr;
}

Keys::ApiKey *KeyBook::key(const QString &idOrName)
{
    return const_cast<Keys::ApiKey *>(std::as_const(*this).key(idOrName));
}

} // namespace Aile::State
