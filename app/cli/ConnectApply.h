#pragma once

#include "clients/ToolConfigEdit.h"

namespace Aile::Cli {

/// `aile connect TOOL --apply [--dry-run]`: writes Aile's settings into the tool's own
/// configuration file (a diff first, the key masked; a backup kept) — docs/getting-started.md.
int runConnectApply(const Clients::ToolSetup &setup, bool dryRun);
/// `aile connect TOOL --undo [--dry-run]`: puts the file back as it was before Aile, or says
/// why not (the file changed since). Needs no running engine.
int runConnectUndo(Clients::ClientSnippets::Tool tool, bool dryRun);

} // namespace Aile::Cli
