#pragma once

#include "Router.h"

#include <QtCore/QJsonObject>

namespace Aile::Routing {

/// What the plan knew of one candidate when it was dialled, kept in the trace's attempt row
/// ("plan") so "Why this sharer?" can say it in words later: its tier (priority), weight and
/// health factor, whether it passed a test of the model, degraded or dead-key standing, its rank
/// among the target's candidates, and its tie group (the candidates of the same tier, standing
/// and price, ordered by a weighted draw): who else was in it and whether a draw decided.
QJsonObject planFacts(const Plan &plan, qsizetype target, qsizetype candidate);

} // namespace Aile::Routing
