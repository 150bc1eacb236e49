#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QByteArrayView>
#include <QtCore/QList>
#include <QtCore/QString>

namespace Aile::Wire {

/// One member of a JSON object as its bytes hold it: its key as written between the quotes (escapes
/// not decoded) and where its value starts and ends.
struct RawMember
{
    QByteArrayView key;
    qsizetype valueStart = 0;
    qsizetype valueEnd = 0; // one past the value's last byte
};

/// The top-level members of the JSON object in json, in the order written, read without decoding
/// anything: what lets a request body go upstream as the client wrote it with one value changed
/// (docs/performance.md). False when json is not one object (nothing is trusted then). The bytes
/// must be valid JSON (the request was parsed first): this reads structure, it does not validate.
bool topLevelMembers(QByteArrayView json, QList<RawMember> *members);

/// text as a JSON string literal, quotes included (what QJsonDocument writes for it).
QByteArray jsonString(const QString &text);

} // namespace Aile::Wire
