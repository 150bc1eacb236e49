#include "HeaderRules.h"

#include "HttpHeaders.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

#include <array>

namespace Aile::Http {

namespace {

// RFC 9110's tchar as a table: every header name of every request and answer is checked byte by byte.
constexpr std::array<bool, 256> TcharTable = [] {
    std::array<bool, 256> t{};
    for (int c = '0'; c <= '9'; ++c)
        t[size_t(c)] = true;
    for (int c = 'a'; c <= 'z'; ++c)
        t[size_t(c)] = t[size_t(c - 'a' + 'A')] = true;
    for (const char c : {'!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~'})
        t[static_cast<unsigned char>(c)] = true;
    return t;
}();

bool isTchar(unsigned char c)
{
    return TcharTable[c];
}

} // namespace

bool isToken(QByteArrayView name)
{
    if (name.isEmpty())
        return false;
    for (char c : name)
        if (!isTchar(static_cast<unsigned char>(c)))
            return false;
    return true;
}

bool isFieldValue(QByteArrayView value)
{
    for (char ch : value) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return false;
    }
    return true;
}

bool isHeadSafe(QByteArrayView value)
{
    for (char c : value)
        if (c == '\r' || c == '\n' || c == '\0')
            return false;
    return true;
}

bool isAscii(QByteArrayView bytes)
{
    for (const char c : bytes)
        if (static_cast<unsigned char>(c) >= 0x80)
            return false;
    return true;
}

bool hasControlCharacter(QStringView text)
{
    for (QChar ch : text) {
        const char16_t c = ch.unicode();
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029)
            return true;
    }
    return false;
}

QString controlCharacterRefusal(const QString &what, QStringView text)
{
    if (!hasControlCharacter(text))
        return {};
    return QStringLiteral("%1 holds a control character (%2); names of models, routes and sharers are plain text "
                          "without line breaks or control characters")
        .arg(what, printable(text.toUtf8()));
}

QString requestNameRefusal(const HttpHeaders &headers, const QJsonObject &body)
{
    if (QString bad = controlCharacterRefusal(QStringLiteral("\"model\""), body.value(QLatin1String("model")).toString()); !bad.isEmpty())
        return bad;
    for (const QJsonValue &v : body.value(QLatin1String("models")).toArray())
        if (QString bad = controlCharacterRefusal(QStringLiteral("\"models\""), v.toString()); !bad.isEmpty())
            return bad;
    // Header bytes below 0x20 are refused by the parser; what is left are control characters
    // that only exist once the value is read as UTF-8 (C1, U+2028, U+2029): an ASCII value has
    // none. One pass over the head, in the order the headers came (the first bad one is named).
    static const QByteArrayView named[] = {"x-aile-sharer",           "x-aile-lender",  "x-aile-exclude-sharer", "x-aile-exclude-lender",
                                           "x-aile-exclude-provider", "x-aile-session", "x-aile-node"};
    for (const HttpHeaders::Entry &h : headers.entries()) {
        if (!h.first.startsWith("x-aile-") || isAscii(h.second))
            continue;
        for (const QByteArrayView name : named)
            if (h.first == name)
                if (QString bad = controlCharacterRefusal(QLatin1String(name), QString::fromUtf8(h.second)); !bad.isEmpty())
                    return bad;
    }
    return {};
}

QString printable(QByteArrayView bytes, qsizetype limit)
{
    QString out;
    const qsizetype n = qMin(bytes.size(), limit);
    for (qsizetype i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            out += QLatin1Char(char(c));
        else
            out += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
    }
    if (bytes.size() > limit)
        out += QStringLiteral("…");
    return out;
}

} // namespace Aile::Http
