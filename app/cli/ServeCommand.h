#pragma once

#include <QtCore/QStringList>

namespace Aile::Cli {

/// `aile serve`: runs the engine without a window until SIGINT or SIGTERM.
int runServe(const QStringList &arguments);

/// The data folder both executables use when none is given (XDG data home).
QString defaultDataDir();

} // namespace Aile::Cli
