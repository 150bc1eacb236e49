#include "KeyBook.h"

#include <utility>

namespace Aile::State {

const Keys::ApiKey *KeyBook::keyByPlain(const QString &plain) const
{
    if (plain.isEmpty())
        return nullptr;
    const QString hash = Keys::hashKey(plain);
    for (const Keys::ApiKey &k : keys)
        if (k.hash == hash && !k.revoked)
            return &k;
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
