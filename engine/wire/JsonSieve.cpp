// The response meter used to parse every answer into a QJsonDocument: 4.3% of the engine thread at
// c=16 (docs/performance.md). The sieve reads the same bytes with RapidJSON's SAX reader and keeps
// only the members below; whenever QJsonDocument could read a document otherwise, read() says so
// and the meter falls back to it (the fuzz target fuzz_sse_meter compares the two on every input).
#include "JsonSieve.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

#include <rapidjson/reader.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>

namespace Aile::Wire {

namespace {

struct SieveKey
{
    QLatin1String name;
    bool text; // a string value's text is kept (else only its length: the meter asks whether it is empty)
};

// Every member name ResponseMeter reads, on any wire, at any depth (the sieve does not track where a
// name sits: a member kept where the meter never looks costs a node, nothing else). A member not
// named here is skipped with everything under it. The meter reading a new member adds it here;
// fuzz_sse_meter and test_meter_sieve fail until it does.
constexpr SieveKey Keys[] = {
    // what the answer is: its model, its kind, an error
    {QLatin1String("model"), true},
    {QLatin1String("type"), true},
    {QLatin1String("error"), true},
    {QLatin1String("message"), true},
    // usage and its counts, on the three wires
    {QLatin1String("usage"), false},
    {QLatin1String("prompt_tokens"), false},
    {QLatin1String("completion_tokens"), false},
    {QLatin1String("total_tokens"), false},
    {QLatin1String("prompt_tokens_details"), false},
    {QLatin1String("cached_tokens"), false},
    {QLatin1String("input_tokens"), false},
    {QLatin1String("output_tokens"), false},
    {QLatin1String("input_tokens_details"), false},
    {QLatin1String("cache_read_input_tokens"), false},
    {QLatin1String("cache_creation_input_tokens"), false},
    // where the output and the evidence are
    {QLatin1String("choices"), false},
    {QLatin1String("finish_reason"), true},
    {QLatin1String("delta"), false},
    {QLatin1String("response"), false},
    {QLatin1String("output"), false},
    {QLatin1String("item"), false},
    {QLatin1String("content_block"), false},
    {QLatin1String("content"), false},
    {QLatin1String("reasoning"), false},
    {QLatin1String("reasoning_content"), false},
    {QLatin1String("refusal"), false},
    // tool calls and reasoning evidence (session affinity)
    {QLatin1String("tool_calls"), false},
    {QLatin1String("id"), true},
    {QLatin1String("call_id"), true},
    {QLatin1String("signature"), true},
    {QLatin1String("data"), true},
    {QLatin1String("encrypted_content"), true},
    {QLatin1String("reasoning_encrypted_content"), true},
    {QLatin1String("reasoning_signature"), true},
    {QLatin1String("reasoning_details"), false},
    {QLatin1String("thinking_blocks"), false},
};
constexpr int KeyCount = int(std::size(Keys));
static_assert(KeyCount < 255);
constexpr int NotKept = -1;

// The table's indices by name length: a document's key is compared with the few names of its length.
struct KeysBySize
{
    static constexpr int Longest = 32;
    std::array<quint8, KeyCount> order{};
    std::array<quint8, Longest + 2> start{}; // names of length n: order[start[n]] up to order[start[n + 1]]
};

static_assert(std::all_of(std::begin(Keys), std::end(Keys), [](const SieveKey &k) { return k.name.size() <= KeysBySize::Longest; }));

const KeysBySize &keysBySize()
{
    static const KeysBySize table = [] {
        KeysBySize t;
        int at = 0;
        for (int n = 0; n <= KeysBySize::Longest; ++n) {
            t.start[n] = quint8(at);
            for (int i = 0; i < KeyCount; ++i)
                if (Keys[i].name.size() == n)
                    t.order[at++] = quint8(i);
        }
        t.start[KeysBySize::Longest + 1] = quint8(at);
        return t;
    }();
    return table;
}

int keyIndex(const char *name, qsizetype size)
{
    if (size <= 0 || size > KeysBySize::Longest)
        return NotKept;
    const KeysBySize &t = keysBySize();
    for (int i = t.start[size]; i < t.start[size + 1]; ++i) {
        const QLatin1String k = Keys[t.order[i]].name;
        if (k.front() == QLatin1Char(name[0]) && std::memcmp(k.data(), name, size_t(size)) == 0)
            return t.order[i];
    }
    return NotKept;
}

// A number as QJsonDocument takes it: Qt refuses what does not convert to a finite double (1e-400,
// 1.8e308), which RapidJSON accepts as 0 (or refuses itself). Up to 18 digits are an exact integer.
bool readNumber(const char *s, qsizetype size, double *out)
{
    const bool minus = size > 0 && s[0] == '-';
    if (size - minus <= 18) {
        qint64 n = 0;
        qsizetype i = minus;
        for (; i < size && s[i] >= '0' && s[i] <= '9'; ++i)
            n = n * 10 + (s[i] - '0');
        if (i == size) {
            *out = minus ? -double(n) : double(n);
            return true;
        }
    }
    bool ok = false;
    *out = QByteArrayView(s, size).toDouble(&ok);
    return ok;
}

// RapidJSON decodes "\udc00" (a low surrogate alone) to the three bytes of a UTF-8 surrogate, which
// QString::fromUtf8 would read as U+FFFD where QJsonDocument keeps U+DC00. Raw input never holds these
// bytes (read() checks the UTF-8 first), so they come only from such an escape.
bool holdsSurrogate(const char *s, qsizetype size)
{
    for (qsizetype i = 0; i + 1 < size; ++i)
        if (quint8(s[i]) == 0xED && quint8(s[i + 1]) >= 0xA0)
            return true;
    return false;
}

// One past the last byte of the value that starts at start, in a document the reader took whole: a
// string to its closing quote, an object or array to its closing bracket, a scalar to the first byte
// that ends it.
qsizetype valueEnd(const QByteArray &json, qsizetype start)
{
    int depth = 0;
    for (qsizetype i = start; i < json.size(); ++i) {
        const char c = json[i];
        if (c == '"') {
            for (++i; i < json.size() && json[i] != '"'; ++i)
                if (json[i] == '\\')
                    ++i;
            if (depth == 0)
                return i + 1;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth <= 0)
                return depth == 0 ? i + 1 : i;
        } else if (depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
            return i;
        }
    }
    return json.size();
}

} // namespace

// The SAX events, turned into the kept nodes. open holds, for each container the reader is in, the
// node kept for it or -1 when it is skipped (everything inside a skipped container is skipped).
//
// Where a value starts: the reader copies an in-situ stream into a local while it reads a string or
// a number and writes the copy back after the handler has seen it, so during String, Key and
// RawNumber the stream still stands on the token's first byte (its quote, its sign or digit). The
// other events come after their token was taken from the stream itself: '{' and '[' one byte back,
// null and true four, false five.
struct JsonSieve::Handler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler>
{
    using Kind = Node::Kind;

    Handler(JsonSieve &sieve, rapidjson::InsituStringStream &in) : m_sieve(sieve), m_in(in) { }

    qsizetype at(int back = 0) const { return qsizetype(m_in.Tell()) - back; }

    // Where a value just begun at start goes: its new node, or -1 when it is not kept.
    qint32 place(Kind kind, qsizetype start)
    {
        QVarLengthArray<Node, 32> &nodes = m_sieve.m_nodes;
        if (m_open.isEmpty()) { // the document's own value
            nodes.append(Node{});
            nodes[0].kind = kind;
            nodes[0].start = start;
            return 0;
        }
        const qint32 parent = m_open.last();
        if (parent < 0)
            return -1;
        Node child;
        child.kind = kind;
        child.start = start;
        if (nodes[parent].kind == Kind::Object) {
            if (m_key == NotKept)
                return -1;
            child.key = quint8(m_key);
        } else if (kind != Kind::Object) {
            return -1; // the meter reads an array's elements as objects: anything else reads as {}
        }
        const qint32 index = qint32(nodes.size());
        nodes.append(std::move(child));
        Node &p = nodes[parent];
        if (p.last < 0)
            p.first = index;
        else
            nodes[p.last].next = index;
        p.last = index;
        return index;
    }

    bool Null()
    {
        place(Kind::Null, at(4));
        return true;
    }
    bool Bool(bool b)
    {
        place(Kind::Bool, at(b ? 4 : 5));
        return true;
    }
    bool RawNumber(const char *s, rapidjson::SizeType size, bool)
    {
        double d = 0;
        if (!readNumber(s, size, &d))
            return false; // QJsonDocument refuses the document
        if (const qint32 n = place(Kind::Number, at()); n >= 0)
            m_sieve.m_nodes[n].number = d;
        return true;
    }
    bool String(const char *s, rapidjson::SizeType size, bool)
    {
        const qint32 n = place(Kind::String, at());
        if (n < 0)
            return true;
        Node &node = m_sieve.m_nodes[n];
        node.count = qint32(qMin<rapidjson::SizeType>(size, INT_MAX));
        if (n > 0 && Keys[node.key].text) {
            if (holdsSurrogate(s, size))
                return false;
            node.text = QString::fromUtf8(s, qsizetype(size));
        }
        return true;
    }
    bool Key(const char *s, rapidjson::SizeType size, bool)
    {
        m_key = m_open.last() < 0 ? NotKept : keyIndex(s, size);
        return true;
    }
    bool open(Kind kind)
    {
        if (m_open.size() >= MaxDepth)
            return false;
        qint32 n = place(kind, at(1));
        if (n == 0 && kind != Kind::Object)
            n = -1; // the document is not an object: nothing in it is read
        m_open.append(n);
        return true;
    }
    bool close(rapidjson::SizeType count)
    {
        const qint32 n = m_open.last();
        m_open.removeLast();
        if (n >= 0)
            m_sieve.m_nodes[n].count = qint32(qMin<rapidjson::SizeType>(count, INT_MAX));
        return true;
    }
    bool StartObject() { return open(Kind::Object); }
    bool EndObject(rapidjson::SizeType members) { return close(members); }
    bool StartArray() { return open(Kind::Array); }
    bool EndArray(rapidjson::SizeType elements) { return close(elements); }

    JsonSieve &m_sieve;
    rapidjson::InsituStringStream &m_in; // Tell() is not const here
    QVarLengthArray<qint32, 16> m_open;
    int m_key = NotKept;
};

bool JsonSieve::read(const QByteArray &json)
{
    m_json = json;
    m_nodes.clear();
    // QJsonDocument refuses bad UTF-8 (overlong forms and encoded surrogates too), in a string or
    // out of one, as Qt's own check does; it is quicker than RapidJSON's (an ASCII body is skimmed).
    if (!json.isValidUtf8())
        return false;
    // The reader decodes strings in place (no copy of each onto its stack) in a copy of the bytes,
    // and its SSE2 scans (whitespace, a string's run of plain bytes) load whole aligned 16-byte
    // blocks, up to 15 bytes past the terminating NUL: the copy ends with 16 NULs.
    constexpr qsizetype Pad = 16;
    QVarLengthArray<char, 1024> copy(json.size() + Pad);
    std::memcpy(copy.data(), json.constData(), size_t(json.size()));
    std::memset(copy.data() + json.size(), 0, size_t(Pad));
    rapidjson::InsituStringStream in(copy.data());
    Handler handler(*this, in);
    rapidjson::Reader reader;
    constexpr unsigned flags = rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseInsituFlag;
    const rapidjson::ParseResult result = reader.Parse<flags>(in, handler);
    // RapidJSON stops at a NUL as at the end; QJsonDocument calls what follows garbage.
    return !result.IsError() && in.Tell() == size_t(json.size()) && !m_nodes.isEmpty();
}

bool SieveValue::is(int kind) const
{
    const JsonSieve::Node *n = m_doc ? m_doc->node(m_node) : nullptr;
    return n && int(n->kind) == kind;
}

bool SieveValue::isNull() const
{
    return is(int(JsonSieve::Node::Kind::Null));
}

bool SieveValue::isBool() const
{
    return is(int(JsonSieve::Node::Kind::Bool));
}

bool SieveValue::isDouble() const
{
    return is(int(JsonSieve::Node::Kind::Number));
}

bool SieveValue::isString() const
{
    return is(int(JsonSieve::Node::Kind::String));
}

bool SieveValue::isArray() const
{
    return is(int(JsonSieve::Node::Kind::Array));
}

bool SieveValue::isObject() const
{
    return is(int(JsonSieve::Node::Kind::Object));
}

double SieveValue::toDouble(double fallback) const
{
    return isDouble() ? m_doc->node(m_node)->number : fallback;
}

QString SieveValue::toString() const
{
    if (!isString())
        return {};
    const JsonSieve::Node *n = m_doc->node(m_node);
    Q_ASSERT_X(n->count == 0 || !n->text.isEmpty(), "SieveValue::toString", "a member whose text the sieve does not keep");
    return n->text;
}

bool SieveValue::isNonEmptyString() const
{
    return isString() && m_doc->node(m_node)->count > 0;
}

SieveObject SieveValue::toObject() const
{
    return isObject() ? SieveObject(m_doc, m_node) : SieveObject();
}

SieveArray SieveValue::toArray() const
{
    return isArray() ? SieveArray(m_doc, m_node) : SieveArray();
}

QJsonValue SieveValue::toQt() const
{
    const JsonSieve::Node *n = m_doc ? m_doc->node(m_node) : nullptr;
    if (!n)
        return QJsonValue(QJsonValue::Undefined);
    // The value's own bytes, read by QJsonDocument as the element of an array.
    const QByteArray &json = m_doc->m_json;
    const QByteArray element = '[' + json.mid(n->start, valueEnd(json, n->start) - n->start) + ']';
    return QJsonDocument::fromJson(element).array().at(0);
}

SieveValue SieveObject::value(QLatin1String key) const
{
    const JsonSieve::Node *o = m_doc ? m_doc->node(m_node) : nullptr;
    qint32 found = -1;
    for (qint32 i = o ? o->first : -1; i >= 0; i = m_doc->node(i)->next)
        if (Keys[m_doc->node(i)->key].name == key)
            found = i; // QJsonDocument keeps the last of duplicated members
    return SieveValue(m_doc, found);
}

bool SieveObject::isEmpty() const
{
    const JsonSieve::Node *o = m_doc ? m_doc->node(m_node) : nullptr;
    return !o || o->count == 0;
}

bool SieveArray::isEmpty() const
{
    const JsonSieve::Node *a = m_doc ? m_doc->node(m_node) : nullptr;
    return !a || a->count == 0;
}

SieveArray::const_iterator SieveArray::begin() const
{
    const JsonSieve::Node *a = m_doc ? m_doc->node(m_node) : nullptr;
    return const_iterator(m_doc, a ? a->first : -1);
}

SieveArray::const_iterator &SieveArray::const_iterator::operator++()
{
    m_node = m_doc->node(m_node)->next;
    return *this;
}

} // namespace Aile::Wire
