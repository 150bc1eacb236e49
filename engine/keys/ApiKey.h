#pragma once

#include "KeyRouting.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QString>

#include <memory>
#include <optional>

namespace Aile::Keys {

/// A local API key a client presents. Only a hash of the secret is kept; the plain key is shown
/// once, when it is created or provisioned. Routing settings and named routes ride along as JSON
/// in the configuration file's own format.
struct ApiKey
{
    QString id; // stable, derived from the hash ("k_" + 12 hex)
    QString name;
    QString hash;   // SHA-256 of the plain key, hex
    QString prefix; // first characters, for display ("sk-aile-3f9a…")
    qint64 createdMs = 0;
    bool revoked = false;
    QJsonObject routing;
    QJsonArray routes;

    /// The routing settings read from routing, parsed once and again only when routing has changed
    /// since (a request reads them several times: the plan, its budget, the failing-sharers book).
    /// The reference stays valid while routing is unchanged. Like the rest of an ApiKey, for one
    /// thread at a time.
    const KeyRouting &routingSettings() const;

    QJsonObject toJson() const; // never holds the secret
    static std::optional<ApiKey> fromJson(const QJsonObject &o, QString *error);
    static ApiKey fromPlain(const QString &name, const QString &plain, qint64 nowMs);

    /// The cache behind routingSettings(): the object it was parsed from (compared on use, which
    /// is a pointer comparison while the object is shared) and what it says. Copies share it.
    struct ParsedRouting
    {
        QJsonObject source;
        KeyRouting settings;
    };
    mutable std::shared_ptr<const ParsedRouting> parsedRouting;
};

QString hashKey(const QString &plain);
/// "sk-aile-" + 40 random hex digits.
QString generateKey();
bool looksLikeKey(const QString &plain);

} // namespace Aile::Keys
