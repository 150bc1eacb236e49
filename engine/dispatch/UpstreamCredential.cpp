#include "UpstreamCredential.h"

#include "catalog/Catalog.h"
#include "catalog/Sharer.h"
#include "routing/ClientLogin.h"

namespace Aile::Dispatch {

namespace {

// The anthropic-beta list less the OAuth flag, or with it (once).
void setOAuthBeta(Http::HttpHeaders &h, bool on)
{
    if (!on && !h.has("anthropic-beta"))
        return; // nothing to take out (most requests): nothing allocated
    QList<QByteArray> kept;
    for (const QByteArray &value : h.values("anthropic-beta"))
        for (const QByteArray &flag : value.split(','))
            if (const QByteArray f = flag.trimmed(); !f.isEmpty() && f != Routing::AnthropicOAuthBeta && !kept.contains(f))
                kept.append(f);
    if (on)
        kept.append(Routing::AnthropicOAuthBeta);
    h.remove("anthropic-beta");
    if (!kept.isEmpty())
        h.add("anthropic-beta", kept.join(','));
}

void anthropicOAuth(Http::HttpHeaders &out, const QByteArray &token)
{
    out.add("authorization", "Bearer " + token);
    setOAuthBeta(out, true);
    if (!out.has("anthropic-version"))
        out.add("anthropic-version", "2023-06-01");
}

} // namespace

void applyCredential(Http::HttpHeaders &out, const Catalog::Sharer &sharer, const Catalog::ProviderInfo *provider, const QByteArray &storedSecret,
                     const Http::HttpHeaders &inbound)
{
    // Whatever the client sent of its own login stays with the client unless this sharer takes it.
    out.remove(QByteArrayLiteral("chatgpt-account-id")); // a static array: nothing allocated per request
    setOAuthBeta(out, false);
    const bool claude = sharer.provider == QLatin1String("claude");
    if (sharer.usesClientLogin()) {
        const Routing::ClientLogin login = Routing::ClientLogin::read(inbound);
        if (claude) {
            anthropicOAuth(out, login.token);
        } else {
            out.add("authorization", "Bearer " + login.token);
            out.add("chatgpt-account-id", login.accountId);
        }
        return;
    }
    if (claude && (sharer.isSubscription() || storedSecret.startsWith("sk-ant-oat"))) {
        anthropicOAuth(out, storedSecret); // a `claude setup-token` token: the OAuth form, never x-api-key
        return;
    }
    if (provider && provider->auth == QLatin1String("x-api-key")) {
        out.add("x-api-key", storedSecret);
        if (!out.has("anthropic-version"))
            out.add("anthropic-version", "2023-06-01");
    } else {
        out.add(QByteArrayLiteral("authorization"), "Bearer " + storedSecret);
    }
}

} // namespace Aile::Dispatch
