#pragma once

#include "ConfigProblem.h"
#include "JsoncText.h"
#include "catalog/Catalog.h"
#include "catalog/Sharer.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QList>

#include <memory>
#include <optional>

namespace Aile::Config {

/// A key as the configuration file provisions it. The plain key is only present in the file;
/// the engine stores its hash.
struct ProvisionedKey
{
    QString name;
    QString plainKey;    // may be empty: then only routing settings of an existing key change
    QJsonObject routing; // as stored once validate() has checked it (handles canonical, nulls dropped)
    QJsonArray routes;
    bool hasRouting = false;
    bool hasRoutes = false;
    int index = 0;     // its place in "keys", for messages
    bool skip = false; // not in the store and no plain key: skipped with a note (an import)
};

/// The configuration file (docs/configuration.md): a public interface, names are binding.
struct ConfigFile
{
    QString adminToken; // "env:NAME", "keychain:NAME" or the token itself
    QString store;      // "postgresql://…": the shared store (team mode); empty: the data folder's SQLite
    QList<Catalog::ProviderInfo> providers;
    QList<Catalog::Sharer> sharers;
    QList<ProvisionedKey> keys;
    QJsonObject routing; // default_model, fallback_models, selection, models
    QJsonObject settings;
    QJsonObject catalog; // optional {"providers": [...], "models": [...]} overrides

    QJsonObject root;                      // the document as written
    std::shared_ptr<const JsoncText> text; // where each entry sits, for messages
    Problems problems;                     // what reading found; empty: the file reads clean

    /// Reads a configuration: its syntax, names given twice, the top-level names and each entry's
    /// own fields (names, types, ranges). Never stops at the first problem. What depends on the
    /// catalogue, the sharers and the keys is checked by validate() (ConfigValidation.h).
    static ConfigFile read(const QByteArray &text);
    /// read(), refusing a text with problems (error: every one, a line each).
    static std::optional<ConfigFile> parse(const QByteArray &text, QString *error);
    static std::optional<ConfigFile> load(const QString &path, QString *error);

    /// "FILE:LINE:COLUMN: message", or "line L, column C: message" without a file.
    QString describe(const Problem &problem, const QString &file = {}) const;
    QStringList describe(const Problems &problems, const QString &file = {}) const;
    /// Every problem on a line of its own, then one line saying nothing was applied.
    QString refusal(const Problems &problems, const QString &file = {}, const QString &verb = QStringLiteral("applied")) const;
};

} // namespace Aile::Config
