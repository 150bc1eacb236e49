#include "DryRun.h"

#include "core/Clock.h"
#include "billing/SpendBook.h"
#include "core/EngineSettings.h"
#include "state/KeyBook.h"
#include "http/HttpHeaders.h"
#include "keys/ApiKey.h"
#include "routing/RequestPlanner.h"
#include "store/Store.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QMap>

namespace Aile::Api {
namespace {

QJsonObject targetJson(const Routing::Target &t)
{
    QJsonArray removed, listed;
    QMap<QString, int> unavailable;
    for (const Routing::Refusal &r : t.refusals) {
        // The sharers a filter of yours removed are named; the others are counts, by reason.
        // A client-login sharer passed over for want of a login is named too: the fix is the request's.
        // So is a silent node (docs/team.md): its reason says how long it has been quiet.
        if (!r.refusedBy.isEmpty() || r.code == QLatin1String("capability") || r.code == QLatin1String("no_login")
            || r.code == QLatin1String("silent_node")) {
            QJsonObject o{{QStringLiteral("handle"), r.handle}, {QStringLiteral("name"), r.name}, {QStringLiteral("reason"), r.reason}};
            if (!r.refusedBy.isEmpty())
                o.insert(QStringLiteral("refusedBy"), r.refusedBy);
            removed.append(o);
        } else {
            ++unavailable[r.code.isEmpty() ? QStringLiteral("other") : r.code];
        }
    }
    int rank = 0;
    bool tiedWithFirst = true;
    for (const Routing::Candidate &c : t.candidates) {
        ++rank;
        if (rank > 1)
            tiedWithFirst = tiedWithFirst && c.tiedWithPrevious;
        if (rank > DryRunMaxListed)
            continue;
        QJsonObject o{{QStringLiteral("rank"), rank},
                      {QStringLiteral("handle"), c.handle},
                      {QStringLiteral("name"), c.name},
                      {QStringLiteral("tested"), c.tested},
                      {QStringLiteral("ttfbMs"), c.ttfbMs >= 0 ? QJsonValue(qRound64(c.ttfbMs)) : QJsonValue(QJsonValue::Null)},
                      {QStringLiteral("first"), rank == 1},
                      {QStringLiteral("tiedWithFirst"), rank > 1 && tiedWithFirst}};
        o.insert(QStringLiteral("quoteUsd"), c.quoteUsd ? QJsonValue(*c.quoteUsd) : QJsonValue(QJsonValue::Null));
        if (c.rates) {
            o.insert(QStringLiteral("inputPrice"), c.rates->input);
            o.insert(QStringLiteral("outputPrice"), c.rates->output);
        }
        listed.append(o);
    }
    QJsonObject counts;
    for (auto it = unavailable.begin(); it != unavailable.end(); ++it)
        counts.insert(it.key(), it.value());
    QJsonObject out{{QStringLiteral("target"), t.label()},
                    {QStringLiteral("removed"), removed},
                    {QStringLiteral("unavailable"), counts},
                    {QStringLiteral("sharers"), listed},
                    {QStringLiteral("more"), qMax(0, int(t.candidates.size()) - DryRunMaxListed)}};
    if (!t.calls.isEmpty())
        out.insert(QStringLiteral("calls"), t.calls);
    if (t.translated()) // "messages->chat": the request is rewritten for this target's wire
        out.insert(QStringLiteral("translated"), t.translation);
    if (!t.refusal.isEmpty())
        // A route's target refused before any sharer is asked; the route moves on to its next target.
        out.insert(QStringLiteral("refusal"), QJsonObject{{QStringLiteral("status"), t.refusalStatus},
                                                          {QStringLiteral("message"), t.refusal},
                                                          {QStringLiteral("code"), t.refusalCode}});
    return out;
}

} // namespace

bool DryRunApi::handle(const ManagementRequest &req, QObject *, const ManagementReply &reply)
{
    if (req.path != "/keys/route-dry-run" || req.method != "POST")
        return false;
    run(req, reply);
    return true;
}

void DryRunApi::run(const ManagementRequest &req, const ManagementReply &reply) const
{
    const DryRunServices &services = m_services;
    if (req.body.size() > DryRunMaxBody)
        return reply(413, managementError(QStringLiteral("the dry run takes at most 1 MiB of JSON; send the prompt and the output cap, "
                                                         "not the attachments")));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(req.body, &parseError);
    if (!doc.isObject())
        return reply(400, managementError(QStringLiteral("send {\"model\": \"openai/gpt-5.2\"} and optionally \"key\", \"endpoint\", \"body\" "
                                                         "and \"headers\" (%1)")
                                              .arg(req.body.isEmpty() ? QStringLiteral("the body is empty") : parseError.errorString())));
    const QJsonObject in = doc.object();
    const QString endpointPath = in.value(QLatin1String("endpoint")).toString(QStringLiteral("/v1/chat/completions"));
    const Wire::Endpoint endpoint = Wire::endpointForPath(endpointPath.toLatin1());
    if (endpoint == Wire::Endpoint::Unknown || endpoint == Wire::Endpoint::CountTokens)
        return reply(400, managementError(QStringLiteral("\"endpoint\" is a routed path such as /v1/chat/completions, /v1/messages, "
                                                         "/v1/responses or /v1/embeddings, not \"%1\"")
                                              .arg(endpointPath)));
    // Without a body it prices a one-line prompt.
    QJsonObject body = in.value(QLatin1String("body")).toObject();
    if (!in.value(QLatin1String("body")).isObject())
        body = Routing::RequestPlanner::oneLinePrompt({});
    const QString model = in.value(QLatin1String("model")).toString(body.value(QLatin1String("model")).toString());
    // A body's models chain, or the account's default model, names what a request without a model gets.
    const bool chained =
        !body.value(QLatin1String("models")).toArray().isEmpty() || !services.routing.value(QLatin1String("default_model")).toString().isEmpty();
    if (model.isEmpty() && !chained)
        return reply(400, managementError(QStringLiteral("say which model or route: {\"model\": \"openai/gpt-5.2\"}")));
    if (!model.isEmpty())
        body.insert(QStringLiteral("model"), model);
    const Keys::ApiKey *key = nullptr;
    if (in.contains(QLatin1String("key"))) {
        key = services.keys.key(in.value(QLatin1String("key")).toString());
        if (!key)
            return reply(404, managementError(QStringLiteral("no key %1; GET /keys lists them").arg(in.value(QLatin1String("key")).toString())));
    }
    Http::HttpHeaders headers;
    const QJsonObject given = in.value(QLatin1String("headers")).toObject();
    for (auto it = given.begin(); it != given.end(); ++it) {
        if (!it.value().isString() && !it.value().isDouble())
            return reply(400, managementError(QStringLiteral("header %1: give its value as a string").arg(it.key())));
        headers.add(it.key().toLatin1(), it.value().isString() ? it.value().toString().toUtf8() : QByteArray::number(it.value().toDouble()));
    }

    // The planner a request runs; nothing is dialled, held, charged or written, and a round-robin
    // turn or a session pin is read, never moved.
    const QByteArray raw = QJsonDocument(body).toJson(QJsonDocument::Compact);
    const Routing::RequestPlan planned = services.planner.plan({Routing::PlanAsk::Purpose::DryRun, endpoint, &body, raw, &headers, key});
    if (!planned.bodyError.isEmpty())
        return reply(400, managementError(planned.bodyError));
    const Routing::Plan &plan = planned.plan;
    const Routing::RequestFacts &facts = planned.facts;
    QJsonArray targets;
    for (const Routing::Target &t : plan.targets)
        targets.append(targetJson(t));
    QJsonArray chain;
    for (const Routing::ChainLink &link : plan.chain) {
        QJsonObject o{{QStringLiteral("model"), link.model}};
        if (link.status != 0) {
            QJsonObject refusal{{QStringLiteral("status"), link.status}, {QStringLiteral("message"), link.message}};
            for (auto it = link.extra.begin(); it != link.extra.end(); ++it)
                refusal.insert(it.key(), it.value());
            o.insert(QStringLiteral("refusal"), refusal);
        }
        chain.append(o);
    }
    const int maxAttempts = plan.maxDials > 0 ? qMin(plan.maxDials, services.settings.maxDials) : services.settings.maxDials;
    QJsonObject out{
        {QStringLiteral("model"), model.isEmpty() ? plan.chain.value(0).model : model},
        {QStringLiteral("chain"), chain},
        {QStringLiteral("maxAttempts"), maxAttempts},
        {QStringLiteral("sessionAffinity"), planned.affinity.verdictFor({})},
        {QStringLiteral("endpoint"), QString::fromLatin1(Wire::pathOf(endpoint))},
        {QStringLiteral("ordering"), plan.sampled ? QStringLiteral("sampled") : QStringLiteral("fixed")},
        {QStringLiteral("targets"), targets},
        {QStringLiteral("note"), QStringLiteral("nothing was sent, charged or written; a sampled order is drawn again for a real request")}};
    if (const std::optional<Keys::Route> route = key ? Keys::findRoute(key->routes, model) : std::nullopt) {
        const QString day = Store::utcDay(services.clock.nowMs());
        QJsonObject r{{QStringLiteral("name"), route->name},
                      {QStringLiteral("order"), Keys::Route::orderName(route->order)},
                      {QStringLiteral("prefer"),
                       route->preferSpeed ? (*route->preferSpeed ? QStringLiteral("speed") : QStringLiteral("price")) : QStringLiteral("follow")},
                      {QStringLiteral("spentTodayUsd"), services.spend.spent(day, key->id, route->name)}};
        if (route->ttftMs > 0)
            r.insert(QStringLiteral("ttftMs"), route->ttftMs);
        if (route->budgetUsdPerDay)
            r.insert(QStringLiteral("budgetUsdPerDay"), *route->budgetUsdPerDay);
        if (route->order == Keys::Route::Order::RoundRobin)
            r.insert(QStringLiteral("turn"), qint64(facts.routeTurn % quint64(qMax<qsizetype>(1, route->targets.size()))));
        out.insert(QStringLiteral("route"), r);
    }
    // Where a request would go first: the first target with a sharer left, and that sharer.
    for (const Routing::Target &t : plan.targets) {
        if (!plan.ok() || t.candidates.isEmpty())
            continue;
        out.insert(QStringLiteral("first"), QJsonObject{{QStringLiteral("target"), t.label()},
                                                        {QStringLiteral("sharer"), t.candidates.first().handle},
                                                        {QStringLiteral("name"), t.candidates.first().name}});
        break;
    }
    if (!plan.ok()) {
        QJsonObject refusal{{QStringLiteral("status"), plan.status}, {QStringLiteral("message"), plan.message}};
        for (auto it = plan.extra.begin(); it != plan.extra.end(); ++it)
            refusal.insert(it.key(), it.value());
        if (plan.retryAfterMs >= 0)
            refusal.insert(QStringLiteral("retryAfterSeconds"), (plan.retryAfterMs + 999) / 1000);
        out.insert(QStringLiteral("refusal"), refusal);
    }
    reply(200, out);
}

} // namespace Aile::Api
