#include "SharerEdit.h"

#include "JsonFields.h"

namespace Aile::Api {

using namespace Json;

SharerEdit SharerEdit::fromJson(const QJsonObject &o)
{
    SharerEdit s;
    s.handle = str(o, "handle");
    s.name = str(o, "name");
    s.provider = str(o, "provider");
    s.baseUrl = str(o, "baseUrl");
    s.kind = str(o, "kind");
    s.slots = o.value(QLatin1String("slots")).toInt();
    const QJsonObject price = o.value(QLatin1String("price")).toObject();
    if (price.value(QLatin1String("models")).isObject()) {
        QMap<QString, ModelQuote> quotes;
        const QJsonObject models = price.value(QLatin1String("models")).toObject();
        for (auto it = models.begin(); it != models.end(); ++it)
            quotes.insert(it.key(), ModelQuote{it.value().toObject().value(QLatin1String("input")).toDouble(),
                                               it.value().toObject().value(QLatin1String("output")).toDouble()});
        s.quotes = quotes;
    }
    s.percentOfList = optDouble(price, "percentOfList");
    s.models = strings(o.value(QLatin1String("models")));
    s.dataCollection = str(o, "dataCollection");
    s.credential = str(o, "credential");
    s.secret = str(o, "secret");
    return s;
}

QJsonObject SharerEdit::toJson() const
{
    QJsonObject o{{QStringLiteral("name"), name},       {QStringLiteral("provider"), provider},
                  {QStringLiteral("baseUrl"), baseUrl}, {QStringLiteral("kind"), kind},
                  {QStringLiteral("slots"), slots},     {QStringLiteral("models"), QJsonArray::fromStringList(models)}};
    putString(o, "handle", handle);
    if (quotes) {
        QJsonObject models;
        for (auto it = quotes->begin(); it != quotes->end(); ++it)
            models.insert(it.key(), QJsonObject{{QStringLiteral("input"), it->input}, {QStringLiteral("output"), it->output}});
        o.insert(QStringLiteral("price"), QJsonObject{{QStringLiteral("models"), models}});
    } else if (percentOfList) {
        o.insert(QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), *percentOfList}});
    }
    putString(o, "dataCollection", dataCollection);
    putString(o, "credential", credential);
    putString(o, "secret", secret);
    return o;
}

} // namespace Aile::Api
