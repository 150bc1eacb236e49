#include "KeyRouting.h"

#include "catalog/Catalog.h"
#include "catalog/Sharer.h"

#include <QtCore/QRegularExpression>

#include "JsonRead.h"

#include <cmath>

namespace Aile::Keys {

namespace {

QStringList strings(const QJsonObject &o, const char *name)
{
    QStringList out;
    for (const QJsonValue &v : o.value(QLatin1String(name)).toArray())
        out << v.toString();
    return out;
}

QString setting(const char *name)
{
    return QStringLiteral("routing.") + QLatin1String(name);
}

} // namespace

QString describeValue(const QJsonValue &v)
{
    if (v.isString())
        return QLatin1Char('"') + v.toString().left(60) + QLatin1Char('"');
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 12);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isNull())
        return QStringLiteral("null");
    return v.isArray() ? QStringLiteral("a list") : v.isObject() ? QStringLiteral("an object") : QStringLiteral("nothing");
}

const QStringList &routingSettingNames()
{
    static const QStringList names{QStringLiteral("provider"),
                                   QStringLiteral("excludeProviders"),
                                   QStringLiteral("maxPricePercent"),
                                   QStringLiteral("maxPrice"),
                                   QStringLiteral("minPricePercent"),
                                   QStringLiteral("maxCostUsd"),
                                   QStringLiteral("onlySharers"),
                                   QStringLiteral("neverSharers"),
                                   QStringLiteral("sharer"),
                                   QStringLiteral("prefer"),
                                   QStringLiteral("demoteFailing"),
                                   QStringLiteral("sticky"),
                                   QStringLiteral("phaseLimits"),
                                   QStringLiteral("dataCollection"),
                                   QStringLiteral("allowSelfHosted"),
                                   QStringLiteral("spendLimitUsdPerDay"),
                                   QStringLiteral("verifiedOnly"),
                                   QStringLiteral("bareModelAnyProvider"),
                                   QStringLiteral("bareModelProviders"),
                                   QStringLiteral("translate"),
                                   QStringLiteral("node"),
                                   QStringLiteral("capacity")};
    return names;
}

KeyRouting KeyRouting::from(const QJsonObject &o)
{
    KeyRouting r;
    r.provider = o.value(QLatin1String("provider")).toString();
    r.excludeProviders = strings(o, "excludeProviders");
    r.maxPricePercent = optionalNumber(o, "maxPricePercent");
    r.maxPrice = optionalNumber(o, "maxPrice");
    r.minPricePercent = optionalNumber(o, "minPricePercent");
    r.maxCostUsd = optionalNumber(o, "maxCostUsd");
    for (const QString &h : strings(o, "onlySharers"))
        r.onlySharers << Catalog::normalizeHandle(h);
    for (const QString &h : strings(o, "neverSharers"))
        r.neverSharers << Catalog::normalizeHandle(h);
    r.sharer = Catalog::normalizeHandle(o.value(QLatin1String("sharer")).toString());
    r.node = Catalog::normalizeHandle(o.value(QLatin1String("node")).toString());
    r.capacity = o.value(QLatin1String("capacity")).toString();
    r.preferSpeed = o.value(QLatin1String("prefer")).toString() == QLatin1String("speed");
    r.demoteFailing = o.value(QLatin1String("demoteFailing")).toBool(false);
    r.phaseLimits = o.value(QLatin1String("phaseLimits")).toBool(false);
    r.sticky = o.value(QLatin1String("sticky")).toBool(true);
    r.pinTtlSeconds = optionalNumber(o, "pinTtlSeconds");
    r.denyDataCollection = o.value(QLatin1String("dataCollection")).toString() == QLatin1String("deny");
    r.allowSelfHosted = o.value(QLatin1String("allowSelfHosted")).toBool(true);
    r.spendLimitUsdPerDay = optionalNumber(o, "spendLimitUsdPerDay");
    r.verifiedOnly = o.value(QLatin1String("verifiedOnly")).toBool(false);
    r.bareModelAnyProvider = o.value(QLatin1String("bareModelAnyProvider")).toBool(false);
    r.bareModelProviders = strings(o, "bareModelProviders");
    r.translate = o.value(QLatin1String("translate")).toBool(false);
    return r;
}

bool validCostUsd(double v)
{
    if (!std::isfinite(v) || v <= 0 || v > MaxCostUsd)
        return false;
    const double micro = v * 1e6;
    return std::fabs(micro - std::round(micro)) < 1e-6 * qMax(1.0, micro) + 1e-9;
}

std::optional<double> parseCostUsd(const QString &text)
{
    QString v = text.trimmed();
    if (v.startsWith(QLatin1Char('$')))
        v.remove(0, 1);
    static const QRegularExpression re(QStringLiteral("^[0-9]+(\\.[0-9]{1,6})?$|^\\.[0-9]{1,6}$"));
    if (!re.match(v).hasMatch())
        return std::nullopt;
    bool ok = false;
    const double d = v.toDouble(&ok);
    if (!ok || !validCostUsd(d))
        return std::nullopt;
    return d;
}

QString validateRouting(const QJsonObject &routing, const QJsonArray &routes, const Catalog::Catalog &catalog, QJsonObject *normalized)
{
    QJsonObject out;
    for (auto it = routing.begin(); it != routing.end(); ++it) {
        if (!routingSettingNames().contains(it.key()))
            return QStringLiteral("routing.%1 is not a key routing setting; docs/keys.md lists them (%2)")
                .arg(it.key(), routingSettingNames().join(QStringLiteral(", ")));
        if (!it.value().isNull())
            out.insert(it.key(), it.value());
    }

    auto boolean = [&](const char *name) -> QString {
        if (out.contains(QLatin1String(name)) && !out.value(QLatin1String(name)).isBool())
            return QStringLiteral("%1 must be true or false").arg(setting(name));
        return {};
    };
    for (const char *name : {"demoteFailing", "phaseLimits", "sticky", "allowSelfHosted", "verifiedOnly", "bareModelAnyProvider", "translate"})
        if (QString e = boolean(name); !e.isEmpty())
            return e;
    auto range = [&](const char *name, double low, bool lowOpen, double high, const QString &unit) -> QString {
        if (!out.contains(QLatin1String(name)))
            return {};
        const QJsonValue v = out.value(QLatin1String(name));
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || (lowOpen ? d <= low : d < low) || d > high)
            return QStringLiteral("%1 must be a number %2 %3 and at most %4 (%5); got %6")
                .arg(setting(name), lowOpen ? QStringLiteral("above") : QStringLiteral("from"))
                .arg(low)
                .arg(high)
                .arg(unit, v.isDouble() ? QString::number(d)
                                        : QStringLiteral("a %1").arg(v.isString() ? QStringLiteral("string") : QStringLiteral("non-number")));
        return {};
    };
    if (QString e = range("maxPricePercent", 0, true, 1000, QStringLiteral("percent of the model's list price")); !e.isEmpty())
        return e;
    if (QString e = range("minPricePercent", 0, true, 100, QStringLiteral("percent of the model's list price")); !e.isEmpty())
        return e;
    if (QString e = range("maxPrice", 0, true, 10000, QStringLiteral("$ per million tokens")); !e.isEmpty())
        return e;
    if (QString e = range("spendLimitUsdPerDay", 0, true, 1000000, QStringLiteral("dollars a day, UTC")); !e.isEmpty())
        return e;
    if (out.contains(QLatin1String("maxCostUsd"))) {
        const QJsonValue v = out.value(QLatin1String("maxCostUsd"));
        std::optional<double> cap = v.isDouble() && validCostUsd(v.toDouble()) ? std::optional<double>(v.toDouble())
                                    : v.isString()                             ? parseCostUsd(v.toString())
                                                                               : std::nullopt;
        if (!cap)
            return QStringLiteral("routing.maxCostUsd: %1 is not a cost cap; give dollars above 0 and at most 10,000, with at most 6 decimals (0.5)")
                .arg(v.isDouble() ? QString::number(v.toDouble(), 'g', 12) : v.toVariant().toString());
        out.insert(QStringLiteral("maxCostUsd"), *cap);
    }
    const auto floorPercent = optionalNumber(out, "minPricePercent");
    const auto limitPercent = optionalNumber(out, "maxPricePercent");
    if (floorPercent && limitPercent && *floorPercent > *limitPercent)
        return QStringLiteral(
                   "routing.minPricePercent (%1% of list) sits above this key's own discount limit, routing.maxPricePercent (%2% of list), "
                   "so no sharer could ever pass both; lower the floor or raise the limit")
            .arg(*floorPercent)
            .arg(*limitPercent);

    auto oneOf = [&](const char *name, const QStringList &allowed) -> QString {
        if (out.contains(QLatin1String(name)) && !allowed.contains(out.value(QLatin1String(name)).toString()))
            return QStringLiteral("%1 takes %2").arg(setting(name), allowed.join(QStringLiteral(" or ")));
        return {};
    };
    if (QString e = oneOf("prefer", {QStringLiteral("price"), QStringLiteral("speed")}); !e.isEmpty())
        return e;
    if (QString e = oneOf("dataCollection", {QStringLiteral("allow"), QStringLiteral("deny")}); !e.isEmpty())
        return e;

    // Providers: known ids.
    auto providerList = [&](const char *name) -> QString {
        if (!out.contains(QLatin1String(name)))
            return {};
        const QJsonValue v = out.value(QLatin1String(name));
        if (!v.isArray())
            return QStringLiteral("%1 must be a list of provider ids").arg(setting(name));
        if (v.toArray().size() > MaxListEntries)
            return QStringLiteral("%1 names %2 providers; at most %3 are allowed").arg(setting(name)).arg(v.toArray().size()).arg(MaxListEntries);
        QJsonArray clean;
        for (const QJsonValue &p : v.toArray()) {
            const QString id = p.toString().trimmed().toLower();
            if (!p.isString() || !catalog.provider(id))
                return QStringLiteral("%1: unknown provider \"%2\"; GET /v1/models lists the providers").arg(setting(name), p.toVariant().toString());
            if (!clean.contains(id))
                clean.append(id);
        }
        out.insert(QLatin1String(name), clean);
        return {};
    };
    if (QString e = providerList("excludeProviders"); !e.isEmpty())
        return e;
    if (QString e = providerList("bareModelProviders"); !e.isEmpty())
        return e;
    if (out.contains(QLatin1String("provider"))) {
        const QString p = out.value(QLatin1String("provider")).toString().trimmed().toLower();
        if (p.isEmpty()) {
            out.remove(QStringLiteral("provider"));
        } else if (!catalog.provider(p)) {
            return QStringLiteral("routing.provider: unknown provider \"%1\"; GET /v1/models lists the providers").arg(p);
        } else {
            out.insert(QStringLiteral("provider"), p);
        }
    }

    // Sharer handles: L + 16 hex, canonical, at most 50.
    auto handleList = [&](const char *name) -> QString {
        if (!out.contains(QLatin1String(name)))
            return {};
        const QJsonValue v = out.value(QLatin1String(name));
        if (!v.isArray())
            return QStringLiteral("%1 must be a list of sharer handles (L + 16 hex digits)").arg(setting(name));
        if (v.toArray().size() > MaxListEntries)
            return QStringLiteral("%1 names %2 sharers; at most %3 are allowed").arg(setting(name)).arg(v.toArray().size()).arg(MaxListEntries);
        QJsonArray clean;
        for (const QJsonValue &h : v.toArray()) {
            const QString handle = Catalog::normalizeHandle(h.toString());
            if (handle.isEmpty())
                return QStringLiteral("%1: \"%2\" is not a sharer handle; handles are L followed by 16 hex digits")
                    .arg(setting(name), h.toVariant().toString());
            if (!clean.contains(handle))
                clean.append(handle);
        }
        out.insert(QLatin1String(name), clean);
        return {};
    };
    if (QString e = handleList("onlySharers"); !e.isEmpty())
        return e;
    if (QString e = handleList("neverSharers"); !e.isEmpty())
        return e;
    // One handle (the one sharer, the one machine): canonical, or gone when empty.
    auto singleHandle = [&](const char *name, const QString &what) -> QString {
        if (!out.contains(QLatin1String(name)))
            return {};
        const QString raw = out.value(QLatin1String(name)).toString();
        const QString handle = Catalog::normalizeHandle(raw);
        if (raw.trimmed().isEmpty())
            out.remove(QLatin1String(name));
        else if (handle.isEmpty())
            return QStringLiteral("routing.%1: \"%2\" is not %3; handles are L followed by 16 hex digits").arg(QLatin1String(name), raw, what);
        else
            out.insert(QLatin1String(name), handle);
        return {};
    };
    if (QString e = singleHandle("sharer", QStringLiteral("a sharer handle")); !e.isEmpty())
        return e;

    // One machine (docs/team.md): a node-backed sharer's handle; node or nodeless capacity.
    if (QString e = singleHandle("node", QStringLiteral("a node-backed sharer's handle")); !e.isEmpty())
        return e;
    if (out.contains(QLatin1String("capacity"))) {
        const QJsonValue v = out.value(QLatin1String("capacity"));
        if (v.toString() != QLatin1String("node") && v.toString() != QLatin1String("nodeless"))
            return QStringLiteral(
                       "routing.capacity must be \"node\" (only node-backed sharers) or \"nodeless\" (only sharers dialled directly); got %1")
                .arg(describeValue(v));
    }

    const KeyRouting k = KeyRouting::from(out);
    if (!k.node.isEmpty() && k.capacity == QLatin1String("nodeless"))
        return QStringLiteral("routing.node pins this key to node %1, which routing.capacity nodeless leaves out; remove one of the two").arg(k.node);
    if (!k.provider.isEmpty() && k.excludeProviders.contains(k.provider))
        return QStringLiteral("routing.provider pins provider %1, which routing.excludeProviders leaves out; remove one of the two").arg(k.provider);
    for (const QString &h : k.onlySharers)
        if (k.neverSharers.contains(h))
            return QStringLiteral("sharer %1 is both allowed (routing.onlySharers) and blocked (routing.neverSharers); remove it from one list")
                .arg(h);
    if (!k.sharer.isEmpty() && !k.onlySharers.isEmpty())
        return QStringLiteral("routing.onlySharers cannot sit beside the single sharer pin routing.sharer (%1); keep one of the two").arg(k.sharer);
    if (!k.sharer.isEmpty() && k.neverSharers.contains(k.sharer))
        return QStringLiteral("routing.sharer pins %1, which routing.neverSharers blocks; remove one of the two").arg(k.sharer);

    // The lists and the routes are checked against each other.
    for (const QJsonValue &rv : routes) {
        const QJsonObject route = rv.toObject();
        const QString routeName = route.value(QLatin1String("name")).toString();
        for (const QJsonValue &tv : route.value(QLatin1String("targets")).toArray()) {
            const QJsonObject target = tv.toObject();
            const QString model = target.value(QLatin1String("model")).toString();
            const QString provider = model.section(QLatin1Char('/'), 0, 0).toLower();
            const QString pinned = Catalog::normalizeHandle(target.value(QLatin1String("sharer")).toString());
            const QString where = QStringLiteral("route \"%1\" targets %2").arg(routeName, model);
            const QString fix = QStringLiteral("change or remove that route first");
            if (!k.provider.isEmpty() && provider != k.provider)
                return QStringLiteral("routing.provider pins this key to provider %1, but %2; %3").arg(k.provider, where, fix);
            if (k.excludeProviders.contains(provider))
                return QStringLiteral("routing.excludeProviders leaves out provider %1, but %2; %3").arg(provider, where, fix);
            const Catalog::ProviderInfo *info = catalog.provider(provider);
            if (info && info->selfHosted && !k.allowSelfHosted)
                return QStringLiteral("routing.allowSelfHosted is off, but %1, a self-hosted model; %2").arg(where, fix);
            if (info && k.denyDataCollection && (info->selfHosted || info->dataCollection != Catalog::DataPolicy::Deny))
                return QStringLiteral(
                           "routing.dataCollection is deny (only providers that do not train on prompts), but %1, whose provider %2 %3; %4")
                    .arg(where, provider,
                         info->selfHosted ? QStringLiteral("is self-hosted")
                                          : QStringLiteral("has the policy %1").arg(Catalog::dataPolicyName(info->dataCollection)),
                         fix);
            if (pinned.isEmpty())
                continue;
            if (!k.sharer.isEmpty() && pinned != k.sharer)
                return QStringLiteral("routing.sharer pins this key to sharer %1, but %2 on sharer %3; %4").arg(k.sharer, where, pinned, fix);
            if (k.neverSharers.contains(pinned))
                return QStringLiteral("routing.neverSharers blocks %1, but %2 on that sharer; %3").arg(pinned, where, fix);
            if (!k.onlySharers.isEmpty() && !k.onlySharers.contains(pinned))
                return QStringLiteral("routing.onlySharers leaves off %1, but %2 on that sharer; %3").arg(pinned, where, fix);
        }
    }
    if (normalized)
        *normalized = out;
    return {};
}

} // namespace Aile::Keys
