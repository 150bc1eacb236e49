#pragma once

#include <QtCore/QStringList>

namespace Aile::Cli {

/// The commands that make a working setup from the shell alone, against a running engine:
/// `aile sharers add`, `aile keys routing`, `aile connect TOOL`. (aile keys create is in
/// ClientCommands with the other key commands.)
int runSharersAdd(const QStringList &arguments);
int runKeysRouting(const QStringList &arguments);
int runConnect(const QStringList &arguments);

} // namespace Aile::Cli
