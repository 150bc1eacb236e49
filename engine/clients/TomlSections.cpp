#include "TomlSections.h"

namespace Aile::Clients {

namespace {

enum class Mode { Normal, MultiBasic, MultiLiteral };

// "a . b" and "a.b" name the same table; quotes around plain names too ("aile" = aile).
QString normalName(QString name)
{
    name.remove(QLatin1Char(' '));
    name.remove(QLatin1Char('\t'));
    name.remove(QLatin1Char('"'));
    name.remove(QLatin1Char('\''));
    return name;
}

bool inFamily(const QString &name, const QString &table)
{
    return name == table || name.startsWith(table + QLatin1Char('.'));
}

// Moves through one line from mode, counting the brackets of arrays left open; a comment ends
// it. Sets *unterminated when a one-line string is not closed on its line.
void scanLine(const QString &line, Mode *mode, int *depth, bool *unterminated)
{
    const int n = int(line.size());
    int i = 0;
    while (i < n) {
        if (*mode == Mode::MultiBasic) {
            if (line.at(i) == QLatin1Char('\\')) {
                i += 2;
                continue;
            }
            if (QStringView(line).mid(i).startsWith(QLatin1String("\"\"\""))) {
                *mode = Mode::Normal;
                i += 3;
                continue;
            }
            ++i;
            continue;
        }
        if (*mode == Mode::MultiLiteral) {
            if (QStringView(line).mid(i).startsWith(QLatin1String("'''"))) {
                *mode = Mode::Normal;
                i += 3;
                continue;
            }
            ++i;
            continue;
        }
        const QChar c = line.at(i);
        if (c == QLatin1Char('#'))
            return;
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            const QString three(3, c);
            if (QStringView(line).mid(i).startsWith(three)) {
                *mode = c == QLatin1Char('"') ? Mode::MultiBasic : Mode::MultiLiteral;
                i += 3;
                continue;
            }
            int j = i + 1;
            while (j < n && line.at(j) != c && line.at(j) != QLatin1Char('\n') && line.at(j) != QLatin1Char('\r')) {
                if (c == QLatin1Char('"') && line.at(j) == QLatin1Char('\\'))
                    ++j;
                ++j;
            }
            if (j >= n || line.at(j) != c)
                *unterminated = true;
            i = j + 1;
            continue;
        }
        if (c == QLatin1Char('[') || c == QLatin1Char('{'))
            ++*depth;
        else if ((c == QLatin1Char(']') || c == QLatin1Char('}')) && *depth > 0)
            --*depth;
        ++i;
    }
}

// The key of a key/value line: what comes before the first '=' outside quotes.
QString keyOf(const QString &line)
{
    QChar quote;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
        } else if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            quote = c;
        } else if (c == QLatin1Char('=')) {
            return line.left(i).trimmed();
        }
    }
    return line.trimmed();
}

} // namespace

TomlSections::TomlSections(const QString &text)
{
    int start = 0;
    while (start < text.size()) {
        const int nl = int(text.indexOf(QLatin1Char('\n'), start));
        const int end = nl < 0 ? int(text.size()) : nl + 1;
        m_lines << text.mid(start, end - start);
        start = end;
    }
    scan();
}

void TomlSections::scan()
{
    m_entries.clear();
    m_unterminated = false;
    QString table;
    int i = 0;
    while (i < m_lines.size()) {
        Entry e;
        e.first = i;
        const QString trimmed = m_lines.at(i).trimmed();
        Mode mode = Mode::Normal;
        int depth = 0;
        if (trimmed.isEmpty()) {
            e.kind = Entry::Blank;
        } else if (trimmed.startsWith(QLatin1Char('#'))) {
            e.kind = Entry::Comment;
        } else if (trimmed.startsWith(QLatin1Char('['))) {
            e.kind = Entry::Header;
            const bool array = trimmed.startsWith(QLatin1String("[["));
            const int close = int(trimmed.indexOf(QLatin1Char(']')));
            e.name = normalName(trimmed.mid(array ? 2 : 1, (close < 0 ? trimmed.size() : close) - (array ? 2 : 1)));
            table = e.name;
        } else {
            e.kind = Entry::KeyValue;
            e.name = normalName(keyOf(trimmed));
            e.table = table;
            scanLine(m_lines.at(i), &mode, &depth, &m_unterminated);
            // A value that goes on: a multi-line string or an array left open.
            while ((mode != Mode::Normal || depth > 0) && i + 1 < m_lines.size()) {
                ++i;
                scanLine(m_lines.at(i), &mode, &depth, &m_unterminated);
            }
            if (mode != Mode::Normal)
                m_unterminated = true;
        }
        e.last = i;
        m_entries << e;
        ++i;
    }
}

QString TomlSections::eol() const
{
    for (const QString &l : m_lines)
        if (l.endsWith(QLatin1String("\r\n")))
            return QStringLiteral("\r\n");
    return QStringLiteral("\n");
}

void TomlSections::setTopLevel(const QString &key, const QString &value)
{
    const QString line = key + QStringLiteral(" = ") + value;
    int after = -1;
    for (const Entry &e : std::as_const(m_entries)) {
        if (e.kind == Entry::Header)
            break;
        if (e.kind != Entry::KeyValue)
            continue;
        if (e.name == key) {
            const bool hadEol = m_lines.at(e.last).endsWith(QLatin1Char('\n'));
            for (int i = e.last; i > e.first; --i)
                m_lines.removeAt(i);
            m_lines[e.first] = line + (hadEol ? eol() : QString());
            scan();
            return;
        }
        after = e.last;
    }
    if (after >= 0 && !m_lines.at(after).endsWith(QLatin1Char('\n')))
        m_lines[after] += eol();
    m_lines.insert(after + 1, line + eol());
    scan();
}

void TomlSections::setTable(const QString &name, const QStringList &bodyLines)
{
    QStringList block{QLatin1Char('[') + name + QLatin1Char(']') + eol()};
    for (const QString &l : bodyLines)
        block << l + eol();
    // Each section of the family runs from its header to its last key; what follows stays.
    QList<QPair<int, int>> ranges;
    for (int k = 0; k < m_entries.size(); ++k) {
        const Entry &h = m_entries.at(k);
        if (h.kind != Entry::Header || !inFamily(h.name, name))
            continue;
        int end = h.last;
        for (int j = k + 1; j < m_entries.size() && m_entries.at(j).kind != Entry::Header; ++j)
            if (m_entries.at(j).kind == Entry::KeyValue)
                end = m_entries.at(j).last;
        ranges.append({h.first, end});
    }
    if (ranges.isEmpty()) {
        if (!m_lines.isEmpty() && !m_lines.last().endsWith(QLatin1Char('\n')))
            m_lines.last() += eol();
        if (!m_lines.isEmpty() && !m_lines.last().trimmed().isEmpty())
            m_lines << eol();
        m_lines << block;
        scan();
        return;
    }
    for (qsizetype r = ranges.size() - 1; r >= 0; --r) {
        const bool hadEol = m_lines.at(ranges.at(r).second).endsWith(QLatin1Char('\n'));
        for (int i = ranges.at(r).second; i >= ranges.at(r).first; --i)
            m_lines.removeAt(i);
        if (r == 0) {
            if (!hadEol)
                block.last().chop(eol().size());
            for (qsizetype b = block.size() - 1; b >= 0; --b)
                m_lines.insert(ranges.at(0).first, block.at(b));
        }
    }
    scan();
}

QString TomlSections::conflict(const QString &table) const
{
    if (m_unterminated)
        return QStringLiteral("a string is not closed");
    for (const Entry &e : m_entries) {
        if (e.kind != Entry::KeyValue)
            continue;
        const QString full = e.table.isEmpty() ? e.name : e.table + QLatin1Char('.') + e.name;
        if (inFamily(e.table, table))
            continue;
        if (inFamily(full, table) || table.startsWith(full + QLatin1Char('.')))
            return QStringLiteral("%1 is defined as a key (%2), not as a [%3] table").arg(table, full, table);
    }
    return {};
}

QString TomlSections::value(const QString &table, const QString &key) const
{
    for (const Entry &e : m_entries) {
        if (e.kind != Entry::KeyValue || e.table != table || e.name != key)
            continue;
        QString v;
        for (int i = e.first; i <= e.last; ++i)
            v += m_lines.at(i);
        v = v.mid(v.indexOf(QLatin1Char('=')) + 1).trimmed();
        const QChar q = v.isEmpty() ? QChar() : v.at(0);
        if (q == QLatin1Char('"') || q == QLatin1Char('\'')) {
            QString out;
            for (int i = 1; i < v.size() && v.at(i) != q; ++i) {
                if (q == QLatin1Char('"') && v.at(i) == QLatin1Char('\\') && i + 1 < v.size())
                    ++i;
                out += v.at(i);
            }
            return out;
        }
        const int hash = int(v.indexOf(QLatin1Char('#')));
        return (hash < 0 ? v : v.left(hash)).trimmed();
    }
    return {};
}

QString TomlSections::text() const
{
    return m_lines.join(QString());
}

} // namespace Aile::Clients
