#pragma once

#include "Plan.h"
#include "RequestFacts.h"

#include <optional>

namespace Aile::Catalog {
struct ProviderInfo;
}

namespace Aile::Routing {

/// The translation hook of the wire check (docs/translation.md): a provider that does not speak
/// the client's chat wire may serve when the key's routing or the route target says
/// "translate": true and the provider speaks another chat wire the translation layer writes.
/// Returns that wire, or Unknown (the request is then the 404 it always was).
Wire::Endpoint translationWire(const RequestFacts &facts, const Catalog::ProviderInfo &provider);

/// The request rewritten for the target's wire, before anything is dialled: a field that cannot
/// be translated is the 400 returned (naming the field and the target); otherwise estimated holds
/// the facts with the translated request's token estimates, which the quotes and caps then read.
std::optional<Plan> checkTranslation(const RequestFacts &facts, Wire::Endpoint to, const QString &target, RequestFacts *estimated);

} // namespace Aile::Routing
