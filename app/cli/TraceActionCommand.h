#pragma once

#include <QtCore/QStringList>

namespace Aile::Cli {

/// `aile traces action TRACE_ID clear-cooldown|mark-fixed|retest --sharer HANDLE [--model MODEL]`:
/// POST /traces/{id}/actions, what the Traces view's attempt-row buttons do (docs/management-api.md).
int runTraceAction(const QStringList &arguments);

} // namespace Aile::Cli
