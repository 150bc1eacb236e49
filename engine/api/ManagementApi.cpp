#include "ManagementApi.h"

#include "CatalogApi.h"
#include "TraceActions.h"
#include "catalog/Sharer.h"
#include "secrets/SecretStore.h"

#include <QtCore/QUrlQuery>

namespace Aile::Api {

bool sameSecret(QStringView a, QStringView b)
{
    // UTF-16 units compared in place: no copy of either secret (the proxy's key check runs it per
    // request, ApiRouter).
    if (a.size() != b.size())
        return false;
    char16_t diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= a[i].unicode() ^ b[i].unicode();
    return diff == 0;
}

QJsonObject managementError(const QString &message)
{
    return QJsonObject{{QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), message}}}};
}

QString ManagementRequest::queryValue(const QString &name) const
{
    return QUrlQuery(QString::fromUtf8(query)).queryItemValue(name, QUrl::FullyDecoded);
}

bool ManagementRequest::hasQuery(const QString &name) const
{
    return QUrlQuery(QString::fromUtf8(query)).hasQueryItem(name);
}

QString credentialStoreOf(const QString &credentialRef)
{
    if (credentialRef == Catalog::Sharer::ClientLoginRef())
        return QStringLiteral("client"); // the requesting tool's own login: nothing stored
    const std::optional<Secrets::Reference> ref = Secrets::Reference::parse(credentialRef);
    if (!ref)
        return QStringLiteral("none");
    switch (ref->scheme) {
    case Secrets::Reference::Env: return QStringLiteral("env");
    case Secrets::Reference::File: return QStringLiteral("file");
    case Secrets::Reference::Keychain: break;
    }
    return QStringLiteral("keychain");
}

bool ManagementApi::handles(const QByteArray &path)
{
    return path.startsWith("/keys/") || path == "/keys" || path == "/sharers" || path.startsWith("/sharers/") || path == "/v1/routing"
           || path.startsWith("/admin/") || CatalogApi::handles(path) || TraceActions::handles(path);
}

void ManagementApi::add(std::unique_ptr<ManagementComponent> component)
{
    m_components.push_back(std::move(component));
}

void ManagementApi::handle(const ManagementRequest &req, QObject *context, const ManagementReply &reply)
{
    for (const std::unique_ptr<ManagementComponent> &component : m_components)
        if (component->handle(req, context, reply))
            return;
    reply(404,
          managementError(QStringLiteral("no such management endpoint: %1 %2").arg(QString::fromLatin1(req.method), QString::fromLatin1(req.path))));
}

} // namespace Aile::Api
