#pragma once

#include <QtCore/QStringList>

namespace Aile::Cli {

/// aile usage [--days N] [--key K]: money spent and subscription usage at list price, today and
/// per day (GET /keys/usage/spend; docs/subscriptions.md "What it costs").
int runUsage(const QStringList &arguments);

} // namespace Aile::Cli
