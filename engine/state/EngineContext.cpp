#include "EngineContext.h"

#include <utility>

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

const Keys::ApiKey *EngineContext::key(const QString &idOrName) const
{
    for (const Keys::ApiKey &k : keys)
        if (k.id == idOrName)
            return &k;
    for (const Keys::ApiKey &k : keys)
        if (k.name == idOrName)
            return &k;
    return nullptr;
}

Keys::ApiKey *EngineContext::key(const QString &idOrName)
{
    return const_cast<Keys::ApiKey *>(std::as_const(*this).key(idOrName));
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
    return const_cast<Catalog::Sharer *>(std::as_const(*this).sharer(handle));
}

QString EngineContext::baseUrlOf(const Catalog::Sharer &sharer) const
{
    if (!sharer.baseUrl.isEmpty())
        return sharer.baseUrl;
    const Catalog::ProviderInfo *p = catalog.provider(sharer.provider);
    return p ? p->baseUrl : QString();
}

void EngineContext::noteCredentialBinding(const Catalog::Sharer &sharer, bool newCredential)
{
    if (sharer.credentialRef.isEmpty()) {
        credentials.remove(sharer.handle);
        credentialErrors.insert(sharer.handle, QStringLiteral("the sharer has no credential reference"));
        return;
    }
    if (sharer.usesClientLogin()) {   // the request brings its own login: nothing to hold here
        credentials.remove(sharer.handle);
        credentialErrors.remove(sharer.handle);
        return;
    }
    if (sharer.needsKey()) {
        credentials.remove(sharer.handle);
        credentialErrors.insert(sharer.handle, Catalog::needsKeyMessage());
        return;
    }
    if (newCredential || !credentialHomes.contains(sharer.credentialRef))
        credentialHomes.insert(sharer.credentialRef, baseUrlOf(sharer));
}

} // namespace Aile
