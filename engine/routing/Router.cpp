#include "Router.h"

#include "CandidateFilter.h"
#include "CandidateOrder.h"
#include "Levers.h"
#include "ModelNaming.h"
#include "RoutePlanning.h"
#include "TranslatedTarget.h"
#include "catalog/Catalog.h"
#include "keys/ApiKey.h"
#include "translate/Translation.h"

#include <QtCore/QJsonArray>

#include <algorithm>
#include <utility>

namespace Aile::Routing {

namespace {

QStringList listOf(const QString &value)
{
    QStringList out;
    if (value.isEmpty())
        return out;
    for (const QString &part : value.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty())
            out << part.trimmed().toLower();
    return out;
}

} // namespace

Plan Router::plan(const RequestFacts &facts) const
{
    if (facts.model.isEmpty())
        return Plan::refusal(400, QStringLiteral("the request names no model; send \"model\": \"<provider>/<model>\" (GET /v1/models lists them)"));
    // A key's named route: its name is sent as the model.
    if (facts.key && !facts.route)
        if (const std::optional<Keys::Route> route = Keys::findRoute(facts.key->routes, facts.model))
            return planRoute(*this, facts, *route);
    Limits limits;
    if (auto bad = readLimits(facts, &limits))
        return *bad;
    if (auto spent = Levers(m_s).checkSpendLimit(facts))
        return *spent;
    const bool chat = Wire::isChat(facts.endpoint);
    const QString headerProvider = facts.headerText("x-aile-provider").toLower();
    const QString keyProvider = facts.keyRouting().provider;
    const QStringList capacity = listOf(facts.headerText("x-aile-capacity"));
    const QStringList headerList = listOf(headerProvider);

    // Any provider: auto/<model>, or x-aile-provider: any / a comma list beside a bare id.
    const bool autoPrefix = facts.model.startsWith(QLatin1String("auto/"));
    const bool anyHeader = headerProvider == QLatin1String("any") || headerList.size() > 1;
    if (autoPrefix || (anyHeader && !facts.model.contains(QLatin1Char('/')))) {
        const QString bare = autoPrefix ? facts.model.mid(5) : facts.model;
        if (!chat)
            return Plan::refusal(400,
                                 QStringLiteral("any provider (auto/) is for the chat endpoints only; name the provider as <provider>/<model> on %1")
                                     .arg(QString::fromLatin1(Wire::pathOf(facts.endpoint))));
        if (bare.isEmpty() || bare.contains(QLatin1Char('/')))
            return Plan::refusal(
                400, QStringLiteral("what follows auto/ must be a bare model id such as auto/claude-sonnet-5, not \"%1\"").arg(facts.model));
        if (!keyProvider.isEmpty())
            return Plan::refusal(
                400,
                QStringLiteral("this API key is limited to provider %1, so auto/ cannot widen it; send %1/%2 or the bare id").arg(keyProvider, bare));
        if (capacity.contains(QLatin1String("local")))
            return Plan::refusal(400, QStringLiteral("x-aile-capacity: local cannot be added to an any-provider request: self-hosted models are "
                                                     "never chosen by auto/; send local/<model>"));
        if (autoPrefix && headerList.size() == 1 && headerList.first() != QLatin1String("any"))
            return Plan::refusal(
                400, QStringLiteral("x-aile-provider names one provider (%1) beside auto/, and the two name different things; send %1/%2, "
                                    "or give a comma list of providers to limit auto/")
                         .arg(headerList.first(), bare));
        QStringList limit = headerList;
        limit.removeAll(QStringLiteral("any"));
        if (auto bad = malformedPercent(limits))
            return *bad;
        return planAnyProvider(facts, bare, limit);
    }
    if (anyHeader)
        return Plan::refusal(
            400, QStringLiteral("x-aile-provider: %1 takes a bare model id (or auto/<model>), not \"%2\"").arg(headerProvider, facts.model));

    if (!headerProvider.isEmpty() && !keyProvider.isEmpty() && headerProvider != keyProvider)
        return Plan::refusal(
            400, QStringLiteral("this API key is pinned to provider %1; x-aile-provider: %2 cannot change it; use a key that is not pinned")
                     .arg(keyProvider, headerProvider));
    const QString pinned = !headerProvider.isEmpty() ? headerProvider : keyProvider;
    const qsizetype slash = facts.model.indexOf(QLatin1Char('/'));
    const QString prefix = slash > 0 ? facts.model.left(slash) : QString();
    QString provider, id;
    if (!pinned.isEmpty()) {
        const Catalog::ProviderInfo *p = m_s.catalog.provider(pinned);
        if (!p)
            return Plan::refusal(
                400, QStringLiteral("unknown provider \"%1\" in %2; GET /v1/models lists the providers and models this key can use")
                         .arg(pinned, headerProvider.isEmpty() ? QStringLiteral("this key's provider pin") : QStringLiteral("x-aile-provider")));
        provider = pinned;
        if (prefix == pinned) {
            id = facts.model.mid(slash + 1);
        } else if (p->namespacedIds || slash < 0) {
            id = facts.model; // an aggregator takes namespaced ids as written
        } else if (m_s.catalog.provider(prefix)) {
            return Plan::refusal(400, QStringLiteral("model %1 names provider %2, but %3 pins provider %4, whose model ids carry no prefix; "
                                                     "send the bare id %5 for %4, or drop the pin to use %2")
                                          .arg(facts.model, prefix,
                                               headerProvider.isEmpty() ? QStringLiteral("this API key") : QStringLiteral("x-aile-provider"), pinned,
                                               facts.model.mid(slash + 1)));
        } else {
            return Plan::refusal(
                400, QStringLiteral("unknown provider \"%1\" in model \"%2\"; GET /v1/models lists the providers and models this key can use")
                         .arg(prefix, facts.model));
        }
    } else if (slash > 0) {
        if (!m_s.catalog.provider(prefix))
            return Plan::refusal(
                400, QStringLiteral("unknown provider \"%1\" in model \"%2\"; GET /v1/models lists the providers and models this key can use")
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
            return Plan::refusal(400, QStringLiteral("model \"%1\" names no provider; write it as <provider>/%1 (for example claude/%1 or auto/%1), "
                                                     "or send x-aile-provider; GET /v1/models lists them")
                                          .arg(facts.model));
        id = facts.model;
    }
    if (!chat && slash <= 0)
        return Plan::refusal(400, QStringLiteral("%1 takes <provider>/<model>; a bare id with x-aile-provider is not accepted there")
                                      .arg(QString::fromLatin1(Wire::pathOf(facts.endpoint))));
    if (id.isEmpty())
        return Plan::refusal(400, QStringLiteral("model \"%1\" names a provider but no model").arg(facts.model));

    const Catalog::ProviderInfo *info = m_s.catalog.provider(provider);
    const QString wire = Wire::wireName(facts.endpoint);
    // A provider of another chat wire serves only where the key or the route target allows translation.
    const bool speaks = info->speaks(wire);
    const Wire::Endpoint translateTo = speaks ? Wire::Endpoint::Unknown : translationWire(facts, *info);
    if (!speaks && translateTo == Wire::Endpoint::Unknown) {
        QStringList wires(info->wires.begin(), info->wires.end());
        wires.sort();
        return Plan::refusal(404, QStringLiteral("provider %1 does not serve %2; it speaks %3")
                                      .arg(provider, QString::fromLatin1(Wire::pathOf(facts.endpoint)), wires.join(QStringLiteral(", "))));
    }
    if (auto noPrice = checkPercentNeedsPrice(m_s.catalog, limits, provider, id))
        return *noPrice;
    if (auto bad = malformedPercent(limits))
        return *bad;
    if (auto bad = Levers(m_s).checkRequest(facts, limits, provider, id))
        return *bad;
    // Translated: refused here when a field cannot travel, and quoted at the translated request's size.
    RequestFacts estimated;
    if (translateTo != Wire::Endpoint::Unknown)
        if (auto refused = checkTranslation(facts, translateTo, provider + QLatin1Char('/') + id, &estimated))
            return *refused;
    const RequestFacts &quoted = translateTo != Wire::Endpoint::Unknown ? estimated : facts;
    Plan plan;
    plan.costCapUsd = limits.costCap;
    plan.costCapSource = limits.costCapSource;
    Target t = CandidateFilter(m_s).filteredTarget(provider, id, quoted, limits);
    t.costCapUsd = limits.costCap;
    if (translateTo != Wire::Endpoint::Unknown) {
        t.translateTo = translateTo;
        t.translation = Translate::label(facts.endpoint, translateTo);
    }
    if (t.candidates.isEmpty()) {
        CandidateFilter(m_s).failEmptyTarget(plan, t, limits);
        plan.targets.append(std::move(t));
        return plan;
    }
    CandidateOrder(m_s).order(t, facts, &plan.sampled);
    CandidateOrder(m_s).leverOrder(t, facts, &plan.orderedBySpeed);
    plan.targets.append(std::move(t));
    return plan;
}

Target Router::target(const QString &provider, const QString &model, const RequestFacts &facts) const
{
    Limits limits;
    readLimits(facts, &limits);
    return CandidateFilter(m_s).filteredTarget(provider, model, facts, limits);
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
    for (const Catalog::ProviderInfo &p : m_s.catalog.providers()) {
        if (p.selfHosted || !p.speaks(wire) || (!limitTo.isEmpty() && !limitTo.contains(p.id)) || limits.excludeProviders.contains(p.id))
            continue;
        const QString id = matchingModel(m_s.catalog, m_s.sharers, p.id, bareId);
        if (id.isEmpty())
            continue;
        listed = true;
        // A body the cost cap cannot bound on this provider (codex sends no output cap, say): the
        // same 400 a request naming it gets, and the next provider is tried.
        if (auto bad = Levers(m_s).checkRequest(facts, limits, p.id, id)) {
            if (!unbounded)
                unbounded = std::move(bad);
            continue;
        }
        Target t = target(p.id, id, facts);
        t.echoModel = facts.model;
        if (t.candidates.isEmpty()) {
            plan.targets.append(std::move(t)); // kept for the dry run's account, dropped below
            continue;
        }
        CandidateOrder(m_s).order(t, facts, &plan.sampled);
        CandidateOrder(m_s).leverOrder(t, facts, &plan.orderedBySpeed);
        targets.append(std::move(t));
    }
    if (!listed)
        return Plan::refusal(404, QStringLiteral("no provider lists %1 for %2; GET /v1/models lists what this key can use")
                                      .arg(bareId, QString::fromLatin1(Wire::pathOf(facts.endpoint))));
    if (targets.isEmpty() && unbounded && plan.targets.isEmpty())
        return *unbounded;
    if (targets.isEmpty()) {
        Target all;
        all.provider = QStringLiteral("auto");
        all.model = bareId;
        for (const Target &t : plan.targets)
            all.refusals += t.refusals;
        CandidateFilter(m_s).failEmptyTarget(plan, all, limits);
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

Plan Router::planChain(const RequestFacts &facts, const QStringList &requested, bool accountChain) const
{
    QStringList chain;
    for (const QString &m : requested)
        if (!m.isEmpty() && !chain.contains(m))
            chain << m;
    const QString defaultModel = accountChain ? m_s.config.value(QLatin1String("default_model")).toString() : QString();
    if (chain.isEmpty() && !defaultModel.isEmpty())
        chain << defaultModel;
    if (accountChain)
        for (const QJsonValue &v : m_s.config.value(QLatin1String("fallback_models")).toArray())
            if (!v.toString().isEmpty() && !chain.contains(v.toString()))
                chain << v.toString();
    if (chain.size() > MaxChainModels)
        chain.resize(MaxChainModels);
    auto link = [](const QString &model, const Plan &p) { return ChainLink{model, p.status, p.message, p.extra}; };
    if (chain.size() <= 1) {
        auto single = [&](const RequestFacts &one) {
            Plan p = plan(one);
            p.chain = {link(one.model, p)};
            return p;
        };
        const QString model = chain.value(0, facts.model);
        if (model == facts.model)
            return single(facts); // the request's own model: its facts as they are, not a copy
        RequestFacts one = facts;
        one.model = model;
        return single(one);
    }
    Plan out;
    std::optional<Plan> firstRefusal;
    for (const QString &m : chain) {
        RequestFacts one = facts;
        one.model = m;
        Plan p = plan(one);
        out.chain.append(link(m, p));
        if (!p.ok()) {
            // A model that cannot be served is passed over for the next one; its refusals stay in the trace.
            if (!firstRefusal)
                firstRefusal = p;
            for (Target &t : p.targets)
                if (t.candidates.isEmpty())
                    out.targets.append(t);
            continue;
        }
        out.anyProvider = true; // the model changes between attempts: each attempt names its target
        out.sampled = out.sampled || p.sampled;
        out.orderedBySpeed = out.orderedBySpeed || p.orderedBySpeed;
        out.phaseLimits = out.phaseLimits || p.phaseLimits;
        if (!out.costCapUsd) {
            out.costCapUsd = p.costCapUsd;
            out.costCapSource = p.costCapSource;
        }
        out.targets += p.targets;
        if (out.route.isEmpty())
            out.route = p.route; // a route named in the chain: its targets still charge it (Target::route)
    }
    if (std::none_of(out.targets.begin(), out.targets.end(), [](const Target &t) { return !t.candidates.isEmpty(); })) {
        firstRefusal->chain = out.chain;
        return *firstRefusal;
    }
    out.maxDials = MaxChainModels; // at most three attempts across the chain
    return out;
}

} // namespace Aile::Routing
