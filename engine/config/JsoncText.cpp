#include "JsoncText.h"

#include <QtCore/QJsonArray>
#include <QtCore/QSet>

#include <cstring>

namespace Aile::Config {

QByteArray stripJsonc(const QByteArray &text)
{
    QByteArray out = text;
    auto blank = [&out](qsizetype from, qsizetype to) {
        for (qsizetype k = from; k < to && k < out.size(); ++k)
            if (out.at(k) != '\n')
                out[k] = ' ';
    };
    bool inString = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '/' && i + 1 < text.size() && text.at(i + 1) == '/') {
            const qsizetype end = text.indexOf('\n', i);
            blank(i, end < 0 ? text.size() : end);
            i = (end < 0 ? text.size() : end) - 1;
        } else if (c == '/' && i + 1 < text.size() && text.at(i + 1) == '*') {
            const qsizetype close = text.indexOf("*/", i + 2);
            const qsizetype end = close < 0 ? text.size() : close + 2;
            blank(i, end);
            i = end - 1;
        } else if (c == ',') {
            // A trailing comma: the next significant character closes the object or array. Comments
            // before it are blanked already or will be; skip them here too.
            qsizetype j = i + 1;
            while (j < text.size()) {
                const char d = text.at(j);
                if (d == ' ' || d == '\t' || d == '\r' || d == '\n') {
                    ++j;
                } else if (d == '/' && j + 1 < text.size() && text.at(j + 1) == '/') {
                    while (j < text.size() && text.at(j) != '\n')
                        ++j;
                } else if (d == '/' && j + 1 < text.size() && text.at(j + 1) == '*') {
                    const qsizetype close = text.indexOf("*/", j + 2);
                    j = close < 0 ? text.size() : close + 2;
                } else {
                    break;
                }
            }
            if (j < text.size() && (text.at(j) == '}' || text.at(j) == ']'))
                out[i] = ' ';
        }
    }
    return out;
}

namespace {

bool oneOf(char c, const char *set)
{
    return c != '\0' && std::strchr(set, c) != nullptr;
}

// Walks a document QJsonDocument has accepted, recording where each member and element starts and
// the names an object gives twice. Valid JSON is assumed; every read is bounds-checked anyway.
class Indexer
{
public:
    Indexer(const QByteArray &text, QHash<QString, qsizetype> *offsets, QList<Problem> *duplicates)
        : m_s(text), m_offsets(offsets), m_duplicates(duplicates)
    { }

    void value(const QString &pointer, int depth)
    {
        skipSpace();
        const char c = peek();
        if (depth > 512)
            return;
        if (c == '{') {
            ++m_i;
            QSet<QString> seen;
            while (m_i < m_s.size()) {
                skipSpace();
                if (peek() == '}') {
                    ++m_i;
                    return;
                }
                const qsizetype at = m_i;
                const QString name = string();
                skipSpace();
                ++m_i; // ':'
                const QString member = pointerTo(pointer, name);
                if (seen.contains(name))
                    m_duplicates->append({member, QString(), at}); // the message is written once positions are known
                else
                    m_offsets->insert(member, at);
                seen.insert(name);
                value(member, depth + 1);
                skipSpace();
                if (peek() == ',')
                    ++m_i;
            }
            return;
        }
        if (c == '[') {
            ++m_i;
            for (int n = 0; m_i < m_s.size(); ++n) {
                skipSpace();
                if (peek() == ']') {
                    ++m_i;
                    return;
                }
                m_offsets->insert(pointerTo(pointer, n), m_i);
                value(pointerTo(pointer, n), depth + 1);
                skipSpace();
                if (peek() == ',')
                    ++m_i;
            }
            return;
        }
        if (c == '"') {
            string();
            return;
        }
        while (m_i < m_s.size() && !oneOf(m_s.at(m_i), ",}] \t\r\n"))
            ++m_i;
    }

    qsizetype offset() const { return m_i; }

    void skipSpace()
    {
        while (m_i < m_s.size() && oneOf(m_s.at(m_i), " \t\r\n"))
            ++m_i;
    }

private:
    char peek() const { return m_i < m_s.size() ? m_s.at(m_i) : '\0'; }

    QString string()
    {
        const qsizetype start = m_i++;
        while (m_i < m_s.size() && m_s.at(m_i) != '"')
            m_i += m_s.at(m_i) == '\\' ? 2 : 1;
        ++m_i;
        const QByteArray raw = m_s.mid(start, m_i - start);
        if (!raw.contains('\\'))
            return QString::fromUtf8(raw.mid(1, raw.size() - 2));
        // Escapes: let QJsonDocument decode the one string.
        return QJsonDocument::fromJson("[" + raw + "]").array().at(0).toString();
    }

    const QByteArray &m_s;
    qsizetype m_i = 0;
    QHash<QString, qsizetype> *m_offsets;
    QList<Problem> *m_duplicates;
};

} // namespace

JsoncText::JsoncText(const QByteArray &text) : m_text(text)
{
    const QByteArray clean = stripJsonc(text);
    QJsonParseError error;
    m_document = QJsonDocument::fromJson(clean, &error);
    if (error.error != QJsonParseError::NoError) {
        // QJsonDocument's offset is where it stopped; the byte before it is the culprit.
        const qsizetype at = qMax(0, error.offset - 1);
        m_problems.append({QString(), QStringLiteral("not valid JSON: %1").arg(error.errorString()), at});
        m_document = QJsonDocument();
        return;
    }
    index(clean);
}

void JsoncText::index(const QByteArray &clean)
{
    QList<Problem> found;
    Indexer walker(clean, &m_offsets, &found);
    walker.skipSpace();
    m_offsets.insert(QString(), walker.offset());
    walker.value(QString(), 0);
    // The message names where the first one sits; offsets become lines and columns here.
    for (Problem &p : found) {
        const QString name =
            p.pointer.section(QLatin1Char('/'), -1).replace(QLatin1String("~1"), QLatin1String("/")).replace(QLatin1String("~0"), QLatin1String("~"));
        const Position first = positionAt(m_offsets.value(p.pointer));
        p.message = QStringLiteral("\"%1\" is given twice in the same object (first on line %2, column %3); keep one, since a second "
                                   "one would silently replace the first")
                        .arg(name)
                        .arg(first.line)
                        .arg(first.column);
        m_problems.append(p);
    }
}

JsoncText::Position JsoncText::positionAt(qsizetype offset) const
{
    Position p{1, 1};
    for (qsizetype i = 0; i < offset && i < m_text.size(); ++i) {
        const char c = m_text.at(i);
        if (c == '\n') {
            ++p.line;
            p.column = 1;
        } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
            ++p.column; // a UTF-8 continuation byte is part of the character before it
        }
    }
    return p;
}

JsoncText::Position JsoncText::positionOf(const QString &pointer) const
{
    QString p = pointer;
    while (!p.isEmpty() && !m_offsets.contains(p))
        p.truncate(qMax<qsizetype>(0, p.lastIndexOf(QLatin1Char('/'))));
    const auto it = m_offsets.constFind(p);
    if (it == m_offsets.cend())
        return {};
    return positionAt(*it);
}

JsoncText::Position JsoncText::positionOf(const Problem &problem) const
{
    return problem.offset >= 0 ? positionAt(problem.offset) : positionOf(problem.pointer);
}

} // namespace Aile::Config
