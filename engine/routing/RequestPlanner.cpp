// One request's preparation, shared by requests, dry runs and the sharers listing (docs/routing.md
// "One planner"): what the body says, the session it belongs to, the chain of models, the plan,
// the session pin's place in it, and what a request sends upstream.
#include "RequestPlanner.h"

#include "keys/ApiKey.h"

#include <QtCore/QJsonArray>

#include <algorithm>

namespace Aile::Routing {

QJsonObject RequestPlanner::oneLinePrompt(const QString &model)
{
    QJsonObject body{{QStringLiteral("messages"),
                      QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), QStringLiteral("hi")}}}}};
    if (!model.isEmpty())
        body.insert(QStringLiteral("model"), model);
    return body;
}

RequestPlan RequestPlanner::plan(const PlanAsk &ask, const RecordedFacts &recorded) const
{
    static const Http::HttpHeaders noHeaders;
    static const QJsonObject noBody;
    const Http::HttpHeaders &headers = ask.headers ? *ask.headers : noHeaders;
    const QJsonObject &body = ask.body ? *ask.body : noBody;
    RequestPlan out;
    RequestFacts &facts = out.facts;

    // The body's facts: the model, the output cap, streaming, the capabilities used, provider.sort.
    const QJsonValue modelValue = body.value(QLatin1String("model"));
    if (!modelValue.isUndefined() && !modelValue.isString()) {
        out.bodyError = QStringLiteral("\"model\" must be a string such as \"claude/claude-sonnet-5\"");
        return out;
    }
    facts.endpoint = ask.endpoint;
    facts.model = modelValue.toString();
    facts.headers = &headers;
    facts.noAileHeaders = !anyAileHeader(headers);
    facts.key = ask.key;
    facts.client = detectClient(headers);
    if (const QString unreadable = readBodyFacts(ask.endpoint, body, ask.rawBody, &facts); !unreadable.isEmpty()) {
        out.bodyError = unreadable;
        return out;
    }
    // Session affinity (SPEC §10): what the request says of its conversation. A session draws its
    // ties the same way every time.
    out.evidence = readSessionEvidence(ask.endpoint, headers, body, facts.client, ask.key ? ask.key->id : QString(), facts.model);
    facts.drawSeed = out.evidence.drawSeed;
    if (recorded.promptTokens)
        facts.promptTokens = *recorded.promptTokens;
    if (recorded.drawSeed)
        facts.drawSeed = recorded.drawSeed;
    facts.body = &body;

    // The chain (docs/routing.md "Fallback chains"): "models" replaces "model"; the account's
    // default and fallbacks follow.
    QStringList requested;
    for (const QJsonValue &v : body.value(QLatin1String("models")).toArray()) {
        if (!v.isString() || v.toString().isEmpty()) {
            out.bodyError = QStringLiteral("\"models\" is a list of model names such as [\"claude/claude-sonnet-5\", \"openai/gpt-5.5\"]");
            return out;
        }
        requested << v.toString();
    }
    if (requested.isEmpty())
        requested << facts.model;
    if (ask.key)
        facts.routeTurn = m_turns.value(routeTurnKey(ask.key->id, facts.model));
    const bool listing = ask.purpose == PlanAsk::Purpose::Listing;
    out.plan = Router(m_routing).planChain(facts, requested, !listing);
    // The key's phase limits bind every attempt of its requests, as a route's do.
    out.plan.phaseLimits = out.plan.phaseLimits || facts.keyRouting().phaseLimits;
    if (listing)
        return out;

    const bool request = ask.purpose == PlanAsk::Purpose::Request;
    // A round-robin route starts one target further on the next request; asking never moves it.
    if (request && out.plan.ok() && !out.plan.route.isEmpty() && ask.key)
        ++m_turns[routeTurnKey(ask.key->id, out.plan.route)];
    // The conversation's pinned account goes first where the rules allow; a dry run only reads the pins.
    out.affinity.place(m_pins, m_routing.settings, out.plan, facts, body, out.evidence, m_clock, !request);
    if (!request)
        return out;

    // Under a cost cap a body without an output cap is sent the one it is priced at.
    out.sent = body;
    const bool capped = out.plan.costCapUsd
                        || std::any_of(out.plan.targets.begin(), out.plan.targets.end(), [](const Target &t) { return t.costCapUsd.has_value(); });
    if (out.plan.ok() && capped) {
        if (const QString capField = outputCapFieldOf(ask.endpoint, body); !capField.isEmpty() && !body.contains(capField)) {
            out.sent.insert(capField, Billing::DefaultMaxTokens);
            out.sentChanged = true;
        }
    }
    return out;
}

} // namespace Aile::Routing
