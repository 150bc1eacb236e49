#pragma once

#include "ManagementApi.h"

namespace Aile {
class Clock;
struct EngineSettings;
namespace State {
struct KeyBook;
}
namespace Billing {
class SpendBook;
}
namespace Routing {
class RequestPlanner;
}

namespace Api {

/// POST /keys/route-dry-run (docs/keys.md "Named routes", the dry run): what a request would do, through the
/// same pipeline a real one runs, without sending, charging or writing anything.
/// What it reads: the planner (the one a request plans through), the keys, the routing section
/// (whether a default model stands in for a missing one), the dial cap, the clock and today's spend.
struct DryRunServices
{
    const Routing::RequestPlanner &planner;
    const State::KeyBook &keys;
    const QJsonObject &routing;
    const EngineSettings &settings;
    const Clock &clock;
    const Billing::SpendBook &spend;
};
class DryRunApi : public ManagementComponent
{
public:
    explicit DryRunApi(const DryRunServices &services) : m_services(services) { }
    bool handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply) override;

private:
    void run(const ManagementRequest &request, const ManagementReply &reply) const;

    DryRunServices m_services;
};

/// Bodies larger than this are refused: send the prompt and the output cap, not the attachments.
constexpr qsizetype DryRunMaxBody = 1024 * 1024;
/// Sharers listed per target; the rest are counted.
constexpr int DryRunMaxListed = 50;

} // namespace Api
} // namespace Aile
