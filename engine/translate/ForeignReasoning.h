#pragma once

#include "wire/Wire.h"

#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace Aile::Translate {

/// Reasoning the proxy wrote by translation (a Messages thinking block from a Responses summary, a
/// Responses reasoning item from Anthropic thinking) is readable but signed by nobody. It carries
/// this mark, never a made-up signature, so that when a client sends it back it is recognised and
/// kept from any provider that would verify it (docs/translation.md "Reasoning").
inline constexpr char TranslatedReasoningMark[] = "aile-translated";

/// The signature of a thinking block the proxy wrote: the mark, which no provider issues.
QString translatedSignature();
/// The id of a Responses reasoning item the proxy wrote: "rs_aile-translated_<suffix>".
QString translatedReasoningId(const QString &suffix);

/// A request going untranslated to a provider of the client's own wire, with the reasoning no
/// provider there could verify taken out of its history: thinking blocks with the proxy's mark or
/// no signature (Anthropic refuses both), reasoning items the proxy wrote, and, for a provider not
/// OpenAI's own, reasoning items with OpenAI's encrypted_content. When the last assistant turn lost
/// its thinking, the request's thinking setting goes too (Anthropic asks a tool-using turn under
/// thinking to start with a signed block). Returns what was left out, for the attempt row's trace;
/// body is untouched when nothing was.
QStringList stripUnverifiableReasoning(Wire::Endpoint endpoint, QJsonObject &body, const QString &provider);

} // namespace Aile::Translate
