#pragma once

#include "ManagementApi.h"

namespace Aile {
struct EngineContext;

namespace Api {

/// POST /keys/route-dry-run (docs/keys.md "Named routes", the dry run): what a request would do, through the
/// same pipeline a real one runs, without sending, charging or writing anything.
void dryRun(EngineContext &context, const ManagementRequest &request, const ManagementReply &reply);

/// Bodies larger than this are refused: send the prompt and the output cap, not the attachments.
constexpr qsizetype DryRunMaxBody = 1024 * 1024;
/// Sharers listed per target; the rest are counted.
constexpr int DryRunMaxListed = 50;

} // namespace Api
} // namespace Aile
