#include "Router.h"

#include "ClientLogin.h"
#include "core/Clock.h"
#include "state/EngineContext.h"
#include "health/HealthBook.h"
#include "keys/ApiKey.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QDateTime>

#include <cmath>

#include <algorithm>

namespace Aile::Routing {

namespace {

Plan refused(int status, const QString &message, const QJsonObject &extra = {})
{
    Plan p;
    p.status = status;
    p.message = message;
    p.extra = extra;
    return p;
}

QString headerText(const RequestFacts &facts, const char *name)
{
    return facts.headers ? QString::fromUtf8(facts.headers->value(name)).trimmed() : QString();
}

QStringList listOf(const QString &value)
{
    QStringList out;
    for (const QString &part : value.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty())
            out << part.trimmed().toLower();
    return out;
}

// A weighted draw without replacement: each pick is proportional to its weight.
template <typename T, typename Weight>
void weightedShuffle(QList<T> &items, QRandomGenerator &rng, Weight weightOf)
{
    for (qsizetype i = 0; i + 1 < items.size(); ++i) {
        double total = 0;
        for (qsizetype j = i; j < items.size(); ++j)
            total += weightOf(items.at(j));
        double x = rng.generateDouble() * total;
        qsizetype pick = items.size() - 1;
        for (qsizetype j = i; j < items.size(); ++j) {
            x -= weightOf(items.at(j));
            if (x < 0) {
                pick = j;
                break;
            }
        }
        if (pick != i)
            items.swapItemsAt(i, pick);
    }
}

// A sharer this request would never draw, whatever its health: it cannot end a wait.
bool neverDrawn(const Refusal &r)
{
    return !r.refusedBy.isEmpty() || r.code == QLatin1String("weight_0") || r.code == QLatin1String("disabled")
           || r.code == QLatin1String("blocked") || r.code == QLatin1String("no_credential");
}

} // namespace

namespace {

// "8", "$8", "8.5" ($/Mtok) or "80%"; nullopt when malformed.
std::optional<Router::PriceBound> parseBound(const QString &text, const QString &source)
{
    QString v = text.trimmed();
    Router::PriceBound b;
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

std::optional<Plan> Router::readLimits(const RequestFacts &facts, Limits *out)
{
    const Keys::KeyRouting &routing = facts.keyRouting();
    if (routing.maxPricePercent)
        out->maxes.append({*routing.maxPricePercent, true, QStringLiteral("this API key's discount limit")});
    if (routing.maxPrice)
        out->maxes.append({*routing.maxPrice, false, QStringLiteral("this API key's price limit")});
    if (routing.minPricePercent)
        out->mins.append({*routing.minPricePercent, true, QStringLiteral("this API key's price floor")});
    for (const char *name : {"x-aile-max-price", "x-aile-min-price"}) {
        const QString value = headerText(facts, name);
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
            return refused(400, QStringLiteral("%1: \"%2\" is not a price; send $ per million tokens (8) or a percentage of the model's list (80%)")
                                    .arg(header, value),
                           QJsonObject{{QStringLiteral("refusedBy"), header}});
        (header == QLatin1String("x-aile-max-price") ? out->maxes : out->mins).append(*b);
    }
    const QString verified = headerText(facts, "x-aile-verified");
    if (verified == QLatin1String("1") || verified.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0) {
        out->verifiedOnly = true;
        out->verifiedSource = QStringLiteral("x-aile-verified");
    } else if (!verified.isEmpty() && verified != QLatin1String("0") && verified.compare(QLatin1String("false"), Qt::CaseInsensitive) != 0) {
        return refused(400, QStringLiteral("x-aile-verified takes 1 or 0, not \"%1\"").arg(verified),
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
    return readLevers(facts, out);
}

namespace {
std::optional<Plan> malformedPercent(const Router::Limits &limits)
{
    for (const QList<Router::PriceBound> &bounds : {limits.maxes, limits.mins})
        for (const Router::PriceBound &b : bounds)
            if (b.malformed)
                return refused(400, QStringLiteral("%1: the percentage is malformed; send $ per million tokens (8) or a percentage of the model's list (80%)")
                                        .arg(b.source),
                               QJsonObject{{QStringLiteral("refusedBy"), b.source}});
    return std::nullopt;
}
} // namespace

std::optional<Plan> Router::checkPercentNeedsPrice(const Limits &limits, const QString &provider, const QString &model) const
{
    // A percentage needs a list price to be a percentage of: refused before the value is read.
    const Catalog::ModelInfo *info = m_ctx.catalog.model(provider, model);
    if (info && info->priced())
        return std::nullopt;
    for (const QList<PriceBound> &bounds : {limits.maxes, limits.mins})
        for (const PriceBound &b : bounds)
            if (b.percent)
                return refused(404, QStringLiteral("%1/%2 has no published list price, so %3 as a percentage cannot apply; give $ per million tokens instead")
                                        .arg(provider, model, b.source),
                               QJsonObject{{QStringLiteral("refusedBy"), b.source}});
    return std::nullopt;
}

QString Router::priceRefusal(const Limits &limits, const Billing::Rates &rates, const Catalog::ModelInfo *model, qint64 promptTokens,
                             QString *source) const
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

QString Router::spelling(const QString &id)
{
    QString s = id.toLower();
    s.replace(QLatin1Char('.'), QLatin1Char('-'));
    return s;
}

Plan Router::plan(const RequestFacts &facts) const
{
    if (facts.model.isEmpty())
        return refused(400, QStringLiteral("the request names no model; send \"model\": \"<provider>/<model>\" (GET /v1/models lists them)"));
    // A key's named route: its name is sent as the model.
    if (facts.key && !facts.route)
        if (const std::optional<Keys::Route> route = Keys::findRoute(facts.key->routes, facts.model))
            return planRoute(facts, *route);
    Limits limits;
    if (auto bad = readLimits(facts, &limits))
        return *bad;
    if (auto spent = checkSpendLimit(facts))
        return *spent;
    const bool chat = Wire::isChat(facts.endpoint);
    const QString headerProvider = headerText(facts, "x-aile-provider").toLower();
    const QString keyProvider = facts.keyRouting().provider;
    const QStringList capacity = listOf(headerText(facts, "x-aile-capacity"));
    const QStringList headerList = listOf(headerProvider);

    // Any provider: auto/<model>, or x-aile-provider: any / a comma list beside a bare id.
    const bool autoPrefix = facts.model.startsWith(QLatin1String("auto/"));
    const bool anyHeader = headerProvider == QLatin1String("any") || headerList.size() > 1;
    if (autoPrefix || (anyHeader && !facts.model.contains(QLatin1Char('/')))) {
        const QString bare = autoPrefix ? facts.model.mid(5) : facts.model;
        if (!chat)
            return refused(400, QStringLiteral("any provider (auto/) is for the chat endpoints only; name the provider as <provider>/<model> on %1")
                                    .arg(QString::fromLatin1(Wire::pathOf(facts.endpoint))));
        if (bare.isEmpty() || bare.contains(QLatin1Char('/')))
            return refused(400, QStringLiteral("what follows auto/ must be a bare model id such as auto/claude-sonnet-5, not \"%1\"").arg(facts.model));
        if (!keyProvider.isEmpty())
            return refused(400, QStringLiteral("this API key is limited to provider %1, so auto/ cannot widen it; send %1/%2 or the bare id")
                                    .arg(keyProvider, bare));
        if (capacity.contains(QLatin1String("local")))
            return refused(400, QStringLiteral("x-aile-capacity: local cannot be added to an any-provider request: self-hosted models are never chosen by auto/; send local/<model>"));
        if (autoPrefix && headerList.size() == 1 && headerList.first() != QLatin1String("any"))
            return refused(400, QStringLiteral("x-aile-provider names one provider (%1) beside auto/, and the two name different things; send %1/%2, "
                                              "or give a comma list of providers to limit auto/")
                                    .arg(headerList.first(), bare));
        QStringList limit = headerList;
        limit.removeAll(QStringLiteral("any"));
        if (auto bad = malformedPercent(limits))
            return *bad;
        return planAnyProvider(facts, bare, limit);
    }
    if (anyHeader)
        return refused(400, QStringLiteral("x-aile-provider: %1 takes a bare model id (or auto/<model>), not \"%2\"").arg(headerProvider, facts.model));

    if (!headerProvider.isEmpty() && !keyProvider.isEmpty() && headerProvider != keyProvider)
        return refused(400, QStringLiteral("this API key is pinned to provider %1; x-aile-provider: %2 cannot change it; use a key that is not pinned")
                                .arg(keyProvider, headerProvider));
    const QString pinned = !headerProvider.isEmpty() ? headerProvider : keyProvider;
    const qsizetype slash = facts.model.indexOf(QLatin1Char('/'));
    const QString prefix = slash > 0 ? facts.model.left(slash) : QString();
    QString provider, id;
    if (!pinned.isEmpty()) {
        const Catalog::ProviderInfo *p = m_ctx.catalog.provider(pinned);
        if (!p)
            return refused(400, QStringLiteral("unknown provider \"%1\" in %2; GET /v1/models lists the providers and models this key can use")
                                    .arg(pinned, headerProvider.isEmpty() ? QStringLiteral("this key's provider pin") : QStringLiteral("x-aile-provider")));
        provider = pinned;
        if (prefix == pinned) {
            id = facts.model.mid(slash + 1);
        } else if (p->namespacedIds || slash < 0) {
            id = facts.model; // an aggregator takes namespaced ids as written
        } else if (m_ctx.catalog.provider(prefix)) {
            return refused(400, QStringLiteral("model %1 names provider %2, but %3 pins provider %4, whose model ids carry no prefix; "
                                              "send the bare id %5 for %4, or drop the pin to use %2")
                                    .arg(facts.model, prefix,
                                         headerProvider.isEmpty() ? QStringLiteral("this API key") : QStringLiteral("x-aile-provider"),
                                         pinned, facts.model.mid(slash + 1)));
        } else {
            return refused(400, QStringLiteral("unknown provider \"%1\" in model \"%2\"; GET /v1/models lists the providers and models this key can use")
                                    .arg(prefix, facts.model));
        }
    } else if (slash > 0) {
        if (!m_ctx.catalog.provider(prefix))
            return refused(400, QStringLiteral("unknown provider \"%1\" in model \"%2\"; GET /v1/models lists the providers and models this key can use")
                                    .arg(prefix, facts.model));
        provider = prefix;
        id = facts.model.mid(slash + 1);
    } else {
        if (chat && facts.keyRouting().bareModelAnyProvider)
            return planAnyProvider(facts, facts.model, facts.keyRouting().bareModelProviders);
        if (facts.client == ClientKind::ClaudeCode)
            provider = QStringLiteral("claude");
        else if (facts.client == ClientKind::Codex)
            provider = QStringLiteral("codex");
        else
            return refused(400, QStringLiteral("model \"%1\" names no provider; write it as <provider>/%1 (for example claude/%1 or auto/%1), "
                                              "or send x-aile-provider; GET /v1/models lists them")
                                    .arg(facts.model));
        id = facts.model;
    }
    if (!chat && slash <= 0)
        return refused(400, QStringLiteral("%1 takes <provider>/<model>; a bare id with x-aile-provider is not accepted there")
                                .arg(QString::fromLatin1(Wire::pathOf(facts.endpoint))));
    if (id.isEmpty())
        return refused(400, QStringLiteral("model \"%1\" names a provider but no model").arg(facts.model));

    const Catalog::ProviderInfo *info = m_ctx.catalog.provider(provider);
    const QString wire = Wire::wireName(facts.endpoint);
    if (!info->speaks(wire)) {
        QStringList wires(info->wires.begin(), info->wires.end());
        wires.sort();
        return refused(404, QStringLiteral("provider %1 does not serve %2; it speaks %3")
                                .arg(provider, QString::fromLatin1(Wire::pathOf(facts.endpoint)), wires.join(QStringLiteral(", "))));
    }
    if (auto noPrice = checkPercentNeedsPrice(limits, provider, id))
        return *noPrice;
    if (auto bad = malformedPercent(limits))
        return *bad;
    if (auto bad = checkRequest(facts, limits, provider, id))
        return *bad;
    Plan plan;
    plan.costCapUsd = limits.costCap;
    plan.costCapSource = limits.costCapSource;
    Target t = filteredTarget(provider, id, facts, limits);
    t.costCapUsd = limits.costCap;
    if (t.candidates.isEmpty()) {
        failEmptyTarget(plan, t, limits);
        plan.targets.append(t);
        return plan;
    }
    order(t, facts, &plan.sampled);
    leverOrder(t, facts, &plan.orderedBySpeed);
    plan.targets.append(t);
    return plan;
}

void Router::failEmptyTarget(Plan &plan, const Target &t, const Limits &limits) const
{
    if (auto levers = leverEmptyPlan(t, limits)) {
        plan.status = levers->status;
        plan.message = levers->message;
        plan.extra = levers->extra;
        return;
    }
    // Every sharer that could be drawn is cooling (or out of quota): 429 at the earliest end. The
    // ones never drawn for this request (weight 0, disabled for the model, blocked, without a
    // credential, left out by a filter or a pin) do not turn that into a 503.
    qint64 earliest = 0;
    bool allCooling = true;
    for (const Refusal &r : t.refusals) {
        if (r.untilMs > 0)
            earliest = earliest == 0 ? r.untilMs : qMin(earliest, r.untilMs);
        else if (!neverDrawn(r))
            allCooling = false;
    }
    if (!t.refusals.isEmpty()
        && std::all_of(t.refusals.begin(), t.refusals.end(), [](const Refusal &r) { return r.code == QLatin1String("capability"); })) {
        // What the request uses that no candidate supports, named.
        QString what = t.refusals.first().reason;
        what = what.mid(what.indexOf(QLatin1String("support ")) + 8).section(QLatin1String(", which"), 0, 0);
        plan.status = 400;
        plan.message = QStringLiteral("%1/%2 does not support %3, which this request uses; send it to a model that does "
                                      "(GET /catalog lists each model's capabilities), or leave that part out")
                           .arg(t.provider, t.model, what);
        plan.extra.insert(QStringLiteral("refusedBy"), QStringLiteral("capability"));
        return;
    }
    if (allCooling && earliest > 0) {
        plan.status = 429;
        plan.retryAfterMs = earliest - m_ctx.clock->nowMs();
        const bool quota = std::any_of(t.refusals.begin(), t.refusals.end(), [](const Refusal &r) { return r.code == QLatin1String("quota_exhausted"); });
        const bool cooling = std::any_of(t.refusals.begin(), t.refusals.end(), [](const Refusal &r) { return r.code == QLatin1String("cooldown"); });
        const QString why = quota && cooling ? QStringLiteral("is cooling down after failures or has used up its subscription quota")
                            : quota           ? QStringLiteral("has used up its subscription quota")
                                              : QStringLiteral("is cooling down after failures");
        plan.message = QStringLiteral("every sharer of %1 for %2 %3; retry in %4 s").arg(t.provider, t.model, why).arg((plan.retryAfterMs + 999) / 1000);
        return;
    }
    const bool allFiltered = !t.refusals.isEmpty()
                             && std::all_of(t.refusals.begin(), t.refusals.end(), [](const Refusal &r) { return !r.refusedBy.isEmpty(); });
    if (allFiltered) {
        // The documented text: what every sharer online is, and where the filter that emptied the pool lives.
        plan.status = 503;
        const Refusal &telling = tellingRefusal(t.refusals);
        QString why = telling.reason;
        const qsizetype paren = why.indexOf(QLatin1String(" ($"));
        if (paren > 0)
            why = why.left(paren);
        plan.message = QStringLiteral("every sharer online for %1/%2 is %3").arg(t.provider, t.model, why);
        plan.extra.insert(QStringLiteral("refusedBy"), telling.refusedBy);
        return;
    }
    plan.status = 503;
    plan.message = t.refusals.isEmpty()
                       ? QStringLiteral("provider %1 has no sharer for %2; add one in Aile's Sharers view").arg(t.provider, t.model)
                       : QStringLiteral("no sharer of provider %1 can serve %2 right now (%3 unavailable)").arg(t.provider, t.model).arg(t.refusals.size());
}

Target Router::target(const QString &provider, const QString &model, const RequestFacts &facts) const
{
    Limits limits;
    readLimits(facts, &limits);
    return filteredTarget(provider, model, facts, limits);
}

Target Router::filteredTarget(const QString &provider, const QString &model, const RequestFacts &facts, const Limits &limits) const
{
    Target t;
    t.provider = provider;
    t.model = model;
    const Catalog::ModelInfo *info = m_ctx.catalog.model(provider, model);
    const qint64 now = m_ctx.clock->nowMs();
    // What the request uses that the model lacks (docs/rules/tiers-quota-health.md): the same for every sharer of it.
    const QString lacking = info ? facts.needs.missingIn(*info, facts.promptTokens) : QString();
    for (const Catalog::Sharer &s : m_ctx.sharers) {
        if (s.provider != provider)
            continue;
        const bool offers = s.offers(model)
                            || (info && std::any_of(info->aliases.begin(), info->aliases.end(), [&](const QString &a) { return s.offers(a); }))
                            || (info && s.offers(info->id));
        if (!offers)
            continue;
        auto refuse = [&](const QString &reason, const QString &code, qint64 until = 0, const QString &by = {}) {
            t.refusals.append({s.handle, s.name, reason, until, by, code});
        };
        if (!lacking.isEmpty()) {
            refuse(QStringLiteral("does not support %1, which this request uses").arg(lacking), QStringLiteral("capability"));
            continue;
        }
        if (s.blocked) {
            refuse(QStringLiteral("blocked"), QStringLiteral("blocked"));
            continue;
        }
        QString leverBy;
        const QString leverWhy = leverRefusal(facts, limits, s, &leverBy);
        if (!leverWhy.isEmpty()) {
            refuse(leverWhy, QStringLiteral("filter"), 0, leverBy);
            continue;
        }
        if (s.usesClientLogin()) {
            // The tool's own login, carried by the request (docs/subscriptions.md).
            static const Http::HttpHeaders none;
            if (const QString why = clientLoginRefusal(s, facts.headers ? *facts.headers : none); !why.isEmpty()) {
                refuse(why, QStringLiteral("no_login"));
                continue;
            }
        } else if (!m_ctx.credentials.contains(s.handle)) {
            refuse(QStringLiteral("no credential: %1").arg(m_ctx.credentialErrors.value(s.handle)), QStringLiteral("no_credential"));
            continue;
        }
        // router.models.<model>.providers.<handle> (docs/rules/tiers-quota-health.md): enabled, priority, weight.
        const QJsonObject over = modelOverride(model, info, s.handle);
        if (!over.value(QLatin1String("enabled")).toBool(true)) {
            refuse(QStringLiteral("disabled for %1 (routing.models)").arg(model), QStringLiteral("disabled"));
            continue;
        }
        const int weight = over.contains(QLatin1String("weight"))
                               ? qBound(0, int(std::lround(over.value(QLatin1String("weight")).toDouble())), 10000)
                               : s.weight;
        // Weight 0 leaves a sharer out of normal routing; naming it (x-aile-sharer, the key's
        // sharer lists) still reaches it (docs/rules/tiers-quota-health.md).
        if (weight == 0 && !limits.onlySharers.contains(s.handle)) {
            refuse(QStringLiteral("weight 0"), QStringLiteral("weight_0"));
            continue;
        }
        const qint64 until = m_ctx.health ? m_ctx.health->coolingUntil(s.handle, model) : 0;
        if (until > 0) {
            const Health::SharerHealth &h = m_ctx.health->of(s.handle);
            const bool modelOff = h.modelOffUntil.value(model, 0) >= until;
            refuse(modelOff ? QStringLiteral("no quota for this model on this account")
                            : QStringLiteral("cooling down (%1)").arg(h.cooldownReason),
                   QStringLiteral("cooldown"), until);
            continue;
        }
        // An exhausted subscription window in a fresh snapshot, with a known reset (docs/rules/tiers-quota-health.md).
        if (const qint64 reset = m_ctx.quota.exhaustedUntil(s.handle, model, now); reset > 0) {
            refuse(QStringLiteral("quota exhausted until %1").arg(QDateTime::fromMSecsSinceEpoch(reset, Qt::UTC).toString(Qt::ISODate)),
                   QStringLiteral("quota_exhausted"), reset);
            continue;
        }
        Candidate c;
        c.handle = s.handle;
        c.name = s.name;
        c.provider = provider;
        c.upstreamModel = model;
        c.rates = Billing::ratesFor(s, info, model, facts.promptTokens);
        if (c.rates)
            c.quoteUsd = Billing::costOf(*c.rates, facts.promptTokens, facts.maxOutputTokens);
        c.tested = s.tested.contains(model) || (info && s.tested.contains(info->id));
        c.priority = over.contains(QLatin1String("priority")) ? qBound(0, over.value(QLatin1String("priority")).toInt(), 10000) : s.priority;
        c.weight = weight;
        if (s.isSubscription())
            c.allowanceResetMs = m_ctx.quota.allowanceResetMs(s.handle, model, now);
        if (limits.verifiedOnly && !c.tested) {
            refuse(QStringLiteral("has not passed a test of %1 (%2)").arg(model, limits.verifiedSource), QStringLiteral("filter"), 0,
                   limits.verifiedSource);
            continue;
        }
        if (!limits.maxes.isEmpty() || !limits.mins.isEmpty()) {
            QString by;
            const QString why = c.rates ? priceRefusal(limits, *c.rates, info, facts.promptTokens, &by)
                                        : QStringLiteral("un-quotable under a price limit");
            if (!why.isEmpty()) {
                if (by.isEmpty())
                    by = (!limits.maxes.isEmpty() ? limits.maxes.first() : limits.mins.first()).source;
                refuse(why, QStringLiteral("filter"), 0, by);
                continue;
            }
        }
        if (limits.costCap && (!c.quoteUsd || *c.quoteUsd > *limits.costCap + 1e-12)) {
            // Passed over before anything is held: a dearer sharer is never paid to.
            t.refusals.append({s.handle, s.name,
                               c.quoteUsd ? QStringLiteral("quotes $%1, above the cost cap $%2 (%3)").arg(*c.quoteUsd, 0, 'f', 6).arg(*limits.costCap).arg(limits.costCapSource)
                                          : QStringLiteral("cannot be quoted, so the cost cap (%1) cannot bound it").arg(limits.costCapSource),
                               0, QStringLiteral("x-aile-max-cost"), QStringLiteral("cost_cap"), c.quoteUsd.value_or(-1)});
            continue;
        }
        if (m_ctx.health) {
            const Health::SharerHealth &h = m_ctx.health->of(s.handle);
            c.deadKey = h.deadKey;
            c.health = m_ctx.health->weight(s.handle);
            c.ttfbMs = h.ttfbSamples > 0 ? h.ttfbMs : -1;
            c.ttfbSamples = h.ttfbSamples;
            c.throughput = h.throughputSamples > 0 ? h.throughput : -1;
            c.throughputSamples = h.throughputSamples;
            const Health::HealthWindow::Stats w = m_ctx.health->window().stats(s.handle, now);
            c.degraded = m_ctx.health->halfOpen(s.handle)
                         || (w.attempts >= m_ctx.settings.degradedMinAttempts && w.successRate < m_ctx.settings.degradedSuccessRate);
        }
        t.candidates.append(c);
    }
    return t;
}

QJsonObject Router::modelOverride(const QString &model, const Catalog::ModelInfo *info, const QString &handle) const
{
    const QJsonObject models = m_ctx.routing.value(QLatin1String("models")).toObject();
    if (models.isEmpty())
        return {};
    // The entry may name the model as the catalogue does, by an alias, or in another spelling.
    QStringList names{model};
    if (info) {
        names << info->id;
        names += info->aliases;
    }
    for (auto it = models.begin(); it != models.end(); ++it) {
        const QString key = it.key().contains(QLatin1Char('/')) ? it.key().section(QLatin1Char('/'), 1) : it.key();
        for (const QString &n : names)
            if (spelling(key) == spelling(n))
                return it.value().toObject().value(QLatin1String("providers")).toObject().value(handle).toObject();
    }
    return {};
}

std::optional<double> Router::sortPrice(const Candidate &c) const
{
    const EngineSettings &st = m_ctx.settings;
    if (c.rates && (st.comparisonInputWeight > 0 || st.comparisonOutputWeight > 0))
        return comparisonPrice(*c.rates, st.comparisonInputWeight, st.comparisonOutputWeight);
    return c.quoteUsd;
}

void Router::order(Target &t, const RequestFacts &facts, bool *sampled) const
{
    // A session draws the same order every time (docs/rules/tiers-quota-health.md); other requests draw at random.
    QRandomGenerator seeded;
    QRandomGenerator *rng = &m_ctx.draw;
    if (facts.drawSeed) {
        const QByteArray h = QCryptographicHash::hash(QByteArray(QByteArray::number(*facts.drawSeed) + t.label().toUtf8()), QCryptographicHash::Sha256);
        seeded.seed(quint32(quint8(h[0]) | quint8(h[1]) << 8 | quint8(h[2]) << 16 | quint32(quint8(h[3])) << 24));
        rng = &seeded;
    }
    const double band = qMax(0.0, m_ctx.settings.tieBandPercent) / 100.0;
    QHash<QString, std::optional<double>> price;
    for (const Candidate &c : t.candidates)
        price.insert(c.handle, sortPrice(c));
    // provider.sort latency/throughput (docs/routing.md "Order"): the measured metric, lower is better.
    const bool bySpeed = facts.sort == QLatin1String("latency") || facts.sort == QLatin1String("throughput");
    auto metric = [&](const Candidate &c) -> std::optional<double> {
        if (facts.sort == QLatin1String("latency"))
            return c.ttfbSamples >= m_ctx.settings.sortMinSamples ? std::optional<double>(c.ttfbMs) : std::nullopt;
        if (facts.sort == QLatin1String("throughput"))
            return c.throughputSamples >= m_ctx.settings.sortMinSamples ? std::optional<double>(-c.throughput) : std::nullopt;
        return std::nullopt;
    };
    // Dead keys and Degraded sharers after every other candidate; then priority tiers, higher
    // first (docs/rules/tiers-quota-health.md); then price, un-quotable last, never first (or the sort the body asked for).
    std::stable_sort(t.candidates.begin(), t.candidates.end(), [&](const Candidate &a, const Candidate &b) {
        if (a.deadKey != b.deadKey)
            return !a.deadKey;
        if (a.degraded != b.degraded)
            return !a.degraded;
        if (a.priority != b.priority)
            return a.priority > b.priority;
        if (bySpeed) {
            const auto ma = metric(a), mb = metric(b);
            if (ma.has_value() != mb.has_value())
                return ma.has_value();
            if (ma && *ma != *mb)
                return *ma < *mb;
        }
        const auto pa = price.value(a.handle), pb = price.value(b.handle);
        if (pa.has_value() != pb.has_value())
            return pa.has_value();
        if (pa && *pa != *pb)
            return *pa < *pb;
        return false;
    });
    if (!facts.sort.isEmpty()) {
        // With a sort, weights no longer split traffic: the order is strict; equal ones keep the
        // tested-first rule and then the configuration's order.
        std::stable_sort(t.candidates.begin(), t.candidates.end(), [&](const Candidate &a, const Candidate &b) {
            if (a.deadKey != b.deadKey || a.degraded != b.degraded || a.priority != b.priority)
                return false;
            if (bySpeed && metric(a) != metric(b))
                return false;
            if (price.value(a.handle) != price.value(b.handle))
                return false;
            return a.tested && !b.tested;
        });
        return;
    }
    const bool quotaReset = m_ctx.routing.value(QLatin1String("selection")).toString() == QLatin1String("quota-reset");
    QList<Candidate> out;
    qsizetype i = 0;
    while (i < t.candidates.size()) {
        // A tie group: the same price (within the tie band), tier and standing.
        const Candidate &first = t.candidates.at(i);
        const std::optional<double> firstPrice = price.value(first.handle);
        qsizetype j = i + 1;
        while (j < t.candidates.size()) {
            const Candidate &c = t.candidates.at(j);
            const std::optional<double> p = price.value(c.handle);
            if (c.deadKey != first.deadKey || c.degraded != first.degraded || c.priority != first.priority
                || p.has_value() != firstPrice.has_value())
                break;
            if (firstPrice && *p > *firstPrice * (1.0 + band) && *p != *firstPrice)
                break;
            ++j;
        }
        QList<Candidate> resetting, tested, untested;
        for (qsizetype k = i; k < j; ++k) {
            const Candidate &c = t.candidates.at(k);
            // router.selection = quota-reset: subscriptions with a fresh snapshot first, soonest
            // reset of their allowance first; the rest in their weighted order (docs/rules/tiers-quota-health.md).
            if (quotaReset && c.allowanceResetMs)
                resetting.append(c);
            else
                (c.tested ? tested : untested).append(c);
        }
        std::stable_sort(resetting.begin(), resetting.end(),
                         [](const Candidate &a, const Candidate &b) { return *a.allowanceResetMs < *b.allowanceResetMs; });
        auto weightOf = [](const Candidate &c) { return double(c.weight) * c.health; };
        if (tested.size() > 1 || untested.size() > 1)
            *sampled = true;
        weightedShuffle(tested, *rng, weightOf);
        weightedShuffle(untested, *rng, weightOf);
        const qsizetype groupStart = out.size();
        out += resetting;
        out += tested;
        out += untested;
        for (qsizetype k = groupStart + 1; k < out.size(); ++k)
            out[k].tiedWithPrevious = true;
        i = j;
    }
    t.candidates = out;
}

QString Router::matchingModel(const QString &provider, const QString &bareId) const
{
    const QString want = spelling(bareId);
    QStringList ids;
    for (const Catalog::ModelInfo *m : m_ctx.catalog.modelsOf(provider)) {
        ids << m->id;
        ids += m->aliases;
    }
    for (const Catalog::Sharer &s : m_ctx.sharers)
        if (s.provider == provider)
            ids += s.models;
    for (const QString &id : ids)
        if (spelling(id) == want)
            return id;
    for (const QString &id : ids)
        if (spelling(id).endsWith(QLatin1Char('/') + want))
            return id;
    return {};
}

Plan Router::planAnyProvider(const RequestFacts &facts, const QString &bareId, const QStringList &limitTo) const
{
    Plan plan;
    plan.anyProvider = true;
    Limits limits;
    readLimits(facts, &limits);
    plan.costCapUsd = limits.costCap;
    plan.costCapSource = limits.costCapSource;
    const QString wire = Wire::wireName(facts.endpoint);
    QList<Target> targets;
    bool listed = false;
    std::optional<Plan> unbounded;
    for (const Catalog::ProviderInfo &p : m_ctx.catalog.providers()) {
        if (p.selfHosted || !p.speaks(wire) || (!limitTo.isEmpty() && !limitTo.contains(p.id)) || limits.excludeProviders.contains(p.id))
            continue;
        const QString id = matchingModel(p.id, bareId);
        if (id.isEmpty())
            continue;
        listed = true;
        // A body the cost cap cannot bound on this provider (codex sends no output cap, say): the
        // same 400 a request naming it gets, and the next provider is tried.
        if (auto bad = checkRequest(facts, limits, p.id, id)) {
            if (!unbounded)
                unbounded = std::move(bad);
            continue;
        }
        Target t = target(p.id, id, facts);
        t.echoModel = facts.model;
        if (t.candidates.isEmpty()) {
            plan.targets.append(t); // kept for the dry run's account, dropped below
            continue;
        }
        order(t, facts, &plan.sampled);
        leverOrder(t, facts, &plan.orderedBySpeed);
        targets.append(t);
    }
    if (!listed)
        return refused(404, QStringLiteral("no provider lists %1 for %2; GET /v1/models lists what this key can use")
                                .arg(bareId, QString::fromLatin1(Wire::pathOf(facts.endpoint))));
    if (targets.isEmpty() && unbounded && plan.targets.isEmpty())
        return *unbounded;
    if (targets.isEmpty()) {
        Target all;
        all.provider = QStringLiteral("auto");
        all.model = bareId;
        for (const Target &t : plan.targets)
            all.refusals += t.refusals;
        failEmptyTarget(plan, all, limits);
        if (plan.status == 503 && !plan.extra.contains(QLatin1String("refusedBy")))
            plan.message = QStringLiteral("no provider listing %1 has a sharer online that can serve it right now").arg(bareId);
        return plan;
    }
    // Cheapest first: a provider is as cheap as its first sharer.
    std::stable_sort(targets.begin(), targets.end(), [](const Target &a, const Target &b) {
        const auto qa = a.candidates.first().quoteUsd, qb = b.candidates.first().quoteUsd;
        if (qa.has_value() != qb.has_value())
            return qa.has_value();
        return qa && *qa < *qb;
    });
    if (targets.size() > MaxAnyProviders)
        targets.resize(MaxAnyProviders);
    plan.targets = targets;
    return plan;
}

} // namespace Aile::Routing
