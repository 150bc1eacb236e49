#pragma once

#include <QtCore/QString>

namespace Aile::Test {

/// The Get started checklist as a new user meets it: an engine on an empty data folder, the
/// window at 0 of 4 steps, then with a sharer and a key, then with an answered request. Saves
/// get-started.png, get-started-progress.png and get-started-done.png (suffix appended, e.g. -fr).
/// Runs on its own (aile-ui-screenshots --get-started): one engine per process.
int renderGetStarted(const QString &outDir, const QString &suffix);

} // namespace Aile::Test
