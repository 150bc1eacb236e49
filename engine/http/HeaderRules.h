#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QString>

class QJsonObject;

namespace Aile::Http {

class HttpHeaders;

/// RFC 9110 §5.6.2 `token`: what a header field name may be (no whitespace, no separators).
bool isToken(QByteArrayView name);
/// RFC 9110 §5.5 field value: visible bytes, obs-text, SP and HTAB; no other control byte.
bool isFieldValue(QByteArrayView value);
/// What may go into a response head: nothing that ends a line or the string (CR, LF, NUL).
bool isHeadSafe(QByteArrayView value);

/// A name taken from a request (model, route, sharer, session id) that can reach a response
/// header, a trace column or a log line: true when it holds a control character (C0, DEL, C1,
/// or a Unicode line or paragraph separator).
bool hasControlCharacter(QStringView text);
/// The 400 message for such a name, or empty when it is clean. `what` names the field
/// ("\"model\"", "x-aile-sharer").
QString controlCharacterRefusal(const QString &what, QStringView text);

/// The names a chat request chooses by (the body's "model" and "models", which also name
/// routes, and the x-aile-* sharer and provider headers), checked before they can reach a
/// response header, a trace column or a log line: the 400 message for the first with a control
/// character, or empty.
QString requestNameRefusal(const HttpHeaders &headers, const QJsonObject &body);

/// Bytes from a request shown in an error message: printable ASCII kept, the rest as \xNN,
/// at most `limit` bytes of input.
QString printable(QByteArrayView bytes, qsizetype limit = 40);

} // namespace Aile::Http
