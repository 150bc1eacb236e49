#pragma once

#include "ConfigFile.h"
#include "keys/ApiKey.h"

#include <QtCore/QStringList>

#include <optional>

namespace Aile {
namespace Store {
class Store;
}

namespace Config {

/// What the store holds before a configuration is applied: the configuration is checked against
/// it as it will be once applied.
struct Baseline
{
    Catalog::Catalog catalog; // the shipped table with the store's providers and overrides
    QList<Catalog::Sharer> sharers;
    QList<Keys::ApiKey> keys;

    static Baseline of(const Store::Store &store);
    /// What the store in dataDir holds, read without writing (an engine may be running on it);
    /// empty() when there is no store yet. nullopt (and error) when it cannot be read.
    static std::optional<Baseline> ofDataDir(const QString &dataDir, QString *error);
    /// The same for a store given by its location (a postgresql:// URL: team mode).
    static std::optional<Baseline> ofStore(const QString &location, QString *error);
    /// An empty store: the shipped catalogue, no sharers, no keys.
    static Baseline empty();
};

/// A key entry without "key" whose name the store does not hold: an error (a file applied at
/// start) or a note, the entry skipped (an import into a running engine).
enum class UnknownKey { Problem, Note };

/// Checks what reading cannot: each key's routing and routes (Keys::validateRouting and
/// Keys::validateRoutes, as PUT /keys checks them), the providers sharers and catalogue entries
/// name, handles and key names given twice — against the catalogue and sharers as they will be
/// once the configuration is applied. Returns every problem, the reading's included; on none,
/// config's keys hold their routing and routes as they are stored.
Problems validate(ConfigFile &config, const Baseline &baseline, UnknownKey unknownKey, QStringList *notes);

} // namespace Config
} // namespace Aile
