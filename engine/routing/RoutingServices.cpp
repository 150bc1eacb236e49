#include "RoutingServices.h"

#include "state/SharerBook.h"

namespace Aile::Routing {

RoutingServices RoutingServices::of(const State::SharerBook &book, const Clock &clock, const EngineSettings &settings, const QJsonObject &config,
                                    const Health::HealthBook *health, const Health::QuotaBook &quota, const Health::FailingSharers &failing,
                                    const Billing::SpendBook &spend, QRandomGenerator &draw, const Health::NodeBook *nodes)
{
    return RoutingServices{clock, settings, config, book.catalog, book.sharers, book.credentials, book.credentialErrors, health,
                           quota, failing,  spend,  draw,         nodes};
}

} // namespace Aile::Routing
