#include "RawJson.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

#include <algorithm>
#include <cstring>

namespace Aile::Wire {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

qsizetype skipSpace(QByteArrayView s, qsizetype i)
{
    while (i < s.size() && isSpace(s[i]))
        ++i;
    return i;
}

// i at an opening quote: the index one past the closing one, or -1. Strings are most of a
// request body's bytes (a conversation's text), so the closing quote is looked for with memchr,
// not byte by byte: a quote closes the string unless an odd run of backslashes stands before it
// (each backslash pair is one escaped backslash; a last odd one escapes the quote).
qsizetype skipString(QByteArrayView s, qsizetype i)
{
    const char *const data = s.data();
    const qsizetype first = i + 1;
    for (qsizetype from = first; from < s.size();) {
        const auto *quote = static_cast<const char *>(std::memchr(data + from, '"', size_t(s.size() - from)));
        if (!quote)
            return -1;
        const qsizetype q = quote - data;
        qsizetype backslashes = 0;
        while (q - backslashes > first && data[q - backslashes - 1] == '\\')
            ++backslashes;
        if (backslashes % 2 == 0)
            return q + 1;
        from = q + 1;
    }
    return -1;
}

// i at a value's first byte: the index one past its last byte, or -1.
qsizetype skipValue(QByteArrayView s, qsizetype i)
{
    if (i >= s.size())
        return -1;
    if (s[i] == '"')
        return skipString(s, i);
    if (s[i] == '{' || s[i] == '[') {
        int depth = 0;
        while (i < s.size()) {
            const char c = s[i];
            if (c == '"') {
                i = skipString(s, i);
                if (i < 0)
                    return -1;
                continue;
            }
            if (c == '{' || c == '[')
                ++depth;
            else if ((c == '}' || c == ']') && --depth == 0)
                return i + 1;
            ++i;
        }
        return -1;
    }
    // A number, true, false or null: up to the next separator.
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && !isSpace(s[i]))
        ++i;
    return i;
}

} // namespace

bool topLevelMembers(QByteArrayView s, QList<RawMember> *members)
{
    members->clear();
    qsizetype i = skipSpace(s, 0);
    if (i >= s.size() || s[i] != '{')
        return false;
    i = skipSpace(s, i + 1);
    if (i < s.size() && s[i] == '}')
        return skipSpace(s, i + 1) == s.size();
    for (;;) {
        if (i >= s.size() || s[i] != '"')
            return false;
        const qsizetype keyEnd = skipString(s, i);
        if (keyEnd < 0)
            return false;
        RawMember m;
        m.key = s.sliced(i + 1, keyEnd - i - 2);
        i = skipSpace(s, keyEnd);
        if (i >= s.size() || s[i] != ':')
            return false;
        m.valueStart = skipSpace(s, i + 1);
        m.valueEnd = skipValue(s, m.valueStart);
        if (m.valueEnd < 0)
            return false;
        members->append(m);
        i = skipSpace(s, m.valueEnd);
        if (i < s.size() && s[i] == ',') {
            i = skipSpace(s, i + 1);
            continue;
        }
        if (i < s.size() && s[i] == '}')
            return skipSpace(s, i + 1) == s.size();
        return false;
    }
}

QByteArray jsonString(const QString &text)
{
    // A model id is printable ASCII with nothing to escape: written as it is, quoted. This is a
    // check, not an escaper: anything else goes to Qt's writer (a document per call was 1% of the
    // engine thread's samples, docs/performance.md "Change 4 (dispatch)").
    if (std::all_of(text.begin(), text.end(), [](QChar c) { return c.unicode() >= 0x20 && c.unicode() < 0x7f && c != u'"' && c != u'\\'; }))
        return '"' + text.toLatin1() + '"';
    // Qt's writer does the escaping: the one-element array it writes, without its brackets.
    const QByteArray array = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2);
}

} // namespace Aile::Wire
