#include "DispatchServices.h"

#include "catalog/Sharer.h"

namespace Aile::Dispatch {

const Catalog::Sharer *DispatchServices::sharer(const QString &handle) const
{
    return Catalog::findSharer(sharers, handle);
}

} // namespace Aile::Dispatch
