#include "SentBody.h"

#include "TranslatedBody.h"
#include "UpstreamRequestBuilder.h"

#include "catalog/Catalog.h"
#include "routing/Plan.h"
#include "translate/ForeignReasoning.h"

namespace Aile::Dispatch {

std::optional<SentBody::Refusal> SentBody::build(Wire::Endpoint endpoint, const QJsonObject &clientBody, const QByteArray &clientBytes,
                                                 const Routing::Target &target, const Routing::Candidate &candidate, const QString &session)
{
    // A node-backed sharer is sent "<provider>/<model>", which its node routes (docs/team.md).
    const QString sentModel = candidate.node ? candidate.upstreamModel : target.model;
    const QString builtFor = target.label() + QLatin1Char(' ') + sentModel;
    if (m_builtFor == builtFor)
        return std::nullopt;
    m_builtFor = builtFor;
    dropped.clear();
    if (!target.translated()) {
        // Reasoning a translation wrote, or another provider signed, never reaches a provider that verifies it.
        QJsonObject stripped = clientBody;
        dropped = Translate::stripUnverifiableReasoning(endpoint, stripped, candidate.node ? Catalog::nodeProvider() : target.provider);
        const UpstreamBody body =
            dropped.isEmpty() ? rewriteBody(endpoint, clientBody, sentModel, clientBytes) : rewriteBody(endpoint, stripped, sentModel);
        bytes = body.bytes;
        injectedUsage = body.injectedUsage;
        return std::nullopt;
    }
    // The plan already refused what cannot be translated; a body that still cannot is answered
    // the same 400 here, before it is dialled.
    const TranslatedBody body =
        translateBody(endpoint, target.translateTo, clientBody, sentModel, session, target.provider == QLatin1String("openai"));
    if (!body.translation.ok())
        return Refusal{body.translation.refusal + QStringLiteral(" (target %1)").arg(target.label()),
                       {{QStringLiteral("param"), body.translation.refusedField}, {QStringLiteral("code"), QStringLiteral("untranslatable")}}};
    bytes = body.upstream.bytes;
    injectedUsage = false; // the stream translator reads the usage chunk; it never reaches the client as such
    dropped = body.translation.dropped;
    clientWantsUsage = body.translation.clientWantsUsage;
    customTools = body.translation.customTools;
    return std::nullopt;
}

} // namespace Aile::Dispatch
