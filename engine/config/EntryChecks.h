#pragma once

#include "ConfigProblem.h"

#include <QtCore/QJsonObject>

namespace Aile::Config {

// One check per object of the configuration format (docs/configuration.md). The configuration
// file, POST /admin/config, the management API (PUT /sharers, PUT /catalog/…, PUT /v1/routing) and
// so the GUI's dialogs all call these: an unknown name, a wrong type or a value out of range gets
// the same message, naming the entry, wherever it comes from. pointer says where the object sits
// in its document ("" for an API body). Key routing and routes are checked by Keys::validateRouting
// and Keys::validateRoutes (engine/keys), which need the catalogue and the sharers.

Problems sharerProblems(const QJsonObject &sharer, const QString &pointer = {});
Problems providerProblems(const QJsonObject &provider, const QString &pointer = {});
Problems modelProblems(const QJsonObject &model, const QString &pointer = {});
/// A catalogue document: {"providers": [...], "models": [...]} (also the shipped table's format).
Problems catalogProblems(const QJsonObject &catalog, const QString &pointer = {});
Problems settingsProblems(const QJsonObject &settings, const QString &pointer = {});
/// The global "routing" object: default_model, fallback_models, selection, models.
Problems routingProblems(const QJsonObject &routing, const QString &pointer = {});
/// A "keys" entry's own fields (name, key, routing, routes); not what routing and routes hold.
Problems keyEntryProblems(const QJsonObject &key, const QString &pointer = {});
/// The configuration's top-level names.
Problems topLevelProblems(const QJsonObject &root);

/// How messages name a sharer entry: "sharer L0123456789abcdef", or by its name without a handle.
QString sharerLabel(const QJsonObject &sharer);
QString keyLabel(const QString &name);

} // namespace Aile::Config
