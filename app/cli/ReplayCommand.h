#pragma once

#include <QtCore/QStringList>

namespace Aile::Cli {

/// aile replay --key KEY [--route NAME | --routing FILE | --body ROUTE.json] [--days N]: a key's
/// recorded requests replayed with unsaved routing edits (POST /keys/route-replay, docs/replay.md).
int runReplay(const QStringList &arguments);

} // namespace Aile::Cli
