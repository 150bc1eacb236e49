#include "EngineContext.h"

namespace Aile {

const Keys::ApiKey *EngineContext::keyByPlain(const QString &plain) const
{
    if (plain.isEmpty())
        return nullptr;
    const QString hash = Keys::hashKey(plain);
    for (const Keys::ApiKey &k : keys)
        if (k.hash == hash && !k.revoked)
            return &k;
    return nullptr;
}

const Catalog::Sharer *EngineContext::sharer(const QString &handle) const
{
    const QString h = Catalog::normalizeHandle(handle);
    for (const Catalog::Sharer &s : sharers)
        if (s.handle == h)
            return &s;
    return nullptr;
}

Catalog::Sharer *EngineContext::sharer(const QString &handle)
{
    const QString h = Catalog::normalizeHandle(handle);
    for (Catalog::Sharer &s : sharers)
        if (s.handle == h)
            return &s;
    return nullptr;
}

QString EngineContext::baseUrlOf(const Catalog::Sharer &sharer) const
{
    if (!sharer.baseUrl.isEmpty())
        return sharer.baseUrl;
    const Catalog::ProviderInfo *p = catalog.provider(sharer.provider);
    return p ? p->baseUrl : QString();
}

} // namespace Aile
