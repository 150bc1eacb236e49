#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QMap>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace Aile::Api {

/// One model's own price on a sharer, in $ per million tokens.
struct ModelQuote
{
    double input = 0;
    double output = 0;
    bool operator==(const ModelQuote &) const = default;
};

/// A sharer as POST /sharers and PUT /sharers/{handle} take it (docs/management-api.md), and as
/// the engine's status lists one in the configuration file's names (fromJson reads that; the
/// status's other fields, tested models, priority, weight, are not edited here). The price is a
/// share of the list price, or per-model quotes; neither set sends none. secret is a new
/// credential on its way to the keychain, never read back.
struct SharerEdit
{
    QString handle; // a new sharer's chosen handle; empty: the engine picks one (or the sharer edited has it)
    QString name;
    QString provider;
    QString baseUrl; // empty: the provider's
    QString kind;    // "api-key", "subscription", …
    int slots = 0;
    std::optional<double> percentOfList;
    std::optional<QMap<QString, ModelQuote>> quotes;
    QStringList models;
    QString dataCollection; // empty: unknown
    QString credential;     // a reference: "env:NAME", "keychain:…", or "file:" (keep the secret in the opted-in file)
    QString secret;

    static SharerEdit fromJson(const QJsonObject &o);
    QJsonObject toJson() const;
    bool operator==(const SharerEdit &) const = default;
};

} // namespace Aile::Api
