#include "AttemptsJson.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QStringEncoder>

#include <rapidjson/writer.h>

#include <cmath>

namespace Aile::Store {

namespace {

// RapidJSON's output stream over the QByteArray being appended to. The writer reserves room before
// each value (PutReserve) and then stores characters without a check (PutUnsafe), so the bytes go
// straight into the array's own storage; Flush (the writer's, at the end of the root value, or the
// stream's end) cuts the array back to what was written.
class JsonByteArrayStream
{
public:
    using Ch = char;

    explicit JsonByteArrayStream(QByteArray &out) : m_out(out)
    {
        m_at = m_out.data() + m_out.size();
        m_end = m_at;
    }
    ~JsonByteArrayStream() { Flush(); }
    JsonByteArrayStream(const JsonByteArrayStream &) = delete;
    JsonByteArrayStream &operator=(const JsonByteArrayStream &) = delete;

    void reserve(size_t n)
    {
        if (size_t(m_end - m_at) < n)
            grow(n);
    }
    void putUnsafe(char c) { *m_at++ = c; }
    void Put(char c)
    {
        reserve(1);
        putUnsafe(c);
    }
    void Flush() { m_out.resize(m_at - m_out.constData()); }

private:
    void grow(size_t n)
    {
        const qsizetype used = m_at - m_out.constData();
        m_out.resize(qMax(used + qsizetype(n), qMax<qsizetype>(m_out.capacity(), 2 * used)));
        m_at = m_out.data() + used;
        m_end = m_out.data() + m_out.size();
    }

    QByteArray &m_out;
    char *m_at;
    char *m_end;
};

} // namespace

} // namespace Aile::Store

namespace rapidjson {
template <> inline void PutReserve(Aile::Store::JsonByteArrayStream &s, size_t count) { s.reserve(count); }
template <> inline void PutUnsafe(Aile::Store::JsonByteArrayStream &s, char c) { s.putUnsafe(c); }
} // namespace rapidjson

namespace Aile::Store {

namespace {

// RapidJSON's writer fed from Qt's types: text as UTF-8 (Qt's encoder, which writes a lone surrogate
// as U+FFFD as Qt's own JSON writer does), numbers as Qt's writer keeps them (a whole double within
// 2^53 as an integer, a non-finite one as null).
class QtJsonWriter
{
public:
    explicit QtJsonWriter(QByteArray &out) : m_stream(out), m_writer(m_stream) { }

    template <size_t N> void key(const char (&k)[N]) { m_writer.Key(k, N - 1); }
    void string(QStringView s)
    {
        // UTF-8 needs at most three bytes per UTF-16 unit. ASCII, nearly all of a trace, is copied
        // as it is; the first other character hands the rest to Qt's encoder.
        m_utf8.resize(s.size() * 3);
        char *end = m_utf8.data();
        qsizetype i = 0;
        for (; i < s.size() && s[i].unicode() < 0x80; ++i)
            *end++ = char(s[i].unicode());
        if (i < s.size())
            end = m_encoder.appendToBuffer(end, s.sliced(i));
        m_writer.String(m_utf8.constData(), rapidjson::SizeType(end - m_utf8.constData()));
    }
    void integer(qint64 n) { m_writer.Int64(n); }
    void boolean(bool b) { m_writer.Bool(b); }
    void real(double d)
    {
        if (!std::isfinite(d))
            m_writer.Null();
        else if (d == std::trunc(d) && std::fabs(d) <= 9007199254740992.0)
            m_writer.Int64(qint64(d));
        else
            m_writer.Double(d);
    }
    void startArray() { m_writer.StartArray(); }
    void endArray() { m_writer.EndArray(); }
    void startObject() { m_writer.StartObject(); }
    void endObject() { m_writer.EndObject(); }

    void value(const QJsonValue &v)
    {
        switch (v.type()) {
        case QJsonValue::Bool: boolean(v.toBool()); break;
        case QJsonValue::Double: {
            // An integer Qt holds as one (a plan's count, a time in ms) stays exact past 2^53.
            const double d = v.toDouble();
            const qint64 n = v.toInteger();
            if (std::isfinite(d) && double(n) == d)
                integer(n);
            else
                real(d);
            break;
        }
        case QJsonValue::String: string(v.toString()); break;
        case QJsonValue::Array: {
            startArray();
            const QJsonArray a = v.toArray();
            for (const QJsonValue &item : a)
                value(item);
            endArray();
            break;
        }
        case QJsonValue::Object: {
            startObject();
            const QJsonObject o = v.toObject();
            for (auto it = o.constBegin(); it != o.constEnd(); ++it) { // in Qt's sorted key order
                string(it.key());
                value(it.value());
            }
            endObject();
            break;
        }
        case QJsonValue::Null:
        case QJsonValue::Undefined: m_writer.Null(); break;
        }
    }

private:
    JsonByteArrayStream m_stream;
    rapidjson::Writer<JsonByteArrayStream> m_writer;
    QByteArray m_utf8; // one string's UTF-8 at a time, its capacity kept
    QStringEncoder m_encoder{QStringConverter::Utf8, QStringConverter::Flag::Stateless};
};

} // namespace

void appendJson(QByteArray &out, const QJsonValue &value)
{
    QtJsonWriter(out).value(value);
}

QByteArray attemptsJson(const QList<AttemptRecord> &rows)
{
    QByteArray out;
    out.reserve(rows.size() * 512);
    appendAttemptsJson(out, rows);
    return out;
}

void appendAttemptsJson(QByteArray &out, const QList<AttemptRecord> &rows)
{
    QtJsonWriter w(out);
    const auto text = [&w](const auto &key, const QString &value) {
        w.key(key);
        w.string(value);
    };
    const auto textIfAny = [&text](const auto &key, const QString &value) {
        if (!value.isEmpty())
            text(key, value);
    };
    const auto integer = [&w](const auto &key, qint64 value) {
        w.key(key);
        w.integer(value);
    };
    w.startArray();
    for (const AttemptRecord &a : rows) {
        // The members of AttemptRecord::toJson, in the order Qt's writer puts them (sorted by UTF-16).
        w.startObject();
        w.key("dispatched");
        w.boolean(a.dispatched);
        integer("durationMs", a.durationMs);
        integer("inputTokens", a.inputTokens);
        text("model", a.model);
        textIfAny("nodePrice", a.nodePrice);
        textIfAny("nodeSharer", a.nodeSharer);
        text("outcome", a.outcome);
        integer("outputTokens", a.outputTokens);
        if (!a.plan.isEmpty()) {
            w.key("plan");
            w.value(a.plan);
        }
        text("provider", a.provider);
        w.key("quoteUsd");
        w.real(a.quoteUsd);
        text("reason", a.reason);
        integer("seq", a.seq);
        text("sharer", a.sharer);
        text("sharerName", a.sharerName);
        textIfAny("skip", a.skip);
        integer("startedMs", a.startedMs);
        integer("status", a.status);
        text("target", a.target);
        integer("ttfbMs", a.ttfbMs);
        w.endObject();
    }
    w.endArray();
}

} // namespace Aile::Store
