#include "SharerRow.h"

#include "JsonFields.h"

namespace Aile::Api {

using namespace Json;

QuotaWindow QuotaWindow::fromJson(const QJsonObject &o)
{
    QuotaWindow w;
    w.name = str(o, "name");
    w.kind = str(o, "kind");
    w.used = optDouble(o, "used");
    w.exhausted = o.value(QLatin1String("exhausted")).toBool();
    w.fresh = o.value(QLatin1String("fresh")).toBool(true);
    w.observedAt = str(o, "observedAt");
    w.resetsAt = str(o, "resetsAt");
    if (const auto seconds = optDouble(o, "lengthSeconds"))
        w.lengthSeconds = qint64(*seconds);
    w.models = str(o, "models");
    return w;
}

QJsonObject QuotaWindow::toJson() const
{
    QJsonObject o{{QStringLiteral("name"), name},
                  {QStringLiteral("kind"), kind},
                  {QStringLiteral("used"), used ? QJsonValue(*used) : QJsonValue(QJsonValue::Null)},
                  {QStringLiteral("exhausted"), exhausted},
                  {QStringLiteral("fresh"), fresh},
                  {QStringLiteral("observedAt"), observedAt}};
    putString(o, "resetsAt", resetsAt);
    put(o, "lengthSeconds", lengthSeconds);
    putString(o, "models", models);
    return o;
}

SharerHealth SharerHealth::fromJson(const QJsonObject &o)
{
    SharerHealth h;
    h.published = o.value(QLatin1String("published")).toBool();
    h.served = o.value(QLatin1String("served")).toInteger();
    h.attempts30m = o.value(QLatin1String("attempts30m")).toInt();
    h.successRate30m = optDouble(o, "successRate30m");
    if (const auto latency = optDouble(o, "latencyMs30m"))
        h.latencyMs30m = qint64(*latency);
    h.note = str(o, "note");
    return h;
}

QJsonObject SharerHealth::toJson() const
{
    QJsonObject o{{QStringLiteral("published"), published}, {QStringLiteral("served"), served}};
    if (published) {
        o.insert(QStringLiteral("attempts30m"), attempts30m);
        o.insert(QStringLiteral("successRate30m"), successRate30m ? QJsonValue(*successRate30m) : QJsonValue(QJsonValue::Null));
        o.insert(QStringLiteral("latencyMs30m"), latencyMs30m ? QJsonValue(*latencyMs30m) : QJsonValue(QJsonValue::Null));
    }
    putString(o, "note", note);
    return o;
}

SharerRow SharerRow::fromJson(const QJsonObject &o)
{
    SharerRow r;
    r.rank = o.value(QLatin1String("rank")).toInt();
    r.handle = str(o, "handle");
    r.name = str(o, "name");
    r.provider = str(o, "provider");
    r.model = str(o, "model");
    r.available = o.value(QLatin1String("available")).toBool();
    r.reason = str(o, "reason");
    r.skip = str(o, "skip");
    const QJsonValue tested = o.value(QLatin1String("tested"));
    if (tested.isBool())
        r.tested = tested.toBool();
    else
        r.testedModels = strings(tested);
    r.deadKey = o.value(QLatin1String("deadKey")).toBool();
    r.tiedWithPrevious = o.value(QLatin1String("tiedWithPrevious")).toBool();
    r.degraded = o.value(QLatin1String("degraded")).toBool();
    r.blocked = o.value(QLatin1String("blocked")).toBool();
    r.needsKey = o.value(QLatin1String("needsKey")).toBool();
    r.health = optDouble(o, "health");
    r.priority = optInt(o, "priority");
    r.weight = optInt(o, "weight");
    r.ttfbMs = optDouble(o, "ttfbMs");
    r.inputPrice = optDouble(o, "inputPrice");
    r.outputPrice = optDouble(o, "outputPrice");
    r.quoteUsd = optDouble(o, "quoteUsd");
    r.quota = listOf<QuotaWindow>(o.value(QLatin1String("quota")));
    if (o.value(QLatin1String("stats")).isObject())
        r.stats = SharerHealth::fromJson(o.value(QLatin1String("stats")).toObject());
    r.credentialStore = str(o, "credentialStore");
    return r;
}

QJsonObject SharerRow::toJson() const
{
    QJsonObject o{{QStringLiteral("handle"), handle},
                  {QStringLiteral("name"), name},
                  {QStringLiteral("provider"), provider},
                  {QStringLiteral("available"), available},
                  {QStringLiteral("quota"), arrayOf(quota)}};
    if (rank > 0)
        o.insert(QStringLiteral("rank"), rank);
    putString(o, "model", model);
    putString(o, "reason", reason);
    putString(o, "skip", skip);
    if (tested)
        o.insert(QStringLiteral("tested"), *tested);
    else if (!testedModels.isEmpty())
        o.insert(QStringLiteral("tested"), QJsonArray::fromStringList(testedModels));
    for (const auto &[key, value] : {std::pair{"deadKey", deadKey},
                                     {"tiedWithPrevious", tiedWithPrevious},
                                     {"degraded", degraded},
                                     {"blocked", blocked},
                                     {"needsKey", needsKey}})
        if (value)
            o.insert(QLatin1String(key), true);
    put(o, "health", health);
    put(o, "priority", priority);
    put(o, "weight", weight);
    put(o, "ttfbMs", ttfbMs);
    put(o, "inputPrice", inputPrice);
    put(o, "outputPrice", outputPrice);
    put(o, "quoteUsd", quoteUsd);
    if (stats)
        o.insert(QStringLiteral("stats"), stats->toJson());
    putString(o, "credentialStore", credentialStore);
    return o;
}

SharerListing SharerListing::fromJson(const QJsonObject &o)
{
    SharerListing l;
    l.readingOrder = str(o, "order") == QLatin1String("reading");
    const QJsonObject filters = o.value(QLatin1String("filters")).toObject();
    for (auto it = filters.begin(); it != filters.end(); ++it)
        l.filters.insert(it.key(), it.value().toString());
    l.rows = listOf<SharerRow>(o.value(QLatin1String("data")));
    l.footer = str(o, "footer");
    return l;
}

QJsonObject SharerListing::toJson() const
{
    QJsonObject filterObject;
    for (auto it = filters.begin(); it != filters.end(); ++it)
        filterObject.insert(it.key(), it.value());
    return QJsonObject{{QStringLiteral("object"), QStringLiteral("list")},
                       {QStringLiteral("order"), readingOrder ? QStringLiteral("reading") : QStringLiteral("routing")},
                       {QStringLiteral("filters"), filterObject},
                       {QStringLiteral("data"), arrayOf(rows)},
                       {QStringLiteral("footer"), footer}};
}

SharerCheck SharerCheck::fromJson(const QJsonObject &o)
{
    return SharerCheck{o.value(QLatin1String("ok")).toBool(), o.value(QLatin1String("status")).toInt(), str(o, "message")};
}

QJsonObject SharerCheck::toJson() const
{
    return QJsonObject{{QStringLiteral("ok"), ok}, {QStringLiteral("status"), status}, {QStringLiteral("message"), message}};
}

} // namespace Aile::Api
