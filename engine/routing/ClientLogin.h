#pragma once

#include "http/HttpHeaders.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>

namespace Aile::Catalog {
struct Sharer;
}

namespace Aile::Routing {

/// A coding tool's own subscription login, as it arrives on a request (docs/subscriptions.md):
/// Claude Code signed in with a Claude plan sends `Authorization: Bearer <OAuth token>` with the
/// `oauth-2025-04-20` beta flag; the Codex CLI signed in with ChatGPT sends `Authorization: Bearer
/// <access token>` and `chatgpt-account-id`. The local key then travels in `x-aile-key`: without
/// it, Authorization holds the local key and there is no login. Lives only as long as the request.
struct ClientLogin
{
    QByteArray token;            // the bearer token; empty: no login
    QByteArray accountId;        // chatgpt-account-id (Codex)
    bool anthropicOAuth = false; // the OAuth beta flag, or a Claude OAuth token's own prefix

    static ClientLogin read(const Http::HttpHeaders &inbound);
    /// A login the provider of this sharer accepts: claude takes a Claude OAuth login, codex a
    /// ChatGPT login (token and account).
    bool fits(const QString &provider) const;
};

/// The Anthropic beta flag that marks an OAuth (subscription) call.
inline constexpr const char *AnthropicOAuthBeta = "oauth-2025-04-20";

/// The reason a client-login sharer is passed over, in the trace and the dry run.
QString noLoginReason();

/// Empty when the sharer can be dialled with what this request carries; else the reason it is
/// passed over. Only asked of sharers with "credential": "client".
QString clientLoginRefusal(const Catalog::Sharer &sharer, const Http::HttpHeaders &inbound);

} // namespace Aile::Routing
