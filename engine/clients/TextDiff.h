#pragma once

#include <QtCore/QString>

namespace Aile::Clients {

/// A unified diff of two texts, line by line, with three lines of context ("--- a", "+++ b",
/// "@@ -l,n +l,n @@" hunks), for the preview "Apply for me" shows before it writes anything.
/// Empty when the texts are equal. Meant for configuration files: past 4,000 lines a side it
/// shows the whole of both instead of searching for the smallest change.
QString unifiedDiff(const QString &before, const QString &after, const QString &fromName, const QString &toName);

} // namespace Aile::Clients
