#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QPair>

namespace Aile::Http {

/// An ordered header list. Names are stored lower-cased (HTTP names are case-insensitive and
/// every lookup in the engine is by the lower-case name); values are kept byte for byte.
class HttpHeaders
{
public:
    using Entry = QPair<QByteArray, QByteArray>;

    void add(const QByteArray &name, const QByteArray &value) { m_items.append({name.toLower(), value}); }
    void set(const QByteArray &name, const QByteArray &value);
    void remove(const QByteArray &name);
    bool has(const QByteArray &name) const;
    /// First value of a header, or an empty array.
    QByteArray value(const QByteArray &name) const;
    /// Every value of a header, in order (for list headers sent more than once).
    QList<QByteArray> values(const QByteArray &name) const;
    const QList<Entry> &entries() const { return m_items; }
    bool isEmpty() const { return m_items.isEmpty(); }
    qsizetype size() const { return m_items.size(); }
    /// Serialises as "Name: value\r\n" lines. A hard guard against header injection: an entry
    /// whose name is not an RFC 9110 token or whose value holds CR, LF or NUL is left out, and
    /// the names left out are returned (for the caller's log line).
    QList<QByteArray> appendTo(QByteArray &out) const;

private:
    QList<Entry> m_items;
};

} // namespace Aile::Http
