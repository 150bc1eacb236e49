#pragma once

#include <QtCore/QStringList>

namespace Aile::Cli {

/// Commands that talk to a running engine through its management API: traces, health.
int runClientCommand(const QString &command, const QStringList &arguments);

} // namespace Aile::Cli
