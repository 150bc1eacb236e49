#include "DryRunPlan.h"

#include "JsonFields.h"

namespace Aile::Api {

using namespace Json;

namespace {

DryRunSharer sharerFrom(const QJsonObject &o)
{
    DryRunSharer s;
    s.rank = o.value(QLatin1String("rank")).toInt();
    s.handle = str(o, "handle");
    s.name = str(o, "name");
    s.tested = o.value(QLatin1String("tested")).toBool();
    if (const auto ttfb = optDouble(o, "ttfbMs"))
        s.ttfbMs = qint64(*ttfb);
    s.first = o.value(QLatin1String("first")).toBool();
    s.tiedWithFirst = o.value(QLatin1String("tiedWithFirst")).toBool();
    s.quoteUsd = optDouble(o, "quoteUsd");
    s.inputPrice = optDouble(o, "inputPrice");
    s.outputPrice = optDouble(o, "outputPrice");
    return s;
}

QJsonObject sharerJson(const DryRunSharer &s)
{
    QJsonObject o{{QStringLiteral("rank"), s.rank},
                  {QStringLiteral("handle"), s.handle},
                  {QStringLiteral("name"), s.name},
                  {QStringLiteral("tested"), s.tested},
                  {QStringLiteral("ttfbMs"), s.ttfbMs ? QJsonValue(*s.ttfbMs) : QJsonValue(QJsonValue::Null)},
                  {QStringLiteral("first"), s.first},
                  {QStringLiteral("tiedWithFirst"), s.tiedWithFirst},
                  {QStringLiteral("quoteUsd"), orNull(s.quoteUsd)}};
    put(o, "inputPrice", s.inputPrice);
    put(o, "outputPrice", s.outputPrice);
    return o;
}

DryRunTarget targetFrom(const QJsonObject &o)
{
    DryRunTarget t;
    t.target = str(o, "target");
    t.calls = str(o, "calls");
    t.translated = str(o, "translated");
    for (const QJsonValue &v : o.value(QLatin1String("removed")).toArray()) {
        const QJsonObject r = v.toObject();
        t.removed.append(DryRunRemoved{str(r, "handle"), str(r, "name"), str(r, "reason"), str(r, "refusedBy")});
    }
    const QJsonObject unavailable = o.value(QLatin1String("unavailable")).toObject();
    for (auto it = unavailable.begin(); it != unavailable.end(); ++it)
        t.unavailable.insert(it.key(), it.value().toInt());
    for (const QJsonValue &v : o.value(QLatin1String("sharers")).toArray())
        t.sharers.append(sharerFrom(v.toObject()));
    t.more = o.value(QLatin1String("more")).toInt();
    t.refusal = refusalIn(o);
    return t;
}

QJsonObject targetJson(const DryRunTarget &t)
{
    QJsonArray removed, sharers;
    for (const DryRunRemoved &r : t.removed) {
        QJsonObject o{{QStringLiteral("handle"), r.handle}, {QStringLiteral("name"), r.name}, {QStringLiteral("reason"), r.reason}};
        putString(o, "refusedBy", r.refusedBy);
        removed.append(o);
    }
    for (const DryRunSharer &s : t.sharers)
        sharers.append(sharerJson(s));
    QJsonObject unavailable;
    for (auto it = t.unavailable.begin(); it != t.unavailable.end(); ++it)
        unavailable.insert(it.key(), it.value());
    QJsonObject o{{QStringLiteral("target"), t.target},
                  {QStringLiteral("removed"), removed},
                  {QStringLiteral("unavailable"), unavailable},
                  {QStringLiteral("sharers"), sharers},
                  {QStringLiteral("more"), t.more}};
    putString(o, "calls", t.calls);
    putString(o, "translated", t.translated);
    if (t.refusal)
        o.insert(QStringLiteral("refusal"), t.refusal->toJson());
    return o;
}

} // namespace

DryRunAsk DryRunAsk::fromJson(const QJsonObject &o)
{
    DryRunAsk a;
    a.model = str(o, "model");
    a.key = str(o, "key");
    a.endpoint = str(o, "endpoint");
    a.body = o.value(QLatin1String("body")).toObject();
    const QJsonObject headers = o.value(QLatin1String("headers")).toObject();
    for (auto it = headers.begin(); it != headers.end(); ++it)
        a.headers.insert(it.key(), it.value().toString());
    return a;
}

QJsonObject DryRunAsk::toJson() const
{
    QJsonObject o;
    putString(o, "model", model);
    putString(o, "key", key);
    putString(o, "endpoint", endpoint);
    if (!body.isEmpty())
        o.insert(QStringLiteral("body"), body);
    if (!headers.isEmpty()) {
        QJsonObject h;
        for (auto it = headers.begin(); it != headers.end(); ++it)
            h.insert(it.key(), it.value());
        o.insert(QStringLiteral("headers"), h);
    }
    return o;
}

DryRunPlan DryRunPlan::fromJson(const QJsonObject &o)
{
    DryRunPlan p;
    p.model = str(o, "model");
    p.endpoint = str(o, "endpoint");
    for (const QJsonValue &v : o.value(QLatin1String("chain")).toArray())
        p.chain.append(DryRunChainLink{str(v.toObject(), "model"), refusalIn(v.toObject())});
    p.maxAttempts = o.value(QLatin1String("maxAttempts")).toInt();
    p.sessionAffinity = str(o, "sessionAffinity");
    p.sampled = str(o, "ordering") == QLatin1String("sampled");
    for (const QJsonValue &v : o.value(QLatin1String("targets")).toArray())
        p.targets.append(targetFrom(v.toObject()));
    p.note = str(o, "note");
    if (const QJsonObject r = o.value(QLatin1String("route")).toObject(); !r.isEmpty()) {
        std::optional<qint64> turn;
        if (const auto t = optDouble(r, "turn"))
            turn = qint64(*t);
        p.route = DryRunRoute{str(r, "name"),
                              str(r, "order"),
                              str(r, "prefer"),
                              r.value(QLatin1String("spentTodayUsd")).toDouble(),
                              optInt(r, "ttftMs"),
                              optDouble(r, "budgetUsdPerDay"),
                              turn};
    }
    const QJsonObject first = o.value(QLatin1String("first")).toObject();
    p.firstTarget = str(first, "target");
    p.firstSharer = str(first, "sharer");
    p.firstName = str(first, "name");
    p.refusal = refusalIn(o);
    return p;
}

QJsonObject DryRunPlan::toJson() const
{
    QJsonArray chainArray, targetArray;
    for (const DryRunChainLink &link : chain) {
        QJsonObject o{{QStringLiteral("model"), link.model}};
        if (link.refusal)
            o.insert(QStringLiteral("refusal"), link.refusal->toJson());
        chainArray.append(o);
    }
    for (const DryRunTarget &t : targets)
        targetArray.append(targetJson(t));
    QJsonObject o{{QStringLiteral("model"), model},
                  {QStringLiteral("chain"), chainArray},
                  {QStringLiteral("maxAttempts"), maxAttempts},
                  {QStringLiteral("sessionAffinity"), sessionAffinity},
                  {QStringLiteral("endpoint"), endpoint},
                  {QStringLiteral("ordering"), sampled ? QStringLiteral("sampled") : QStringLiteral("fixed")},
                  {QStringLiteral("targets"), targetArray},
                  {QStringLiteral("note"), note}};
    if (route) {
        QJsonObject r{{QStringLiteral("name"), route->name},
                      {QStringLiteral("order"), route->order},
                      {QStringLiteral("prefer"), route->prefer},
                      {QStringLiteral("spentTodayUsd"), route->spentTodayUsd}};
        put(r, "ttftMs", route->ttftMs);
        put(r, "budgetUsdPerDay", route->budgetUsdPerDay);
        put(r, "turn", route->turn);
        o.insert(QStringLiteral("route"), r);
    }
    if (!firstSharer.isEmpty())
        o.insert(QStringLiteral("first"),
                 QJsonObject{{QStringLiteral("target"), firstTarget}, {QStringLiteral("sharer"), firstSharer}, {QStringLiteral("name"), firstName}});
    if (refusal)
        o.insert(QStringLiteral("refusal"), refusal->toJson());
    return o;
}

} // namespace Aile::Api
