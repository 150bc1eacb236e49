#include "RouteTemplate.h"

#include "state/KeyBook.h"
#include "state/SharerBook.h"
#include "billing/Quote.h"
#include "keys/KeyRouting.h"
#include "routing/ModelNaming.h"

#include <QtCore/QJsonArray>

#include <algorithm>

namespace Aile::Api {
namespace {

/// "claude-sonnet-5.5", "claude_sonnet_5_5" and "Claude-Sonnet-5-5" are one name.
QString sameName(const QString &id)
{
    QString s = Routing::spelling(id);
    s.replace(QLatin1Char('_'), QLatin1Char('-'));
    return s;
}

/// The name after an aggregator's namespace ("anthropic/claude-sonnet-5" → "claude-sonnet-5").
QString bare(const QString &id)
{
    return id.section(QLatin1Char('/'), -1);
}

} // namespace

bool RouteTemplateApi::handle(const ManagementRequest &req, QObject *, const ManagementReply &reply)
{
    if (req.path != "/keys/route-template" || req.method != "GET")
        return false;
    suggest(req, reply);
    return true;
}

void RouteTemplateApi::suggest(const ManagementRequest &req, const ManagementReply &reply) const
{
    const State::KeyBook &keys = m_keys;
    const State::SharerBook &book = m_sharers;
    const QString model = req.queryValue(QStringLiteral("model")).trimmed();
    if (model.isEmpty() || model.contains(QLatin1Char('/')))
        return reply(400, managementError(QStringLiteral("give a bare model name: GET /keys/route-template?model=claude-sonnet-5 "
                                                         "(optionally &key=<key id>)")));
    const Keys::ApiKey *key = nullptr;
    if (const QString k = req.queryValue(QStringLiteral("key")); !k.isEmpty()) {
        key = keys.key(k);
        if (!key)
            return reply(404, managementError(QStringLiteral("no key %1; GET /keys lists them").arg(k)));
    }
    const Keys::KeyRouting routing = key ? key->routingSettings() : Keys::KeyRouting();
    const QString want = sameName(model);

    struct Found
    {
        QString provider;
        QString id;
        std::optional<double> price; // the cheapest sharer's rates (comparison on input+output), else list
    };
    QList<Found> found;
    QJsonArray ambiguous, skipped;
    for (const Catalog::ProviderInfo &p : book.catalog.providers()) {
        if (p.selfHosted)
            continue; // self-hosted capacity is never added
        QString exact;
        for (const Catalog::ModelInfo *m : book.catalog.modelsOf(p.id)) {
            QStringList names{m->id};
            names += m->aliases;
            for (const QString &n : names) {
                const QString s = sameName(bare(n));
                if (s == want && exact.isEmpty())
                    exact = m->id;
                else if (s.startsWith(want + QLatin1Char('-')))
                    ambiguous.append(QJsonObject{
                        {QStringLiteral("model"), QString(p.id + QLatin1Char('/') + m->id)},
                        {QStringLiteral("reason"), QStringLiteral("only starts with %1 (a dated or variant name); never added").arg(model)}});
            }
        }
        if (exact.isEmpty())
            continue;
        const QString label = p.id + QLatin1Char('/') + exact;
        auto skip = [&](const QString &why) { skipped.append(QJsonObject{{QStringLiteral("model"), label}, {QStringLiteral("reason"), why}}); };
        if (!routing.provider.isEmpty() && routing.provider != p.id) {
            skip(QStringLiteral("this key is pinned to provider %1").arg(routing.provider));
            continue;
        }
        if (routing.excludeProviders.contains(p.id)) {
            skip(QStringLiteral("this key excludes provider %1").arg(p.id));
            continue;
        }
        if (routing.denyDataCollection && p.dataCollection != Catalog::DataPolicy::Deny) {
            skip(QStringLiteral("this key takes only providers that do not train on prompts, and %1's policy is %2")
                     .arg(p.id, Catalog::dataPolicyName(p.dataCollection)));
            continue;
        }
        // The key's sharer lists: a provider none of whose sharers the key may use is left out.
        std::optional<double> price;
        bool anySharer = false, allowed = false;
        const Catalog::ModelInfo *info = book.catalog.model(p.id, exact);
        for (const Catalog::Sharer &s : book.sharers) {
            if (s.provider != p.id || s.blocked || !(s.offers(exact) || (info && s.offers(info->id))))
                continue;
            anySharer = true;
            if (routing.neverSharers.contains(s.handle) || (!routing.onlySharers.isEmpty() && !routing.onlySharers.contains(s.handle))
                || (!routing.sharer.isEmpty() && routing.sharer != s.handle))
                continue;
            allowed = true;
            if (const auto rates = Billing::ratesFor(s, info, exact, 0))
                price = price ? qMin(*price, rates->input + rates->output) : rates->input + rates->output;
        }
        if (anySharer && !allowed) {
            skip(QStringLiteral("this key's sharer lists leave no sharer of %1").arg(p.id));
            continue;
        }
        if (!price && info && info->priced())
            price = *info->input + *info->output;
        found.append({p.id, exact, price});
    }
    // Cheapest first; un-priced last.
    std::stable_sort(found.begin(), found.end(), [](const Found &a, const Found &b) {
        if (a.price.has_value() != b.price.has_value())
            return a.price.has_value();
        return a.price && *a.price < *b.price;
    });
    QJsonArray targets;
    for (const Found &f : found) {
        if (targets.size() == RouteTemplateMaxTargets) {
            skipped.append(QJsonObject{{QStringLiteral("model"), QString(f.provider + QLatin1Char('/') + f.id)},
                                       {QStringLiteral("reason"), QStringLiteral("a route takes at most %1 targets").arg(RouteTemplateMaxTargets)}});
            continue;
        }
        targets.append(QJsonObject{{QStringLiteral("model"), QString(f.provider + QLatin1Char('/') + f.id)}});
    }
    reply(200, QJsonObject{{QStringLiteral("model"), model},
                           {QStringLiteral("targets"), targets},
                           {QStringLiteral("ambiguous"), ambiguous},
                           {QStringLiteral("skipped"), skipped},
                           {QStringLiteral("note"),
                            QStringLiteral("nothing was saved; the key's price ceiling and floor bind per sharer when a request is served")}});
}

} // namespace Aile::Api
