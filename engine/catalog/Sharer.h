#pragma once

#include "Catalog.h"

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace Aile::Catalog {

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
    QHash<QString, Quote> quotes;   // model id → $/Mtok
    QJsonObject toJson() const;
    static std::optional<PriceSheet> fromJson(const QJsonValue &v, QString *error);
};

/// One upstream account that can serve a provider's models. The credential itself is never
/// here: credentialRef names where it lives ("env:NAME", "keychain:NAME", "file:NAME").
struct Sharer
{
    QString handle;           // "L" + 16 lower-case hex
    QString name;
    QString provider;
    QString baseUrl;          // empty: the provider's own
    QString credentialRef;
    QString kind = QStringLiteral("api-key");   // or subscription
    PriceSheet price;
    QStringList models;       // empty: the provider's whole catalogue
    QStringList tested;       // models that passed a test on this sharer
    int slots = 0;            // concurrent requests; 0 = unbounded
    std::optional<DataPolicy> dataCollection;   // unset: the provider's
    int priority = 0;
    int weight = 1;
    bool blocked = false;

    bool isSubscription() const { return kind == QLatin1String("subscription"); }
    bool offers(const QString &model) const;
    QJsonObject toJson() const;
    static std::optional<Sharer> fromJson(const QJsonObject &o, QString *error);
};

/// "L" + 16 hex digits, read in any case; returns the canonical lower-case form or empty.
QString normalizeHandle(const QString &handle);

} // namespace Aile::Catalog
