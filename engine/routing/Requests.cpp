// What routing reads of a request before it plans: the body's facts (shared by the proxy and the
// dry run) and the fallback chain (docs/routing.md "Fallback chains").
#include "Router.h"

#include "state/EngineContext.h"
#include "keys/ApiKey.h"

#include <algorithm>

namespace Aile::Routing {

const Keys::KeyRouting &RequestFacts::keyRouting() const
{
    if (!m_keyRouting)
        m_keyRouting = key ? Keys::KeyRouting::from(key->routing) : Keys::KeyRouting();
    return *m_keyRouting;
}

bool RequestFacts::prefersSpeed() const
{
    if (route && route->preferSpeed)
        return *route->preferSpeed;
    return keyRouting().preferSpeed;
}

Plan Router::planChain(const RequestFacts &facts, const QStringList &requested, bool accountChain) const
{
    QStringList chain;
    for (const QString &m : requested)
        if (!m.isEmpty() && !chain.contains(m))
            chain << m;
    const QString defaultModel = accountChain ? m_ctx.routing.value(QLatin1String("default_model")).toString() : QString();
    if (chain.isEmpty() && !defaultModel.isEmpty())
        chain << defaultModel;
    if (accountChain)
        for (const QJsonValue &v : m_ctx.routing.value(QLatin1String("fallback_models")).toArray())
            if (!v.toString().isEmpty() && !chain.contains(v.toString()))
                chain << v.toString();
    if (chain.size() > MaxChainModels)
        chain.resize(MaxChainModels);
    auto link = [](const QString &model, const Plan &p) { return ChainLink{model, p.status, p.message, p.extra}; };
    if (chain.size() <= 1) {
        RequestFacts one = facts;
        one.model = chain.value(0, facts.model);
        Plan p = plan(one);
        p.chain = {link(one.model, p)};
        return p;
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
        out.anyProvider = true;     // the model changes between attempts: each attempt names its target
        out.sampled = out.sampled || p.sampled;
        out.orderedBySpeed = out.orderedBySpeed || p.orderedBySpeed;
        out.phaseLimits = out.phaseLimits || p.phaseLimits;
        if (!out.costCapUsd) {
            out.costCapUsd = p.costCapUsd;
            out.costCapSource = p.costCapSource;
        }
        out.targets += p.targets;
        if (out.route.isEmpty())
            out.route = p.route;   // a route named in the chain: its targets still charge it (Target::route)
    }
    if (std::none_of(out.targets.begin(), out.targets.end(), [](const Target &t) { return !t.candidates.isEmpty(); })) {
        firstRefusal->chain = out.chain;
        return *firstRefusal;
    }
    out.maxDials = MaxChainModels;   // at most three attempts across the chain
    return out;
}

QString outputCapFieldOf(Wire::Endpoint endpoint, const QJsonObject &body)
{
    if (endpoint == Wire::Endpoint::ChatCompletions && body.contains(QLatin1String("max_completion_tokens")))
        return QStringLiteral("max_completion_tokens");
    return Wire::outputCapField(endpoint);
}

QString readBodyFacts(Wire::Endpoint endpoint, const QJsonObject &body, const QByteArray &rawBody, RequestFacts *facts)
{
    facts->promptTokens = Billing::estimatePromptTokens(rawBody);
    const QString capField = outputCapFieldOf(endpoint, body);
    // Clamped first: a cap qint64 cannot hold (1e300) has no defined conversion (UBSan,
    // fuzz_request_facts); clamped, it still quotes as the huge request it is.
    if (!capField.isEmpty() && body.value(capField).isDouble())
        facts->maxOutputTokens = qint64(std::clamp(body.value(capField).toDouble(), -9.0e18, 9.0e18));
    facts->stream = body.value(QLatin1String("stream")).toBool();
    facts->needs = RequestNeeds::of(endpoint, body);
    // provider.sort (docs/routing.md "Order"): "price", "latency" or "throughput", or {"by": …}.
    const QJsonValue sortValue = body.value(QLatin1String("provider")).toObject().value(QLatin1String("sort"));
    if (!sortValue.isUndefined() && !sortValue.isNull()) {
        facts->sort = sortValue.isObject() ? sortValue.toObject().value(QLatin1String("by")).toString() : sortValue.toString();
        if (facts->sort != QLatin1String("price") && facts->sort != QLatin1String("latency") && facts->sort != QLatin1String("throughput"))
            return QStringLiteral("provider.sort is \"price\", \"latency\" or \"throughput\"; leave it out for the default order");
    }
    return {};
}

} // namespace Aile::Routing
