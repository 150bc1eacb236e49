#include "ClientLogin.h"

#include "catalog/Sharer.h"

#include <algorithm>

namespace Aile::Routing {

ClientLogin ClientLogin::read(const Http::HttpHeaders &h)
{
    ClientLogin login;
    const QByteArray localKey = h.value("x-aile-key").trimmed();
    const QByteArray auth = h.value("authorization").trimmed();
    if (localKey.isEmpty() || auth.size() <= 7 || auth.left(7).toLower() != "bearer ")
        return login;
    const QByteArray token = auth.mid(7).trimmed();
    if (token.isEmpty() || token == localKey)
        return login;
    login.token = token;
    login.accountId = h.value("chatgpt-account-id").trimmed();
    const QList<QByteArray> betas = h.value("anthropic-beta").split(',');
    login.anthropicOAuth = token.startsWith("sk-ant-oat")
                           || std::any_of(betas.begin(), betas.end(), [](const QByteArray &b) { return b.trimmed() == AnthropicOAuthBeta; });
    return login;
}

bool ClientLogin::fits(const QString &provider) const
{
    if (token.isEmpty())
        return false;
    if (provider == QLatin1String("claude"))
        return anthropicOAuth && accountId.isEmpty();
    if (provider == QLatin1String("codex"))
        return !accountId.isEmpty();
    return false;
}

QString noLoginReason()
{
    return QStringLiteral("no subscription login on this request");
}

QString clientLoginRefusal(const Catalog::Sharer &sharer, const Http::HttpHeaders &inbound)
{
    return ClientLogin::read(inbound).fits(sharer.provider) ? QString() : noLoginReason();
}

} // namespace Aile::Routing
