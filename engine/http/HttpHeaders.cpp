#include "HttpHeaders.h"

#include "HeaderRules.h"

namespace Aile::Http {

void HttpHeaders::set(const QByteArray &name, const QByteArray &value)
{
    remove(name);
    add(name, value);
}

void HttpHeaders::remove(const QByteArray &name)
{
    const QByteArray lower = name.toLower();
    m_items.removeIf([&](const Entry &e) { return e.first == lower; });
}

bool HttpHeaders::has(const QByteArray &name) const
{
    const QByteArray lower = name.toLower();
    for (const Entry &e : m_items)
        if (e.first == lower)
            return true;
    return false;
}

QByteArray HttpHeaders::value(const QByteArray &name) const
{
    const QByteArray lower = name.toLower();
    for (const Entry &e : m_items)
        if (e.first == lower)
            return e.second;
    return {};
}

QList<QByteArray> HttpHeaders::values(const QByteArray &name) const
{
    const QByteArray lower = name.toLower();
    QList<QByteArray> out;
    for (const Entry &e : m_items)
        if (e.first == lower)
            out.append(e.second);
    return out;
}

QList<QByteArray> HttpHeaders::appendTo(QByteArray &out) const
{
    QList<QByteArray> dropped;
    for (const Entry &e : m_items) {
        if (!isToken(e.first) || !isHeadSafe(e.second)) {
            dropped.append(e.first);
            continue;
        }
        out += e.first;
        out += ": ";
        out += e.second;
        out += "\r\n";
    }
    return dropped;
}

} // namespace Aile::Http
