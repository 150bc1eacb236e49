// Price limits (docs/keys.md, docs/routing.md "Price limits"): x-aile-max-price, x-aile-min-price,
// x-aile-verified and the key's own bounds, read once per request; a sharer priced outside them is
// left out with the bound that removed it.
#include "PriceLimits.h"

#include "Levers.h"
#include "catalog/Catalog.h"

#include "keys/KeyRouting.h"

#include <cmath>

namespace Aile::Routing {

namespace {

// "8", "$8", "8.5" ($/Mtok) or "80%"; nullopt when malformed.
std::optional<PriceBound> parseBound(const QString &text, const QString &source)
{
    QString v = text.trimmed();
    PriceBound b;
    b.source = source;
    if (v.endsWith(QLatin1Char('%'))) {
        b.percent = true;
        v.chop(1);
    } else if (v.startsWith(QLatin1Char('$'))) {
        v.remove(0, 1);
    }
    bool ok = false;
    b.value = v.trimmed().toDouble(&ok);
    if (!ok || b.value < 0 || (b.percent && b.value > 1000) || !std::isfinite(b.value))
        return std::nullopt;
    return b;
}
} // namespace

std::optional<Plan> readLimits(const RequestFacts &facts, Limits *out)
{
    const Keys::KeyRouting &routing = facts.keyRouting();
    if (routing.maxPricePercent)
        out->maxes.append({*routing.maxPricePercent, true, QStringLiteral("this API key's discount limit")});
    if (routing.maxPrice)
        out->maxes.append({*routing.maxPrice, false, QStringLiteral("this API key's price limit")});
    if (routing.minPricePercent)
        out->mins.append({*routing.minPricePercent, true, QStringLiteral("this API key's price floor")});
    for (const char *name : {"x-aile-max-price", "x-aile-min-price"}) {
        const QString value = facts.headerText(name);
        if (value.isEmpty())
            continue;
        const QString header = QString::fromLatin1(name);
        auto b = parseBound(value, header);
        if (!b && value.endsWith(QLatin1Char('%'))) {
            // A percentage needs a priced model first (404): the value is read after that.
            (header == QLatin1String("x-aile-max-price") ? out->maxes : out->mins).append({0, true, header, true});
            continue;
        }
        if (!b)
            return Plan::refusal(400,
                                 QStringLiteral("%1: \"%2\" is not a price; send $ per million tokens (8) or a percentage of the model's list (80%)")
                                     .arg(header, value),
                                 QJsonObject{{QStringLiteral("refusedBy"), header}});
        (header == QLatin1String("x-aile-max-price") ? out->maxes : out->mins).append(*b);
    }
    const QString verified = facts.headerText("x-aile-verified");
    if (verified == QLatin1String("1") || verified.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0) {
        out->verifiedOnly = true;
        out->verifiedSource = QStringLiteral("x-aile-verified");
    } else if (!verified.isEmpty() && verified != QLatin1String("0") && verified.compare(QLatin1String("false"), Qt::CaseInsensitive) != 0) {
        return Plan::refusal(400, QStringLiteral("x-aile-verified takes 1 or 0, not \"%1\"").arg(verified),
                             QJsonObject{{QStringLiteral("refusedBy"), QStringLiteral("x-aile-verified")}});
    }
    if (routing.verifiedOnly) {
        out->verifiedOnly = true;
        out->verifiedSource = QStringLiteral("this API key's verified-only filter");
    }
    // Max and min price bind the token-priced endpoints only; the rest are priced per unit.
    if (facts.endpoint == Wire::Endpoint::Moderations || facts.endpoint == Wire::Endpoint::Rerank) {
        out->maxes.clear();
        out->mins.clear();
    }
    return Levers::readLevers(facts, out);
}

std::optional<Plan> malformedPercent(const Limits &limits)
{
    for (const QList<PriceBound> &bounds : {limits.maxes, limits.mins})
        for (const PriceBound &b : bounds)
            if (b.malformed)
                return Plan::refusal(
                    400,
                    QStringLiteral("%1: the percentage is malformed; send $ per million tokens (8) or a percentage of the model's list (80%)")
                        .arg(b.source),
                    QJsonObject{{QStringLiteral("refusedBy"), b.source}});
    return std::nullopt;
}

std::optional<Plan> checkPercentNeedsPrice(const Catalog::Catalog &catalog, const Limits &limits, const QString &provider, const QString &model)
{
    // A percentage needs a list price to be a percentage of: refused before the value is read.
    // The catalogue is asked only when a bound is a percentage.
    for (const QList<PriceBound> &bounds : {limits.maxes, limits.mins})
        for (const PriceBound &b : bounds)
            if (b.percent) {
                if (const Catalog::ModelInfo *info = catalog.model(provider, model); info && info->priced())
                    return std::nullopt;
                return Plan::refusal(
                    404,
                    QStringLiteral("%1/%2 has no published list price, so %3 as a percentage cannot apply; give $ per million tokens instead")
                        .arg(provider, model, b.source),
                    QJsonObject{{QStringLiteral("refusedBy"), b.source}});
            }
    return std::nullopt;
}

QString priceRefusal(const Limits &limits, const Billing::Rates &rates, const Catalog::ModelInfo *model, qint64 promptTokens, QString *source)
{
    std::optional<Billing::Rates> list;
    if (model && model->priced()) {
        Catalog::Sharer atList;
        list = Billing::ratesFor(atList, model, model->id, promptTokens); // the band's own list
    }
    for (const PriceBound &max : limits.maxes) {
        const double cap = max.percent ? (list ? list->higher() * max.value / 100.0 : -1) : max.value;
        if (cap >= 0 && rates.higher() > cap + 1e-12) {
            *source = max.source;
            return QStringLiteral("priced above %1 ($%2/Mtok > $%3/Mtok)").arg(max.source).arg(rates.higher()).arg(cap);
        }
    }
    for (const PriceBound &min : limits.mins) {
        bool under = false;
        if (min.percent && list)
            under = rates.input < list->input * min.value / 100.0 - 1e-12 || rates.output < list->output * min.value / 100.0 - 1e-12;
        else if (!min.percent)
            under = rates.higher() < min.value - 1e-12;
        if (under) {
            *source = min.source;
            return QStringLiteral("priced more than %1% below list (%2)").arg(100 - min.value).arg(min.source);
        }
    }
    return {};
}

} // namespace Aile::Routing
