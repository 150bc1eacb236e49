#pragma once

#include "ManagementApi.h"

namespace Aile {
class Clock;
namespace State {
struct SharerBook;
}
namespace Health {
class HealthBook;
class QuotaBook;
} // namespace Health
namespace Routing {
class RequestPlanner;
}

namespace Api {

/// GET /sharers (docs/management-api.md): for a model, the planner's first target for a one-line
/// request naming it, so the listing is the request order by construction, with the sharers a
/// filter, a cooldown or a block took out marked unavailable; without a model, every sharer by
/// handle. Each row carries its quota windows, its published health and where its credential lives.
class SharerListApi : public ManagementComponent
{
public:
    /// sharers: the catalogue, the sharers and which have a credential; planner: the request
    /// order; quota and health (null: none): what the GUI shows beside each row; clock: their "now".
    SharerListApi(const Clock &clock, const State::SharerBook &sharers, const Routing::RequestPlanner &planner, const Health::QuotaBook &quota,
                  const Health::HealthBook *health)
        : m_clock(clock), m_sharers(sharers), m_planner(planner), m_quota(quota), m_health(health)
    { }
    bool handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply) override;

private:
    void list(const ManagementRequest &request, const ManagementReply &reply) const;

    const Clock &m_clock;
    const State::SharerBook &m_sharers;
    const Routing::RequestPlanner &m_planner;
    const Health::QuotaBook &m_quota;
    const Health::HealthBook *m_health;
};

} // namespace Api
} // namespace Aile
