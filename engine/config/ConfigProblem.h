#pragma once

#include <QtCore/QList>
#include <QtCore/QString>

namespace Aile::Config {

/// One thing wrong with a configuration or with one of its entries. The message names the entry
/// (sharer handle, key name, route name), the field, the cause and the fix, and is the same
/// wherever the entry came from (the configuration file, POST /admin/config, the management API);
/// where it sits (file, line and column) is added by whoever knows it.
struct Problem
{
    QString pointer; // JSON pointer of what is wrong ("/sharers/0/priority"); "" is the document
    QString message;
    qsizetype offset = -1; // a syntax error's byte offset in the text, when the pointer cannot say
};
using Problems = QList<Problem>;

/// "/sharers" + "0" → "/sharers/0" ('~' and '/' in a name escaped as JSON pointers escape them).
inline QString pointerTo(const QString &base, const QString &name)
{
    QString escaped = name;
    escaped.replace(QLatin1Char('~'), QLatin1String("~0")).replace(QLatin1Char('/'), QLatin1String("~1"));
    return base + QLatin1Char('/') + escaped;
}
inline QString pointerTo(const QString &base, qsizetype index)
{
    return base + QLatin1Char('/') + QString::number(index);
}

} // namespace Aile::Config
