#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QByteArrayView>
#include <QtCore/QList>
#include <QtCore/QPair>

#include <utility>

namespace Aile::Http {

/// An ordered header list. Names are stored lower-cased (HTTP names are case-insensitive and
/// every lookup in the engine is by the lower-case name); values are kept byte for byte.
class HttpHeaders
{
public:
    using Entry = QPair<QByteArray, QByteArray>;

    void add(const QByteArray &name, const QByteArray &value) { m_items.append({name.toLower(), value}); }
    /// A string literal's name (never a buffer that goes away: its bytes are kept, not copied, when
    /// it is lower case already; no allocation for several headers a request), else lowered as above.
    template <qsizetype N> void add(const char (&name)[N], const QByteArray &value) { addLiteral(name, N - 1, value); }
    /// Takes a name that is already lower case, and both buffers, without copying (the parser).
    void addLowerCase(QByteArray &&name, QByteArray &&value) { m_items.append({std::move(name), std::move(value)}); }
    void set(const QByteArray &name, const QByteArray &value);
    /// Room for n entries in one allocation (a parsed head: the list would otherwise grow by
    /// reallocation, four or five times for a dozen headers).
    void reserve(qsizetype n) { m_items.reserve(n); }
    void remove(const QByteArray &name) { removeName(name); }
    // Lookups compare without case and without allocating; a literal name is not even turned
    // into a QByteArray (the engine looks up several headers per request).
    bool has(const QByteArray &name) const { return hasName(name); }
    template <qsizetype N> bool has(const char (&name)[N]) const { return hasName(QByteArrayView(name, qstrlen(name))); }
    /// First value of a header, or an empty array.
    QByteArray value(const QByteArray &name) const { return valueOf(name); }
    template <qsizetype N> QByteArray value(const char (&name)[N]) const { return valueOf(QByteArrayView(name, qstrlen(name))); }
    /// Every value of a header, in order (for list headers sent more than once).
    QList<QByteArray> values(const QByteArray &name) const { return valuesOf(name); }
    template <qsizetype N> QList<QByteArray> values(const char (&name)[N]) const { return valuesOf(QByteArrayView(name, qstrlen(name))); }
    const QList<Entry> &entries() const { return m_items; }
    bool isEmpty() const { return m_items.isEmpty(); }
    qsizetype size() const { return m_items.size(); }
    /// Serialises as "Name: value\r\n" lines. A hard guard against header injection: an entry
    /// whose name is not an RFC 9110 token or whose value holds CR, LF or NUL is left out, and
    /// the names left out are returned (for the caller's log line).
    QList<QByteArray> appendTo(QByteArray &out) const;

private:
    void addLiteral(const char *name, qsizetype size, const QByteArray &value);
    void removeName(QByteArrayView name);
    bool hasName(QByteArrayView name) const;
    QByteArray valueOf(QByteArrayView name) const;
    QList<QByteArray> valuesOf(QByteArrayView name) const;

    QList<Entry> m_items;
};

} // namespace Aile::Http
