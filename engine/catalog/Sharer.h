#pragma once

#include "Catalog.h"

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace Aile::Catalog {

/// The provider id of a node-backed sharer: another Aile (a team server) that holds the
/// credentials and is dialled with one of its own keys (docs/team.md "A team server as a sharer").
inline QString nodeProvider()
{
    return QStringLiteral("aile");
}

/// How a sharer prices its tokens: at list, at a percentage of list, or its own quotes.
struct PriceSheet
{
    enum class Mode { List, PercentOfList, Quotes };
    struct Quote
    {
        double input = 0;
        double output = 0;
    };
    Mode mode = Mode::List;
    double percent = 100;
    QHash<QString, Quote> quotes; // model id → $/Mtok
    QJsonObject toJson() const;
    static std::optional<PriceSheet> fromJson(const QJsonValue &v, QString *error);
};

/// One upstream account that can serve a provider's models. The credential itself is never
/// here: credentialRef names where it lives ("env:NAME", "keychain:NAME", "file:NAME").
struct Sharer
{
    QString handle; // "L" + 16 lower-case hex
    QString name;
    QString provider;
    QString baseUrl; // empty: the provider's own
    QString credentialRef;
    // The (provider, base URL) the credential was entered for, as binding() gives it; set by the
    // store on every save (bindCredential), never taken from what a caller sends. Not in toJson():
    // exports and replies show needsKey instead.
    QString credentialFor;
    QString kind = QStringLiteral("api-key"); // or subscription
    PriceSheet price;
    QStringList models;                       // empty: the provider's whole catalogue
    QStringList tested;                       // models that passed a test on this sharer
    int slots = 0;                            // concurrent requests; 0 = unbounded
    std::optional<DataPolicy> dataCollection; // unset: the provider's
    int priority = 0;
    int weight = 1;
    bool blocked = false;

    bool isSubscription() const { return kind == QLatin1String("subscription"); }
    /// "credential": "client": a subscription sharer served with the requesting tool's own login
    /// (docs/subscriptions.md); nothing is stored, nothing is read from a keychain.
    bool usesClientLogin() const { return credentialRef == ClientLoginRef(); }
    static QString ClientLoginRef() { return QStringLiteral("client"); }
    /// Where the credential goes: the provider and the base URL ("" = the provider's own).
    QString binding() const { return provider + QLatin1Char(' ') + baseUrl; }
    /// A credential entered for another provider or base URL: never sent, until a new one is given.
    /// (A row saved before bindings were kept has none: it was entered for where it points.)
    bool needsKey() const { return !credentialRef.isEmpty() && !usesClientLogin() && !credentialFor.isEmpty() && credentialFor != binding(); }
    bool offers(const QString &model) const;
    QJsonObject toJson() const;
    static std::optional<Sharer> fromJson(const QJsonObject &o, QString *error);
};

/// The one rule for a sharer's update, applied by the store to everything that saves a sharer
/// (the management API, the GUI through it, an imported or started configuration): a stored
/// credential stays bound to the (provider, base URL) it was entered for. The update carries a new
/// credential when newCredential is set (a secret given in the same call) or when it names another
/// reference than the stored one; otherwise it keeps the stored binding, so moving the sharer to
/// another provider or base URL leaves it needing its key again (needsKey()).
void bindCredential(Sharer &update, const Sharer *stored, bool newCredential);

/// Empty, or why the sharer cannot keep a credential at its base URL: plain http:// is refused
/// for anything but a loopback host (TLS or nothing), effectiveUrl being the URL it dials.
QString plainHttpRefusal(const Sharer &sharer, const QString &effectiveUrl);

/// What the API and the GUI say about a sharer whose credential belongs elsewhere.
QString needsKeyMessage();

/// "L" + 16 hex digits, read in any case; returns the canonical lower-case form or empty.
QString normalizeHandle(const QString &handle);
/// The sharer of a handle (any case) in a list, or null: every lookup by handle goes through here.
const Sharer *findSharer(const QList<Sharer> &sharers, const QString &handle);

} // namespace Aile::Catalog
