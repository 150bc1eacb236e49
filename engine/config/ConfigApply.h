#pragma once

#include "ConfigFile.h"

#include <QtCore/QJsonObject>
#include <QtCore/QStringList>

namespace Aile {
struct EngineSettings;
namespace State {
struct SharerBook;
struct KeyBook;
} // namespace State
namespace Store {
class Store;
}

namespace Config {

/// Writes a configuration validate() (ConfigValidation.h) has accepted into the store, in one
/// transaction: entries with the same handle, key name or provider id replace what the store
/// holds; the rest is kept. A key without its plain text only updates an existing key's routing
/// and routes. A write the store refuses rolls everything back.
bool applyToStore(const ConfigFile &config, Store::Store &store, qint64 nowMs, QString *adminTokenRef, QString *error);

/// The running configuration in the configuration file's format, without any secret: sharers
/// keep their credential references, keys their name and routing (never the key or its hash).
/// routing: the engine's routing section; adminTokenRef: where the admin token comes from.
QJsonObject exportConfig(const State::SharerBook &sharers, const State::KeyBook &keys, const QJsonObject &routing, const EngineSettings &settings,
                         const QString &adminTokenRef);

} // namespace Config
} // namespace Aile
