#pragma once

#include <QtCore/QStringList>

namespace Aile::Cli {

/// aile stop: asks a running engine (aile serve, or the desktop's) to stop, POST /admin/shutdown.
int runStop(const QStringList &arguments);

} // namespace Aile::Cli
