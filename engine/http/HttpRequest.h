#pragma once

#include "HttpHeaders.h"

#include <QtNetwork/QHostAddress>

namespace Aile::Http {

/// One parsed inbound request, body complete.
struct HttpRequest
{
    QByteArray method; // "GET", "POST", …
    QByteArray target; // as sent: path plus query
    QByteArray path;   // percent-encoded path, no query
    QByteArray query;  // without the '?'
    HttpHeaders headers;
    QByteArray body;
    QHostAddress peer;
    quint16 localPort = 0;
    int httpMinor = 1;

    /// Value of one query parameter (percent-decoded), or an empty string.
    QString queryValue(const QString &name) const;
    bool hasQueryValue(const QString &name) const;
};

} // namespace Aile::Http
