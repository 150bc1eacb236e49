#pragma once

// The charts' sums live with the engine's management API (GET /keys/usage/charts answers them),
// so the window and an engine it is attached to sum alike; the Charts page calls them ChartData.
#include "api/values/ChartFigures.h"

namespace Aile::Ui {
namespace ChartData = Api::Charts;
}
