#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QJsonValue>
#include <QtCore/QString>
#include <QtCore/QVarLengthArray>

namespace Aile::Wire {

class JsonSieve;
class SieveObject;
class SieveArray;

/// A value the sieve kept, read as a QJsonValue reads (the response meter is written once for both,
/// docs/performance.md "Change 12 (meter)"): what was not kept reads as undefined.
class SieveValue
{
public:
    SieveValue() = default;
    bool isUndefined() const { return m_node < 0; }
    bool isNull() const;
    bool isBool() const;
    bool isDouble() const;
    bool isString() const;
    bool isArray() const;
    bool isObject() const;
    double toDouble(double fallback = 0) const;
    /// A string's text, for the members whose text the sieve keeps (model, id, type, signature...).
    QString toString() const;
    /// A string that is not empty; also for the members whose text is not kept (content, delta...).
    bool isNonEmptyString() const;
    SieveObject toObject() const;
    SieveArray toArray() const;
    /// The value as QJsonDocument reads its bytes (the rare message that shows a bad value).
    QJsonValue toQt() const;

private:
    friend class JsonSieve;
    friend class SieveObject;
    friend class SieveArray;
    SieveValue(const JsonSieve *doc, qint32 node) : m_doc(doc), m_node(node) { }
    bool is(int kind) const; // a JsonSieve::Node::Kind
    const JsonSieve *m_doc = nullptr;
    qint32 m_node = -1;
};

/// An object the sieve kept, read as a QJsonObject reads: the last of duplicated members wins.
class SieveObject
{
public:
    SieveObject() = default;
    SieveValue value(QLatin1String key) const;
    bool contains(QLatin1String key) const { return !value(key).isUndefined(); }
    /// No member at all, kept or not.
    bool isEmpty() const;

private:
    friend class SieveValue;
    SieveObject(const JsonSieve *doc, qint32 node) : m_doc(doc), m_node(node) { }
    const JsonSieve *m_doc = nullptr;
    qint32 m_node = -1;
};

/// An array the sieve kept: iterates the elements that are objects (the only ones the meter reads);
/// isEmpty() counts every element.
class SieveArray
{
public:
    class const_iterator
    {
    public:
        SieveValue operator*() const { return SieveValue(m_doc, m_node); }
        const_iterator &operator++();
        bool operator!=(const const_iterator &o) const { return m_node != o.m_node; }

    private:
        friend class SieveArray;
        const_iterator(const JsonSieve *doc, qint32 node) : m_doc(doc), m_node(node) { }
        const JsonSieve *m_doc;
        qint32 m_node;
    };

    SieveArray() = default;
    bool isEmpty() const;
    const_iterator begin() const;
    const_iterator end() const { return const_iterator(m_doc, -1); }

private:
    friend class SieveValue;
    SieveArray(const JsonSieve *doc, qint32 node) : m_doc(doc), m_node(node) { }
    const JsonSieve *m_doc = nullptr;
    qint32 m_node = -1;
};

/// An answer's JSON read for what the response meter needs, from the bytes: RapidJSON's SAX reader
/// walks the whole document (so a malformed one is refused as a whole) and keeps only the members
/// the meter reads (usage and its counts, the model, choices, messages and deltas, tool call ids,
/// reasoning evidence, types, errors; the table is in the .cpp), skipping every other value without
/// building it: the answer's text, logprobs, arguments.
class JsonSieve
{
public:
    /// Past this nesting the sieve gives up and QJsonDocument reads the answer (it allows 1,024).
    static constexpr int MaxDepth = 128;

    /// Reads json. False whenever QJsonDocument could read it otherwise: RapidJSON refuses it
    /// (QJsonDocument is more lenient: a control character in a string, "\x", "1.", a lone high
    /// surrogate, a byte order mark), a number Qt refuses (1e-400), bytes after a NUL, nesting past
    /// MaxDepth, a kept text holding a lone surrogate. The caller then reads it with QJsonDocument,
    /// so that every answer means what it meant before the sieve.
    bool read(const QByteArray &json);
    /// The document's value (an object for every answer the meter reads).
    SieveValue root() const { return SieveValue(this, m_nodes.isEmpty() ? -1 : 0); }

    struct Node
    {
        enum class Kind : quint8 { Null, Bool, Number, String, Array, Object };
        Kind kind = Kind::Null;
        quint8 key = 0;      // a member's name: its index in the sieve's table
        qint32 count = 0;    // an object's members, an array's elements (kept or not), a string's bytes
        qint32 first = -1;   // the first kept member or element
        qint32 last = -1;    // the last one (members are appended in the order written)
        qint32 next = -1;    // the next kept member or element of the same parent
        qsizetype start = 0; // the value's first byte in the document
        double number = 0;
        QString text; // a string's text, for the members whose text is kept
    };

private:
    friend class SieveValue;
    friend class SieveObject;
    friend class SieveArray;
    struct Handler;

    const Node *node(qint32 i) const { return i < 0 ? nullptr : &m_nodes[i]; }

    QByteArray m_json;
    QVarLengthArray<Node, 32> m_nodes;
};

} // namespace Aile::Wire
