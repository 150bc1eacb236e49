#include "Router.h"

#include "core/EngineContext.h"
#include "keys/ApiKey.h"

#include <algorithm>

namespace Aile::Routing {

bool Router::splitModel(const QString &model, QString *provider, QString *id, QString *unknownPrefix) const
{
    const qsizetype slash = model.indexOf(QLatin1Char('/'));
    if (slash <= 0)
        return false;
    const QString prefix = model.left(slash);
    if (m_ctx.catalog.provider(prefix)) {
        *provider = prefix;
        *id = model.mid(slash + 1);
        return true;
    }
    *unknownPrefix = prefix;
    return false;
}

Plan Router::plan(const RequestFacts &facts) const
{
    Plan plan;
    auto refuse = [&plan](int status, const QString &message) {
        plan.status = status;
        plan.message = message;
        return plan;
    };
    if (facts.model.isEmpty())
        return refuse(400, QStringLiteral("the request names no model; send \"model\": \"<provider>/<model>\" (GET /v1/models lists them)"));

    const QString headerProvider = facts.headers ? QString::fromUtf8(facts.headers->value("x-aile-provider")).trimmed() : QString();
    const QString keyProvider = facts.key ? facts.key->routing.value(QLatin1String("provider")).toString() : QString();

    QString provider, id, unknownPrefix;
    const bool prefixed = splitModel(facts.model, &provider, &id, &unknownPrefix);
    if (!prefixed) {
        // A pinned aggregator takes namespaced ids as written.
        const QString pinned = !headerProvider.isEmpty() ? headerProvider : keyProvider;
        const Catalog::ProviderInfo *pinnedInfo = pinned.isEmpty() ? nullptr : m_ctx.catalog.provider(pinned);
        if (!unknownPrefix.isEmpty() && !(pinnedInfo && pinnedInfo->namespacedIds))
            return refuse(400, QStringLiteral("unknown provider \"%1\" in model \"%2\"; GET /v1/models lists the providers and models this key can use")
                                   .arg(unknownPrefix, facts.model));
        if (!pinned.isEmpty()) {
            provider = pinned;
        } else if (facts.client == ClientKind::ClaudeCode) {
            provider = QStringLiteral("claude");
        } else if (facts.client == ClientKind::Codex) {
            provider = QStringLiteral("codex");
        } else {
            return refuse(400, QStringLiteral("model \"%1\" names no provider; write it as <provider>/%1 (for example claude/%1), "
                                              "or send x-aile-provider; GET /v1/models lists them")
                                   .arg(facts.model));
        }
        id = facts.model;
    } else if (!keyProvider.isEmpty() && keyProvider != provider) {
        return refuse(400, QStringLiteral("this API key is pinned to provider %1, but the model names provider %2; "
                                          "send the bare model id, or use a key that is not pinned to %1")
                               .arg(keyProvider, provider));
    }

    const Catalog::ProviderInfo *info = m_ctx.catalog.provider(provider);
    if (!info)
        return refuse(400, QStringLiteral("unknown provider \"%1\"; GET /v1/models lists the providers this key can use").arg(provider));
    const QString wire = Wire::wireName(facts.endpoint);
    if (!info->speaks(wire))
        return refuse(404, QStringLiteral("provider %1 does not serve %2; post to an endpoint it speaks (%3)")
                               .arg(provider, QString::fromLatin1(Wire::pathOf(facts.endpoint)),
                                    QStringList(info->wires.begin(), info->wires.end()).join(QStringLiteral(", "))));
    plan.provider = provider;
    plan.model = id;

    const Catalog::ModelInfo *model = m_ctx.catalog.model(provider, id);
    for (const Catalog::Sharer &s : m_ctx.sharers) {
        if (s.provider != provider)
            continue;
        if (!s.offers(id) && !(model && std::any_of(model->aliases.begin(), model->aliases.end(),
                                                    [&](const QString &a) { return s.offers(a); })))
            continue;
        if (s.blocked) {
            plan.refusals.append({s.handle, s.name, QStringLiteral("blocked")});
            continue;
        }
        if (!m_ctx.credentials.contains(s.handle)) {
            plan.refusals.append({s.handle, s.name, QStringLiteral("no credential: %1").arg(m_ctx.credentialErrors.value(s.handle))});
            continue;
        }
        Candidate c;
        c.handle = s.handle;
        c.name = s.name;
        c.provider = provider;
        c.upstreamModel = id;
        c.rates = Billing::ratesFor(s, model, id, facts.promptTokens);
        if (c.rates)
            c.quoteUsd = Billing::costOf(*c.rates, facts.promptTokens, facts.maxOutputTokens);
        c.tested = s.tested.contains(id);
        plan.candidates.append(c);
    }
    if (plan.candidates.isEmpty())
        return refuse(503, QStringLiteral("no sharer of provider %1 is available for %2 right now; add one, or check the ones you have")
                               .arg(provider, id));
    orderCandidates(facts, plan);
    return plan;
}

void Router::orderCandidates(const RequestFacts &, Plan &plan) const
{
    // Price is primary; un-quotable sharers sort last, never first. Among equal prices a
    // sharer that passed a test of the model goes first.
    std::stable_sort(plan.candidates.begin(), plan.candidates.end(), [](const Candidate &a, const Candidate &b) {
        if (a.quoteUsd.has_value() != b.quoteUsd.has_value())
            return a.quoteUsd.has_value();
        if (a.quoteUsd && *a.quoteUsd != *b.quoteUsd)
            return *a.quoteUsd < *b.quoteUsd;
        return a.tested && !b.tested;
    });
}

} // namespace Aile::Routing
