#pragma once

#include "http/HttpHeaders.h"

#include <QtCore/QByteArray>

namespace Aile::Catalog {
struct ProviderInfo;
struct Sharer;
} // namespace Aile::Catalog

namespace Aile::Dispatch {

/// Puts one sharer's credential on the headers going to it, in the form its account takes
/// (docs/subscriptions.md):
/// - an API key: `x-api-key` (Anthropic) or `Authorization: Bearer`, with no trace of a
///   subscription login left from the client's headers (no OAuth beta flag, no account header);
/// - a Claude subscription token held in the keychain (`claude setup-token`): `Authorization:
///   Bearer` with the `oauth-2025-04-20` beta flag;
/// - "credential": "client": the request's own login, to this sharer only, with exactly the
///   headers its provider requires (the OAuth beta flag for claude, `chatgpt-account-id` for codex).
/// out holds the client's headers already copied (less authorization, x-api-key, x-aile-*).
void applyCredential(Http::HttpHeaders &out, const Catalog::Sharer &sharer, const Catalog::ProviderInfo *provider, const QByteArray &storedSecret,
                     const Http::HttpHeaders &inbound);

} // namespace Aile::Dispatch
