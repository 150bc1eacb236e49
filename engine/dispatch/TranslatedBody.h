#pragma once

#include "UpstreamRequestBuilder.h"
#include "translate/Translation.h"

namespace Aile::Dispatch {

/// A translated target's request (docs/translation.md): the client's body with the target's model,
/// rewritten for the target's wire, then made ready to go upstream as any body is.
struct TranslatedBody
{
    UpstreamBody upstream;
    Translate::RequestTranslation translation; // refused: a 400 naming the field, nothing dialled
};
/// maxCompletionTokens: the target is OpenAI's own, whose chat models refuse max_tokens.
TranslatedBody translateBody(Wire::Endpoint client, Wire::Endpoint upstream, QJsonObject body, const QString &upstreamModel,
                             const QString &sessionSeed, bool maxCompletionTokens);

/// A whole answer of the upstream's wire in the client's: an answer below 400, else the error in
/// the client wire's error shape (its message kept). What the client wire cannot carry joins dropped.
/// customTools: the request's Responses custom tools, whose calls go back as custom_tool_call.
QByteArray translateWholeAnswer(Wire::Endpoint client, Wire::Endpoint upstream, int status, const QByteArray &body, QStringList *dropped,
                                const QStringList &customTools = {});

/// The attempt row's trace of a translation: which way it went and what was left out.
void noteTranslation(QJsonObject &plan, const QString &label, const QStringList &dropped);

} // namespace Aile::Dispatch
