#include "HttpHeaders.h"

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

void HttpHeaders::appendTo(QByteArray &out) const
{
    for (const Entry &e : m_items) {
        out += e.first;
        out += ": ";
        out += e.second;
        out += "\r\n";
    }
}

} // namespace Aile::Http
