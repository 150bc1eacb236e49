#include "HttpHeaders.h"

#include "HeaderRules.h"

#include <algorithm>
#include <cstring>

namespace Aile::Http {

void HttpHeaders::addLiteral(const char *name, qsizetype size, const QByteArray &value)
{
    const QByteArrayView view(name, size);
    const bool lower = std::none_of(view.begin(), view.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
    m_items.append({lower ? QByteArray::fromRawData(name, size) : view.toByteArray().toLower(), value});
}

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
    // Room for every line first, then each line copied into it: four appends a header cost ~500
    // instructions (QByteArray::insert), on every answer and every upstream request.
    qsizetype room = 0;
    for (const Entry &e : m_items)
        room += e.first.size() + e.second.size() + 4;
    const qsizetype start = out.size();
    out.resize(start + room);
    char *at = out.data() + start;
    const auto put = [&at](QByteArrayView bytes) {
        if (bytes.isEmpty())
            return; // a null array's data() is null, which memcpy may not take even for no bytes
        std::memcpy(at, bytes.data(), size_t(bytes.size()));
        at += bytes.size();
    };
    for (const Entry &e : m_items) {
        if (!isToken(e.first) || !isHeadSafe(e.second)) {
            dropped.append(e.first);
            continue;
        }
        put(e.first);
        put(": ");
        put(e.second);
        put("\r\n");
    }
    out.resize(at - out.constData());
    return dropped;
}

} // namespace Aile::Http
