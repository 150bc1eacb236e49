// A what-if over recorded traffic (docs/replay.md): the one planner run over a key's recorded
// requests, edits included, at each request's own moment, with today's prices; nothing is sent,
// charged or written.
#include "Replayer.h"

#include "ReplayHistory.h"
#include "core/Clock.h"
#include "http/HttpHeaders.h"
#include "keys/KeyRouting.h"
#include "keys/Routes.h"
#include "routing/RequestPlanner.h"
#include "store/Store.h"

#include <QtCore/QJsonArray>

#include <algorithm>

namespace Aile::Replay {
namespace {

constexpr qint64 DayMs = 24 * 60 * 60 * 1000;
constexpr quint32 ReplaySeed = 0x5eed; // requests without a session draw their ties from this, the same on every replay

bool isBudget(const QString &code)
{
    return code == QLatin1String("budget_spent") || code == QLatin1String("route_budget_spent") || code == QLatin1String("budget_exceeded");
}

QString codeOf(const Routing::Plan &plan)
{
    if (plan.extra.contains(QLatin1String("code")))
        return plan.extra.value(QLatin1String("code")).toString();
    if (plan.extra.value(QLatin1String("refusedBy")).toString() == QLatin1String("x-aile-max-cost"))
        return QStringLiteral("cost_cap");
    return plan.status == 404 ? QStringLiteral("not_served") : QStringLiteral("no_sharer");
}

// The smallest body the planner reads as the recorded request: its model, output cap and stream
// flag; the prompt's size comes from the recorded token count instead of the body.
QJsonObject bodyFor(Wire::Endpoint endpoint, const QString &model, qint64 maxOutput, bool stream)
{
    QJsonObject body{{QStringLiteral("model"), model}};
    if (endpoint == Wire::Endpoint::Responses || endpoint == Wire::Endpoint::Embeddings)
        body.insert(QStringLiteral("input"), QStringLiteral("."));
    else
        body.insert(QStringLiteral("messages"),
                    QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), QStringLiteral(".")}}});
    if (maxOutput > 0 && !Wire::outputCapField(endpoint).isEmpty())
        body.insert(Wire::outputCapField(endpoint), maxOutput);
    if (stream)
        body.insert(QStringLiteral("stream"), true);
    return body;
}

Outcome actualOf(const Store::TraceRecord &t)
{
    Outcome o;
    o.status = t.status;
    o.target = t.modelServed;
    o.sharer = t.sharer;
    o.costUsd = t.costUsd;
    return o;
}

} // namespace

std::optional<Replayer> Replayer::prepare(const LiveState &live, const ReplayAsk &ask, int *status, QString *error)
{
    auto fail = [&](int s, const QString &why) {
        *status = s;
        *error = why;
        return std::nullopt;
    };
    const Keys::ApiKey *key = live.keys.key(ask.key);
    if (ask.key.isEmpty())
        return fail(400, QStringLiteral("say which key's requests to replay: {\"key\": \"k_…\"} (GET /keys lists them)"));
    if (!key)
        return fail(404, QStringLiteral("no key %1; GET /keys lists them").arg(ask.key));
    if (ask.days < 1 || ask.days > MaxReplayDays)
        return fail(400, QStringLiteral("\"days\" is a whole number of days from 1 to %1, not %2").arg(MaxReplayDays).arg(ask.days));
    if (!ask.scope.isEmpty() && ask.scope != QLatin1String("route") && ask.scope != QLatin1String("all"))
        return fail(400, QStringLiteral("\"scope\" is \"route\" (the requests that asked for the route) or \"all\" (every request of the key "
                                        "through the route), not \"%1\"")
                             .arg(ask.scope));

    Replayer r;
    r.m_key = *key;
    r.m_days = ask.days;
    r.m_scope = ask.scope;
    if (ask.route) {
        // An edited route: checked as saving the key's routes would check it, then put in place of its namesake.
        QJsonArray routes;
        bool replaced = false;
        const QString name = ask.route->value(QLatin1String("name")).toString();
        for (const QJsonValue &v : r.m_key.routes) {
            const bool same = v.toObject().value(QLatin1String("name")).toString() == name;
            routes.append(same ? QJsonValue(*ask.route) : v);
            replaced = replaced || same;
        }
        if (!replaced)
            routes.append(*ask.route);
        QJsonArray normalized;
        if (const QString bad = Keys::validateRoutes(routes, &live.sharers.catalog, &live.sharers.sharers, &normalized); !bad.isEmpty())
            return fail(400, bad);
        r.m_key.routes = normalized;
        r.m_route = name;
        r.m_edits << QStringLiteral("route %1").arg(name);
    } else if (!ask.routeName.isEmpty()) {
        if (!Keys::findRoute(r.m_key.routes, ask.routeName))
            return fail(404, QStringLiteral("key %1 has no route %2; GET /keys/%3 lists its routes, or send the route's body as \"route\"")
                                 .arg(key->name, ask.routeName, key->id));
        r.m_route = ask.routeName;
    }
    if (ask.routing || ask.route) {
        QJsonObject normalized;
        const QJsonObject routing = ask.routing.value_or(r.m_key.routing);
        if (const QString bad = Keys::validateRouting(routing, r.m_key.routes, live.sharers.catalog, &normalized); !bad.isEmpty())
            return fail(400, bad);
        r.m_key.routing = normalized;
        if (ask.routing)
            r.m_edits.prepend(QStringLiteral("routing"));
    }

    // A detached copy of the engine's state: the planner reads it as it reads the live one, but
    // nothing it does can reach the store, the upstream, the health book, the pins or a turn.
    r.m_clock = std::make_shared<ManualClock>(live.clock.nowMs());
    r.m_untilMs = live.clock.nowMs();
    // Whole UTC days, today included, so a daily budget starts each day from nothing as it did.
    r.m_sinceMs = (r.m_untilMs / DayMs - (ask.days - 1)) * DayMs;
    // No health book (recorded health stands in: HealthTimeline), no pins (a replay keeps no
    // conversations), no quota windows, failing sharers, spend or turns of the live engine.
    r.m_ctx =
        std::make_shared<Detached>(Detached{live.sharers, live.keys, live.settings, live.routing, {}, {}, {}, {}, QRandomGenerator(ReplaySeed)});
    Detached &c = *r.m_ctx;
    for (auto it = c.sharers.credentials.begin(); it != c.sharers.credentials.end(); ++it)
        it.value().clear(); // the planner asks only whether a sharer has one; no secret leaves the engine thread
    for (Keys::ApiKey &k : c.keys.keys) {
        if (k.id == r.m_key.id)
            k = r.m_key;
    }
    return r;
}

bool Replayer::includes(const Store::TraceRecord &t) const
{
    if (m_scope == QLatin1String("route"))
        return t.modelAsked == m_route;
    return true;
}

Outcome Replayer::project(const Store::TraceRecord &t, const HealthTimeline &health, ReplayReport &report)
{
    static const Http::HttpHeaders noHeaders;
    const qint64 dayNumber = t.startedMs / DayMs;
    QString &day = m_dayNames[dayNumber];
    if (day.isEmpty())
        day = Store::utcDay(t.startedMs);
    m_clock->advance(qMax<qint64>(0, t.startedMs - m_clock->nowMs()));

    const Wire::Endpoint endpoint = Wire::endpointForPath(t.endpoint.toLatin1());
    const QString model = m_route.isEmpty() ? t.modelAsked : m_route;
    const BodyKey bodyKey{int(endpoint), t.maxOutputTokens, t.stream, model};
    auto bodyAt = m_bodies.constFind(bodyKey);
    if (bodyAt == m_bodies.constEnd())
        bodyAt = m_bodies.insert(bodyKey, bodyFor(endpoint, model, t.maxOutputTokens, t.stream));
    const QJsonObject &body = *bodyAt;
    const Keys::ApiKey *key = m_ctx->keys.key(m_key.id);
    Routing::RecordedFacts recorded;
    recorded.promptTokens = qMax<qint64>(0, t.inputTokens);
    bool seeded = false;
    if (const quint64 seed = t.session.toULongLong(&seeded, 16); seeded)
        recorded.drawSeed = seed;
    const Routing::RequestPlan planned =
        Routing::RequestPlanner(Routing::RoutingServices::of(m_ctx->sharers, *m_clock, m_ctx->settings, m_ctx->routing, nullptr, m_ctx->quota,
                                                             m_ctx->failing, m_ctx->spend, m_ctx->draw, nullptr),
                                m_ctx->routeTurns, nullptr, m_clock.get())
            .plan({Routing::PlanAsk::Purpose::DryRun, endpoint, &body, {}, &noHeaders, key}, recorded);
    const Routing::Plan &plan = planned.plan;

    Outcome out;
    auto refuse = [&](int status, const QString &code) {
        out.status = status;
        out.code = code;
        return out;
    };
    if (!planned.bodyError.isEmpty())
        return refuse(400, QStringLiteral("body"));
    bool budgetHit = false, capHit = false;
    for (const Routing::Target &target : plan.targets) {
        budgetHit = budgetHit || isBudget(target.refusalCode);
        capHit = capHit || target.refusalCode == QLatin1String("cost_cap");
    }
    if (!plan.ok()) {
        const QString code = codeOf(plan);
        if (isBudget(code) || budgetHit)
            report.budget.add(day);
        else if (code == QLatin1String("cost_cap") || capHit)
            report.costCapRefused.add(day);
        else
            report.noSharer.add(day);
        return refuse(plan.status, code);
    }
    if (budgetHit)
        report.budget.add(day); // a target spent: the route moved on
    if (capHit)
        report.costCapRefused.add(day);
    for (const Routing::Target &target : plan.targets) {
        if (target.refusalStatus != 0)
            continue;
        for (const Routing::Candidate &c : target.candidates) {
            if (!health.downAt(c.handle, t.startedMs).isEmpty())
                continue;
            out.status = 200;
            out.target = target.label();
            out.sharer = c.handle;
            const qint64 in = qMax<qint64>(0, t.inputTokens), outTokens = qMax<qint64>(0, t.outputTokens);
            out.costUsd = c.rates ? Billing::costOf(*c.rates, in, outTokens) : 0;
            const std::optional<double> cap = target.costCapUsd ? target.costCapUsd : plan.costCapUsd;
            if (cap && out.costUsd > *cap + 1e-12) {
                out.costUsd = *cap; // the sharer absorbs the rest (docs/keys.md, the cost cap)
                report.costCapCapped.add(day);
            }
            // The day's spend moves as a charge would move it, so a budget binds the requests after it.
            Store::LedgerEntry e;
            e.atMs = t.startedMs;
            e.day = day;
            e.keyId = m_key.id;
            e.route = target.route;
            e.target = target.calls;
            e.sharer = c.handle;
            e.costUsd = out.costUsd;
            m_ctx->spend.add(e);
            if (!plan.route.isEmpty())
                ++m_ctx->routeTurns[Routing::routeTurnKey(m_key.id, model)];
            return out;
        }
    }
    report.noSharer.add(day);
    return refuse(503, QStringLiteral("no_sharer"));
}

ReplayReport Replayer::run(const QList<Store::TraceRecord> &history)
{
    ReplayReport report;
    report.keyId = m_key.id;
    report.keyName = m_key.name;
    report.days = m_days;
    report.sinceMs = m_sinceMs;
    report.untilMs = m_untilMs;
    report.route = m_route;
    report.edits = m_edits;
    if (m_route.isEmpty()) {
        m_scope = QStringLiteral("asked");
    } else if (m_scope.isEmpty()) {
        // A route with requests of its own replays them; a new one takes every request of the key.
        const bool own = std::any_of(history.begin(), history.end(), [this](const Store::TraceRecord &t) { return t.modelAsked == m_route; });
        m_scope = own ? QStringLiteral("route") : QStringLiteral("all");
    }
    report.scope = m_scope;
    report.recorded = int(history.size());
    const HealthTimeline health(history, HealthHoldMs);
    report.healthSpans = health.spans();
    m_clock = std::make_shared<ManualClock>(m_sinceMs);

    for (const Store::TraceRecord &t : history) {
        if (!includes(t))
            continue;
        const Wire::Endpoint endpoint = Wire::endpointForPath(t.endpoint.toLatin1());
        // Refused before routing (no model, an unreadable body): there is nothing to plan.
        if (endpoint == Wire::Endpoint::Unknown || endpoint == Wire::Endpoint::CountTokens || (t.modelAsked.isEmpty() && t.attempts == 0)) {
            ++report.skipped;
            continue;
        }
        ++report.replayed;
        if (t.inputTokens < 0 || t.outputTokens < 0)
            ++report.withoutTokens;
        if (t.session.isEmpty())
            ++report.withoutSession;
        const Outcome actual = actualOf(t);
        const Outcome projected = project(t, health, report);
        ReplayDay &day = report.perDay[m_dayNames.value(t.startedMs / DayMs)];
        ++day.requests;
        day.actualUsd += actual.costUsd;
        day.projectedUsd += projected.costUsd;
        report.actualUsd += actual.costUsd;
        report.projectedUsd += projected.costUsd;
        if (actual.served()) {
            ++day.actualServed;
            ++report.actualServed;
            ++report.perTarget[actual.target].first;
            ++report.perSharer[actual.sharer].first;
        }
        if (projected.served()) {
            ++day.projectedServed;
            ++report.projectedServed;
            ++report.perTarget[projected.target].second;
            ++report.perSharer[projected.sharer].second;
        }
        const bool same = actual.served() == projected.served() && actual.target == projected.target && actual.sharer == projected.sharer
                          && qAbs(actual.costUsd - projected.costUsd) < 1e-9;
        if (same)
            continue;
        ++report.changedCount;
        ChangedRequest change{t.id, t.startedMs, t.modelAsked, actual, projected};
        // Keep the five that change most as they come: a replay of 100,000 requests holds five.
        if (report.changed.size() < ReplayTopChanges || change.moreThan(report.changed.last())) {
            const auto at = std::find_if(report.changed.begin(), report.changed.end(), [&](const ChangedRequest &c) { return change.moreThan(c); });
            report.changed.insert(at, change);
            if (report.changed.size() > ReplayTopChanges)
                report.changed.removeLast();
        }
    }
    return report;
}

} // namespace Aile::Replay
