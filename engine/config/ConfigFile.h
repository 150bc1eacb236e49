#pragma once

#include "catalog/Catalog.h"
#include "catalog/Sharer.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QList>

#include <optional>

namespace Aile::Config {

/// A key as the configuration file provisions it. The plain key is only present in the file;
/// the engine stores its hash.
struct ProvisionedKey
{
    QString name;
    QString plainKey;       // may be empty: then only routing settings of an existing key change
    QJsonObject routing;
    QJsonArray routes;
    bool hasRouting = false;
    bool hasRoutes = false;
};

/// The configuration file (docs/configuration.md): a public interface, names are binding.
struct ConfigFile
{
    QString adminToken;     // "env:NAME", "keychain:NAME" or the token itself
    QList<Catalog::ProviderInfo> providers;
    QList<Catalog::Sharer> sharers;
    QList<ProvisionedKey> keys;
    QJsonObject routing;    // default_model, fallback_models, selection, models
    QJsonObject settings;
    QJsonObject catalog;    // optional {"providers": [...], "models": [...]} overrides

    static std::optional<ConfigFile> parse(const QByteArray &text, QString *error);
    static std::optional<ConfigFile> load(const QString &path, QString *error);
};

/// Removes // and /* */ comments outside strings and trailing commas, as in a .jsonc file.
QByteArray stripJsonc(const QByteArray &text);

} // namespace Aile::Config
