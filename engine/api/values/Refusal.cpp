#include "Refusal.h"

#include "JsonFields.h"

namespace Aile::Api {

Refusal Refusal::fromJson(const QJsonObject &o)
{
    Refusal r;
    r.status = o.value(QLatin1String("status")).toInt();
    r.message = Json::str(o, "message");
    r.code = Json::str(o, "code");
    if (const auto seconds = Json::optDouble(o, "retryAfterSeconds"))
        r.retryAfterSeconds = qint64(*seconds);
    r.extra = o;
    for (const char *known : {"status", "message", "code", "retryAfterSeconds"})
        r.extra.remove(QLatin1String(known));
    return r;
}

QJsonObject Refusal::toJson() const
{
    QJsonObject o = extra;
    o.insert(QStringLiteral("status"), status);
    o.insert(QStringLiteral("message"), message);
    Json::putString(o, "code", code);
    Json::put(o, "retryAfterSeconds", retryAfterSeconds);
    return o;
}

std::optional<Refusal> refusalIn(const QJsonObject &o, const char *key)
{
    const QJsonObject r = o.value(QLatin1String(key)).toObject();
    return r.isEmpty() ? std::nullopt : std::optional<Refusal>(Refusal::fromJson(r));
}

} // namespace Aile::Api
