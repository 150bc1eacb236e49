#include "SharerBook.h"

#include <utility>

namespace Aile::State {

Catalog::Sharer *SharerBook::sharer(const QString &handle)
{
    return const_cast<Catalog::Sharer *>(std::as_const(*this).sharer(handle));
}

QString SharerBook::baseUrlOf(const Catalog::Sharer &sharer) const
{
    if (!sharer.baseUrl.isEmpty())
        return sharer.baseUrl;
    const Catalog::ProviderInfo *p = catalog.provider(sharer.provider);
    return p ? p->baseUrl : QString();
}

void SharerBook::noteCredentialBinding(const Catalog::Sharer &sharer, bool newCredential)
{
    if (sharer.credentialRef.isEmpty()) {
        credentials.remove(sharer.handle);
        credentialErrors.insert(sharer.handle, QStringLiteral("the sharer has no credential reference"));
        return;
    }
    if (sharer.usesClientLogin()) { // the request brings its own login: nothing to hold here
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

} // namespace Aile::State
