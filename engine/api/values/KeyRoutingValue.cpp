#include "KeyRoutingValue.h"

#include <QtCore/QJsonArray>

#include <type_traits>

namespace Aile::Api {

namespace {

// One reader and writer per type: a setting of its expected type is read into its field and
// taken out of what is left; one of another type stays in other, untouched.
void read(QJsonObject &rest, const char *key, std::optional<double> &field)
{
    const QJsonValue v = rest.value(QLatin1String(key));
    if (v.isDouble()) {
        field = v.toDouble();
        rest.remove(QLatin1String(key));
    }
}

void read(QJsonObject &rest, const char *key, std::optional<bool> &field)
{
    const QJsonValue v = rest.value(QLatin1String(key));
    if (v.isBool()) {
        field = v.toBool();
        rest.remove(QLatin1String(key));
    }
}

void read(QJsonObject &rest, const char *key, std::optional<QString> &field)
{
    const QJsonValue v = rest.value(QLatin1String(key));
    if (v.isString()) {
        field = v.toString();
        rest.remove(QLatin1String(key));
    }
}

void read(QJsonObject &rest, const char *key, std::optional<QStringList> &field)
{
    const QJsonValue v = rest.value(QLatin1String(key));
    if (!v.isArray())
        return;
    QStringList list;
    for (const QJsonValue &item : v.toArray()) {
        if (!item.isString())
            return; // not a list of names: kept as it is
        list << item.toString();
    }
    field = list;
    rest.remove(QLatin1String(key));
}

template <typename T> void write(QJsonObject &o, const char *key, const std::optional<T> &field)
{
    if (!field)
        return;
    if constexpr (std::is_same_v<T, QStringList>)
        o.insert(QLatin1String(key), QJsonArray::fromStringList(*field));
    else
        o.insert(QLatin1String(key), *field);
}

// Every named setting, once, for the reader and the writer alike.
template <typename Value, typename Visit> void eachSetting(Value &v, Visit &&visit)
{
    visit("maxPricePercent", v.maxPricePercent);
    visit("maxPrice", v.maxPrice);
    visit("minPricePercent", v.minPricePercent);
    visit("maxCostUsd", v.maxCostUsd);
    visit("spendLimitUsdPerDay", v.spendLimitUsdPerDay);
    visit("provider", v.provider);
    visit("excludeProviders", v.excludeProviders);
    visit("dataCollection", v.dataCollection);
    visit("allowSelfHosted", v.allowSelfHosted);
    visit("onlySharers", v.onlySharers);
    visit("neverSharers", v.neverSharers);
    visit("prefer", v.prefer);
    visit("demoteFailing", v.demoteFailing);
    visit("phaseLimits", v.phaseLimits);
    visit("sticky", v.sticky);
    visit("verifiedOnly", v.verifiedOnly);
    visit("sharer", v.sharer);
    visit("bareModelAnyProvider", v.bareModelAnyProvider);
    visit("bareModelProviders", v.bareModelProviders);
}

} // namespace

KeyRoutingValue KeyRoutingValue::fromJson(const QJsonObject &o)
{
    KeyRoutingValue v;
    v.other = o;
    eachSetting(v, [&v](const char *key, auto &field) { read(v.other, key, field); });
    return v;
}

QJsonObject KeyRoutingValue::toJson() const
{
    QJsonObject o = other;
    eachSetting(*this, [&o](const char *key, const auto &field) { write(o, key, field); });
    return o;
}

} // namespace Aile::Api
