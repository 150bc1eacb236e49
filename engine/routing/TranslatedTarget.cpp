#include "TranslatedTarget.h"

#include "catalog/Catalog.h"
#include "translate/Translation.h"

#include <QtCore/QJsonDocument>

namespace Aile::Routing {

Wire::Endpoint translationWire(const RequestFacts &facts, const Catalog::ProviderInfo &provider)
{
    const bool allowed = facts.keyRouting().translate || (facts.routeTarget && facts.routeTarget->translate);
    if (!allowed)
        return Wire::Endpoint::Unknown;
    // Chat completions before responses: the wire most OpenAI-compatible providers speak.
    for (const Wire::Endpoint to : {Wire::Endpoint::Messages, Wire::Endpoint::ChatCompletions, Wire::Endpoint::Responses})
        if (provider.speaks(Wire::wireName(to)) && Translate::canTranslate(facts.endpoint, to))
            return to;
    return Wire::Endpoint::Unknown;
}

std::optional<Plan> checkTranslation(const RequestFacts &facts, Wire::Endpoint to, const QString &target, RequestFacts *estimated)
{
    *estimated = facts;
    if (!facts.body)
        return std::nullopt; // the listing prices a one-line prompt: nothing to refuse
    const Translate::RequestTranslation t =
        Translate::translateRequest(facts.endpoint, to, QJsonDocument(*facts.body).toJson(QJsonDocument::Compact));
    if (!t.ok())
        return Plan::refusal(400, t.refusal + QStringLiteral(" (target %1)").arg(target),
                             {{QStringLiteral("param"), t.refusedField}, {QStringLiteral("code"), QStringLiteral("untranslatable")}});
    // The translated body is what the provider counts: its size prices the quote, its output cap the answer.
    RequestFacts translated;
    readBodyFacts(to, QJsonDocument::fromJson(t.body).object(), t.body, &translated);
    estimated->promptTokens = translated.promptTokens;
    estimated->maxOutputTokens = translated.maxOutputTokens;
    return std::nullopt;
}

} // namespace Aile::Routing
