#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QString>

namespace Aile::Test {

/// A believable setup for the screenshots: sharers on the fake upstream, two keys, and a store
/// holding an hour of traces (failovers, refusals, errors) and two weeks of spend.
struct ScreenshotData
{
    static constexpr const char *LaptopKey = "sk-aile-5c1e7a3b9d04f2e6a8c1b3d5e7f90a2b4c6d8e0f";
    static constexpr const char *CiKey = "sk-aile-0f9e8d7c6b5a49382716a5b4c3d2e1f0a9b8c7d6";

    static QJsonObject config(const QString &upstreamBaseUrl);
    /// Writes the history into dataDir/aile.db (creating it); nowMs anchors it.
    static bool seedStore(const QString &dataDir, qint64 nowMs, QString *error);
};

} // namespace Aile::Test
