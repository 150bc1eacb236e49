#pragma once

#include "ManagementApi.h"

namespace Aile {
namespace State {
struct KeyBook;
struct SharerBook;
} // namespace State

namespace Api {

/// GET /keys/route-template?model=&key= (docs/keys.md "Named routes", the template): one target per
/// provider whose model has the same name (dots and underscores read as dashes), cheapest first,
/// up to 10; near names under `ambiguous`, what the key would refuse under `skipped`. Writes nothing.
class RouteTemplateApi : public ManagementComponent
{
public:
    /// keys: the key whose settings filter the targets; sharers: the catalogue and who serves each model.
    RouteTemplateApi(const State::KeyBook &keys, const State::SharerBook &sharers) : m_keys(keys), m_sharers(sharers) { }
    bool handle(const ManagementRequest &request, QObject *context, const ManagementReply &reply) override;

private:
    void suggest(const ManagementRequest &request, const ManagementReply &reply) const;

    const State::KeyBook &m_keys;
    const State::SharerBook &m_sharers;
};

constexpr int RouteTemplateMaxTargets = 10;

} // namespace Api
} // namespace Aile
