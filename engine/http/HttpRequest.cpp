#include "HttpRequest.h"

#include <QtCore/QUrlQuery>

namespace Aile::Http {

QString HttpRequest::queryValue(const QString &name) const
{
    return QUrlQuery(QString::fromUtf8(query)).queryItemValue(name, QUrl::FullyDecoded);
}

bool HttpRequest::hasQueryValue(const QString &name) const
{
    return QUrlQuery(QString::fromUtf8(query)).hasQueryItem(name);
}

} // namespace Aile::Http
