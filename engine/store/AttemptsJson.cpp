#include "AttemptsJson.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QLocale>
#include <QtCore/QStringEncoder>

#include <charconv>
#include <cmath>

namespace Aile::Store {

namespace {

// RFC 8259 escapes, as Qt's writer spells them: the two-character forms where JSON has one, \u00xx
// (lower-case hex) for the other control characters; everything else as UTF-8.
void appendString(QByteArray &out, QStringView s)
{
    out.append('"');
    qsizetype plain = 0; // the start of the run of characters that need no escape
    const auto flush = [&](qsizetype end) {
        if (end > plain) {
            const qsizetype at = out.size();
            out.resize(at + (end - plain) * 3);
            QStringEncoder utf8(QStringConverter::Utf8, QStringConverter::Flag::Stateless);
            const char *stop = utf8.appendToBuffer(out.data() + at, s.sliced(plain, end - plain));
            out.resize(stop - out.constData());
        }
    };
    for (qsizetype i = 0; i < s.size(); ++i) {
        const char16_t c = s.at(i).unicode();
        if (c >= 0x20 && c != u'"' && c != u'\\')
            continue;
        flush(i);
        plain = i + 1;
        switch (c) {
        case u'"': out.append("\\\""); break;
        case u'\\': out.append("\\\\"); break;
        case u'\b': out.append("\\b"); break;
        case u'\f': out.append("\\f"); break;
        case u'\n': out.append("\\n"); break;
        case u'\r': out.append("\\r"); break;
        case u'\t': out.append("\\t"); break;
        default: {
            static const char hex[] = "0123456789abcdef";
            const char escaped[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};
            out.append(escaped, sizeof escaped);
        }
        }
    }
    flush(s.size());
    out.append('"');
}

void appendInteger(QByteArray &out, qint64 n)
{
    char digits[24];
    const auto [end, ec] = std::to_chars(std::begin(digits), std::end(digits), n);
    out.append(digits, end - digits);
}

// Qt keeps a whole double within 2^53 as an integer and writes it so; other doubles in their
// shortest form; a non-finite one as null.
void appendDouble(QByteArray &out, double d)
{
    if (!std::isfinite(d))
        out.append("null");
    else if (d == std::trunc(d) && std::fabs(d) <= 9007199254740992.0)
        appendInteger(out, qint64(d));
    else
        out.append(QByteArray::number(d, 'g', QLocale::FloatingPointShortest));
}

void appendKey(QByteArray &out, const char *key)
{
    out.append('"').append(key).append("\":");
}

} // namespace

void appendJson(QByteArray &out, const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Bool: out.append(value.toBool() ? "true" : "false"); break;
    case QJsonValue::Double: appendDouble(out, value.toDouble()); break;
    case QJsonValue::String: appendString(out, value.toString()); break;
    case QJsonValue::Array: {
        out.append('[');
        const QJsonArray a = value.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (i)
                out.append(',');
            appendJson(out, a.at(i));
        }
        out.append(']');
        break;
    }
    case QJsonValue::Object: {
        out.append('{');
        const QJsonObject o = value.toObject();
        bool first = true;
        for (auto it = o.constBegin(); it != o.constEnd(); ++it) { // QJsonObject iterates in Qt's sorted key order
            if (!first)
                out.append(',');
            first = false;
            appendString(out, it.key());
            out.append(':');
            appendJson(out, it.value());
        }
        out.append('}');
        break;
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined: out.append("null"); break;
    }
}

QByteArray attemptsJson(const QList<AttemptRecord> &rows)
{
    QByteArray out;
    out.reserve(rows.size() * 512);
    out.append('[');
    // One member after another, each after a comma (the first of a row is written before them).
    const auto text = [&out](const char *key, const QString &value) {
        appendKey(out.append(','), key);
        appendString(out, value);
    };
    const auto textIfAny = [&text](const char *key, const QString &value) {
        if (!value.isEmpty())
            text(key, value);
    };
    const auto integer = [&out](const char *key, qint64 value) {
        appendKey(out.append(','), key);
        appendInteger(out, value);
    };
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const AttemptRecord &a = rows.at(i);
        if (i)
            out.append(',');
        // The keys of AttemptRecord::toJson in the order Qt's writer puts them (sorted by UTF-16).
        appendKey(out.append('{'), "dispatched");
        out.append(a.dispatched ? "true" : "false");
        integer("durationMs", a.durationMs);
        integer("inputTokens", a.inputTokens);
        text("model", a.model);
        textIfAny("nodePrice", a.nodePrice);
        textIfAny("nodeSharer", a.nodeSharer);
        text("outcome", a.outcome);
        integer("outputTokens", a.outputTokens);
        if (!a.plan.isEmpty()) {
            appendKey(out.append(','), "plan");
            appendJson(out, a.plan);
        }
        text("provider", a.provider);
        appendKey(out.append(','), "quoteUsd");
        appendDouble(out, a.quoteUsd);
        text("reason", a.reason);
        integer("seq", a.seq);
        text("sharer", a.sharer);
        text("sharerName", a.sharerName);
        textIfAny("skip", a.skip);
        integer("startedMs", a.startedMs);
        integer("status", a.status);
        text("target", a.target);
        integer("ttfbMs", a.ttfbMs);
        out.append('}');
    }
    out.append(']');
    return out;
}

} // namespace Aile::Store
