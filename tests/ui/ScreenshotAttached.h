#pragma once

#include <QtCore/QString>

namespace Aile::Test {

/// The window attached to a running `aile serve` (the real program from the build, on the seeded
/// store's data folder): attached.png, its status strip naming aile serve and its pid with Take
/// over; team-server.png, File ▸ Connect to a team server… filled in; and attached-charts.png,
/// the Charts page drawn from aile serve's figures. Runs on its own
/// (aile-ui-screenshots --attached AILE): one aile serve per process.
int renderAttached(const QString &outDir, const QString &aileProgram);

} // namespace Aile::Test
