#include "HttpHeaders.h"

#include "HeaderRules.h"

namespace Aile::Http {

void HttpHeaders::set(const QByteArray &name, const QByteArray &value)
{
    remove(name);
    add(name, value);
}

namespace {
// Stored names are lower case; the name asked for may not be.
bool sameName(const QByteArray &stored, QByteArrayView name)
{
    return stored.size() == name.size() && stored.compare(name, Qt::CaseInsensitive) == 0;
}
} // namespace

void HttpHeaders::removeName(QByteArrayView name)
{
    m_items.removeIf([&](const Entry &e) { return sameName(e.first, name); });
}

bool HttpHeaders::hasName(QByteArrayView name) const
{
    for (const Entry &e : m_items)
        if (sameName(e.first, name))
            return true;
    return false;
}

QByteArray HttpHeaders::valueOf(QByteArrayView name) const
{
    for (const Entry &e : m_items)
        if (sameName(e.first, name))
            return e.second;
    return {};
}

QList<QByteArray> HttpHeaders::valuesOf(QByteArrayView name) const
{
    QList<QByteArray> out;
    for (const Entry &e : m_items)
        if (sameName(e.first, name))
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
