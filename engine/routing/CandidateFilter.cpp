// Candidate filtering: the sharers of one provider for one model, each either a candidate with its
// quote or a refusal naming why it was left out (docs/routing.md "Removal reasons"), and the answer
// a request gets when none is left.
#include "CandidateFilter.h"

#include "ClientLogin.h"
#include "Levers.h"
#include "ModelNaming.h"
#include "catalog/Catalog.h"
#include "catalog/Sharer.h"
#include "core/Clock.h"
#include "core/EngineSettings.h"
#include "health/HealthBook.h"
#include "health/NodeBook.h"
#include "health/QuotaBook.h"
#include "http/HttpHeaders.h"

#include <QtCore/QDateTime>

#include <algorithm>
#include <cmath>
#include <utility>

namespace Aile::Routing {

namespace {

// A sharer this request would never draw, whatever its health: it cannot end a wait.
bool neverDrawn(const Refusal &r)
{
    return !r.refusedBy.isEmpty() || r.code == QLatin1String("weight_0") || r.code == QLatin1String("disabled") || r.code == QLatin1String("blocked")
           || r.code == QLatin1String("no_credential");
}

} // namespace

void CandidateFilter::failEmptyTarget(Plan &plan, const Target &t, const Limits &limits) const
{
    if (auto levers = Levers(m_s).leverEmptyPlan(t, limits)) {
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
        plan.retryAfterMs = earliest - m_s.clock.nowMs();
        const bool quota =
            std::any_of(t.refusals.begin(), t.refusals.end(), [](const Refusal &r) { return r.code == QLatin1String("quota_exhausted"); });
        const bool cooling = std::any_of(t.refusals.begin(), t.refusals.end(), [](const Refusal &r) { return r.code == QLatin1String("cooldown"); });
        const QString why = quota && cooling ? QStringLiteral("is cooling down after failures or has used up its subscription quota")
                            : quota          ? QStringLiteral("has used up its subscription quota")
                                             : QStringLiteral("is cooling down after failures");
        plan.message =
            QStringLiteral("every sharer of %1 for %2 %3; retry in %4 s").arg(t.provider, t.model, why).arg((plan.retryAfterMs + 999) / 1000);
        return;
    }
    const bool allFiltered =
        !t.refusals.isEmpty() && std::all_of(t.refusals.begin(), t.refusals.end(), [](const Refusal &r) { return !r.refusedBy.isEmpty(); });
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
    plan.message =
        t.refusals.isEmpty()
            ? QStringLiteral("provider %1 has no sharer for %2; add one in Aile's Sharers view").arg(t.provider, t.model)
            : QStringLiteral("no sharer of provider %1 can serve %2 right now (%3 unavailable)").arg(t.provider, t.model).arg(t.refusals.size());
    // A silent node among them is named: the fix (its server) is not in the request.
    const auto silent = std::find_if(t.refusals.begin(), t.refusals.end(), [](const Refusal &r) { return r.code == QLatin1String("silent_node"); });
    if (silent != t.refusals.end())
        plan.message += QStringLiteral("; %1 (%2) is a %3").arg(silent->name, silent->handle, silent->reason);
}

Target CandidateFilter::filteredTarget(const QString &provider, const QString &model, const RequestFacts &facts, const Limits &limits) const
{
    Target t;
    t.provider = provider;
    t.model = model;
    const Catalog::ModelInfo *info = m_s.catalog.model(provider, model);
    const qint64 now = m_s.clock.nowMs();
    // What the request uses that the model lacks (docs/rules/tiers-quota-health.md): the same for every sharer of it.
    const QString lacking = info ? facts.needs.missingIn(*info, facts.promptTokens) : QString();
    QStringList ids{model};
    if (info)
        ids << info->id << info->aliases;
    for (const Catalog::Sharer &s : m_s.sharers) {
        // A node-backed sharer serves what its node lists for this provider (docs/team.md).
        const Health::NodeModel *listed = nodeOffer(s, provider, ids);
        if (!listed) {
            if (s.provider != provider || s.provider == Health::nodeProvider())
                continue;
            const bool offers = std::any_of(ids.begin(), ids.end(), [&](const QString &id) { return s.offers(id); });
            if (!offers)
                continue;
        }
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
        const QString leverWhy = Levers(m_s).leverRefusal(facts, limits, s, &leverBy);
        if (!leverWhy.isEmpty()) {
            refuse(leverWhy, QStringLiteral("filter"), 0, leverBy);
            continue;
        }
        if (listed) {
            if (const QString why = m_s.nodes->silence(s.handle, now); !why.isEmpty()) {
                refuse(why, QStringLiteral("silent_node"));
                continue;
            }
            if (const QString wire = Wire::wireName(facts.endpoint); !listed->wires.isEmpty() && !listed->wires.contains(wire)) {
                refuse(QStringLiteral("its node does not serve the %1 wire for %2/%3").arg(wire, provider, listed->model), QStringLiteral("wire"));
                continue;
            }
        }
        if (s.usesClientLogin()) {
            // The tool's own login, carried by the request (docs/subscriptions.md).
            static const Http::HttpHeaders none;
            if (const QString why = clientLoginRefusal(s, facts.headers ? *facts.headers : none); !why.isEmpty()) {
                refuse(why, QStringLiteral("no_login"));
                continue;
            }
        } else if (!m_s.credentials.contains(s.handle)) {
            refuse(QStringLiteral("no credential: %1").arg(m_s.credentialErrors.value(s.handle)), QStringLiteral("no_credential"));
            continue;
        }
        // router.models.<model>.providers.<handle> (docs/rules/tiers-quota-health.md): enabled, priority, weight.
        const QJsonObject over = modelOverride(model, info, s.handle);
        if (!over.value(QLatin1String("enabled")).toBool(true)) {
            refuse(QStringLiteral("disabled for %1 (routing.models)").arg(model), QStringLiteral("disabled"));
            continue;
        }
        const int weight =
            over.contains(QLatin1String("weight")) ? qBound(0, int(std::lround(over.value(QLatin1String("weight")).toDouble())), 10000) : s.weight;
        // Weight 0 leaves a sharer out of normal routing; naming it (x-aile-sharer, the key's
        // sharer lists) still reaches it (docs/rules/tiers-quota-health.md).
        if (weight == 0 && !limits.onlySharers.contains(s.handle)) {
            refuse(QStringLiteral("weight 0"), QStringLiteral("weight_0"));
            continue;
        }
        // Health is kept per model as it went upstream ("<provider>/<model>" through a node).
        const QString healthModel = listed ? provider + QLatin1Char('/') + listed->model : model;
        // The sharer's standing, looked up once for the signals read below.
        const Health::SharerHealth *standing = m_s.health ? &m_s.health->of(s.handle) : nullptr;
        const qint64 until = standing ? m_s.health->coolingUntil(*standing, healthModel) : 0;
        if (until > 0) {
            const bool modelOff = standing->modelOffUntil.value(healthModel, 0) >= until;
            refuse(modelOff ? QStringLiteral("no quota for this model on this account")
                            : QStringLiteral("cooling down (%1)").arg(standing->cooldownReason),
                   QStringLiteral("cooldown"), until);
            continue;
        }
        // An exhausted subscription window in a fresh snapshot, with a known reset (docs/rules/tiers-quota-health.md).
        if (const qint64 reset = m_s.quota.exhaustedUntil(s.handle, model, now); reset > 0) {
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
        c.tested = s.tested.contains(model) || (info && s.tested.contains(info->id));
        if (listed) {
            // Through a node: the model as the node names it, at the node's own quote; a node
            // lists only models its sharers passed a test of.
            c.node = true;
            c.upstreamModel = provider + QLatin1Char('/') + listed->model;
            c.rates = nodeRates(*listed);
            c.tested = true;
        }
        if (c.rates)
            c.quoteUsd = Billing::costOf(*c.rates, facts.promptTokens, facts.maxOutputTokens);
        c.priority = over.contains(QLatin1String("priority")) ? qBound(0, over.value(QLatin1String("priority")).toInt(), 10000) : s.priority;
        c.weight = weight;
        if (s.isSubscription())
            c.allowanceResetMs = m_s.quota.allowanceResetMs(s.handle, model, now);
        if (limits.verifiedOnly && !c.tested) {
            refuse(QStringLiteral("has not passed a test of %1 (%2)").arg(model, limits.verifiedSource), QStringLiteral("filter"), 0,
                   limits.verifiedSource);
            continue;
        }
        if (!limits.maxes.isEmpty() || !limits.mins.isEmpty()) {
            QString by;
            const QString why =
                c.rates ? priceRefusal(limits, *c.rates, info, facts.promptTokens, &by) : QStringLiteral("un-quotable under a price limit");
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
                               c.quoteUsd ? QStringLiteral("quotes $%1, above the cost cap $%2 (%3)")
                                                .arg(*c.quoteUsd, 0, 'f', 6)
                                                .arg(*limits.costCap)
                                                .arg(limits.costCapSource)
                                          : QStringLiteral("cannot be quoted, so the cost cap (%1) cannot bound it").arg(limits.costCapSource),
                               0, QStringLiteral("x-aile-max-cost"), QStringLiteral("cost_cap"), c.quoteUsd.value_or(-1)});
            continue;
        }
        if (standing) {
            const Health::SharerHealth &h = *standing;
            c.deadKey = h.deadKey;
            c.health = Health::HealthBook::weight(h);
            c.ttfbMs = h.ttfbSamples > 0 ? h.ttfbMs : -1;
            c.ttfbSamples = h.ttfbSamples;
            c.throughput = h.throughputSamples > 0 ? h.throughput : -1;
            c.throughputSamples = h.throughputSamples;
            const Health::HealthWindow::Stats w = m_s.health->window().stats(s.handle, now);
            c.degraded =
                m_s.health->halfOpen(h) || (w.attempts >= m_s.settings.degradedMinAttempts && w.successRate < m_s.settings.degradedSuccessRate);
        }
        t.candidates.append(std::move(c));
    }
    return t;
}

const Health::NodeModel *CandidateFilter::nodeOffer(const Catalog::Sharer &s, const QString &provider, const QStringList &ids) const
{
    if (s.provider != Health::nodeProvider() || provider == Health::nodeProvider() || !m_s.nodes)
        return nullptr;
    const Health::NodeModel *listed = m_s.nodes->offer(s.handle, provider, ids);
    // The sharer's own model list, when it has one, narrows what its node lists.
    if (!listed || (!s.models.isEmpty() && !s.offers(provider + QLatin1Char('/') + listed->model)))
        return nullptr;
    return listed;
}

std::optional<Billing::Rates> CandidateFilter::nodeRates(const Health::NodeModel &listed)
{
    if (!listed.input)
        return std::nullopt;
    Billing::Rates r;
    r.input = *listed.input;
    r.output = listed.output.value_or(0);
    r.cacheRead = r.input;
    r.cacheWrite = r.input;
    return r;
}

QJsonObject CandidateFilter::modelOverride(const QString &model, const Catalog::ModelInfo *info, const QString &handle) const
{
    const QJsonObject models = m_s.config.value(QLatin1String("models")).toObject();
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

} // namespace Aile::Routing
