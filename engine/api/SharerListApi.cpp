#include "SharerListApi.h"

#include "core/Clock.h"
#include "health/HealthBook.h"
#include "health/QuotaBook.h"
#include "http/HttpHeaders.h"
#include "routing/RequestPlanner.h"
#include "state/SharerBook.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

namespace Aile::Api {

bool SharerListApi::handle(const ManagementRequest &req, QObject *, const ManagementReply &reply)
{
    if (req.path != "/sharers" || req.method != "GET")
        return false;
    list(req, reply);
    return true;
}

void SharerListApi::list(const ManagementRequest &req, const ManagementReply &reply) const
{
    // The listing is the routing order: the same Router a request uses, with the same filters.
    QString model = req.queryValue(QStringLiteral("model"));
    QString provider = req.queryValue(QStringLiteral("provider"));
    const qsizetype slash = model.indexOf(QLatin1Char('/'));
    if (slash > 0 && m_sharers.catalog.provider(model.left(slash))) {
        provider = model.left(slash);
        model = model.mid(slash + 1);
    }
    Http::HttpHeaders headers;
    QJsonObject filters;
    for (const auto &[param, header] :
         {std::pair{"max-price", "x-aile-max-price"}, std::pair{"min-price", "x-aile-min-price"}, std::pair{"verified", "x-aile-verified"}}) {
        const QString v = req.queryValue(QLatin1String(param));
        if (!v.isEmpty()) {
            headers.add(header, v.toUtf8());
            filters.insert(QLatin1String(param), v);
        }
    }
    if (!provider.isEmpty())
        filters.insert(QStringLiteral("provider"), provider);
    if (!model.isEmpty())
        filters.insert(QStringLiteral("model"), model);
    const QString sort = req.queryValue(QStringLiteral("sort"));

    QJsonArray rows;
    QString footer;
    // What the GUI shows beside each sharer: its quota windows and its published health.
    const qint64 now = m_clock.nowMs();
    auto addSignals = [&](QJsonObject &o, const QString &handle) {
        o.insert(QStringLiteral("quota"), m_quota.toJson(handle, now));
        if (m_health)
            o.insert(QStringLiteral("stats"), m_health->window().stats(handle, now).toJson());
    };
    if (model.isEmpty()) {
        for (const Catalog::Sharer &s : m_sharers.sharers) {
            if (!provider.isEmpty() && s.provider != provider)
                continue;
            QJsonObject o = s.toJson();
            o.remove(QStringLiteral("credential"));
            o.insert(QStringLiteral("available"), (m_sharers.credentials.contains(s.handle) || s.usesClientLogin()) && !s.blocked
                                                      && !(m_health && m_health->coolingUntil(s.handle, QString()) > 0));
            addSignals(o, s.handle);
            rows.append(o);
        }
        footer = QStringLiteral("no model given: sharers by handle. Name a model to see the order requests route in.");
    } else {
        if (provider.isEmpty())
            return reply(400, managementError(QStringLiteral("name the model as <provider>/<model>, or give provider=")));
        const Catalog::ProviderInfo *p = m_sharers.catalog.provider(provider);
        if (!p)
            return reply(400, managementError(QStringLiteral("unknown provider %1").arg(provider)));
        // The planner's first target for a one-line request naming the model: the request order by construction.
        const Wire::Endpoint endpoint = p->speaks(QStringLiteral("chat"))       ? Wire::Endpoint::ChatCompletions
                                        : p->speaks(QStringLiteral("messages")) ? Wire::Endpoint::Messages
                                                                                : Wire::Endpoint::Responses;
        const QJsonObject body = Routing::RequestPlanner::oneLinePrompt(provider + QLatin1Char('/') + model);
        Routing::RequestPlan planned = m_planner.plan(
            {Routing::PlanAsk::Purpose::Listing, endpoint, &body, QJsonDocument(body).toJson(QJsonDocument::Compact), &headers, nullptr});
        const Routing::Plan &plan = planned.plan;
        if (!plan.ok() && plan.targets.isEmpty())
            return reply(plan.status, managementError(plan.message));
        int rank = 0;
        for (const Routing::Target &t : plan.targets.mid(0, 1)) {
            for (const Routing::Candidate &c : t.candidates) {
                QJsonObject o{{QStringLiteral("rank"), ++rank},
                              {QStringLiteral("handle"), c.handle},
                              {QStringLiteral("name"), c.name},
                              {QStringLiteral("provider"), c.provider},
                              {QStringLiteral("model"), c.upstreamModel},
                              {QStringLiteral("available"), true},
                              {QStringLiteral("tested"), c.tested},
                              {QStringLiteral("deadKey"), c.deadKey},
                              {QStringLiteral("tiedWithPrevious"), c.tiedWithPrevious},
                              {QStringLiteral("health"), c.health},
                              {QStringLiteral("priority"), c.priority},
                              {QStringLiteral("weight"), c.weight},
                              {QStringLiteral("degraded"), c.degraded},
                              {QStringLiteral("ttfbMs"), c.ttfbMs}};
                addSignals(o, c.handle);
                if (c.rates) {
                    o.insert(QStringLiteral("inputPrice"), c.rates->input);
                    o.insert(QStringLiteral("outputPrice"), c.rates->output);
                }
                if (c.quoteUsd)
                    o.insert(QStringLiteral("quoteUsd"), *c.quoteUsd);
                rows.append(o);
            }
            // Listings read the same gate: cooling, blocked or filtered sharers are shown as unavailable.
            for (const Routing::Refusal &r : t.refusals) {
                QJsonObject o{{QStringLiteral("handle"), r.handle}, {QStringLiteral("name"), r.name},     {QStringLiteral("provider"), t.provider},
                              {QStringLiteral("model"), t.model},   {QStringLiteral("available"), false}, {QStringLiteral("reason"), r.reason},
                              {QStringLiteral("skip"), r.code}};
                addSignals(o, r.handle);
                rows.append(o);
            }
        }
        footer = QStringLiteral("routing order: the top row is where the next request for %1/%2 goes%3")
                     .arg(provider, model, plan.sampled ? QStringLiteral(" (rows marked tied are drawn again for each request)") : QString());
    }
    // Where each row's credential lives (keychain, the opted-in file, the environment, none), so a
    // listing shows which secrets sit in the plain-text file.
    for (qsizetype i = 0; i < rows.size(); ++i) {
        QJsonObject o = rows.at(i).toObject();
        const Catalog::Sharer *s = m_sharers.sharer(o.value(QLatin1String("handle")).toString());
        o.insert(QStringLiteral("credentialStore"), credentialStoreOf(s ? s->credentialRef : QString()));
        if (s && s->needsKey())
            o.insert(QStringLiteral("needsKey"), true);
        rows.replace(i, o);
    }
    if (!sort.isEmpty()) {
        QList<QJsonObject> list;
        for (const QJsonValue &v : rows)
            list.append(v.toObject());
        const QString key = sort == QLatin1String("name")    ? QStringLiteral("name")
                            : sort == QLatin1String("speed") ? QStringLiteral("ttfbMs")
                                                             : QStringLiteral("quoteUsd");
        std::stable_sort(list.begin(), list.end(), [&](const QJsonObject &a, const QJsonObject &b) {
            const QJsonValue x = a.value(key), y = b.value(key);
            if (x.isString())
                return x.toString() < y.toString();
            const double dx = x.isDouble() && x.toDouble() >= 0 ? x.toDouble() : 1e300;
            const double dy = y.isDouble() && y.toDouble() >= 0 ? y.toDouble() : 1e300;
            return dx < dy;
        });
        rows = QJsonArray();
        for (const QJsonObject &o : list)
            rows.append(o);
        footer = QStringLiteral("sorted by %1: a reading order, not the routing order").arg(sort);
    }
    reply(200, QJsonObject{{QStringLiteral("object"), QStringLiteral("list")},
                           {QStringLiteral("order"), sort.isEmpty() ? QStringLiteral("routing") : QStringLiteral("reading")},
                           {QStringLiteral("filters"), filters},
                           {QStringLiteral("data"), rows},
                           {QStringLiteral("footer"), footer}});
}

} // namespace Aile::Api
