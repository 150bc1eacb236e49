#pragma once

#include <QtCore/QStringList>

namespace Aile::Cli {

/// aile config check FILE [--data-dir DIR]: the checks `aile serve --config` and POST /admin/config
/// run, without an engine and without writing anything; every problem, one a line.
int runConfigCheck(const QStringList &arguments);

} // namespace Aile::Cli
