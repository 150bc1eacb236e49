#pragma once

#include <QtCore/QString>
#include <QtCore/QStringList>

namespace Aile::Clients {

/// A small line-based editor for the one TOML file Aile writes into (the Codex CLI's config.toml):
/// it replaces one top-level key or one table and leaves every other byte as it was (comments,
/// blank lines, key order, quoting, line endings). It reads just enough TOML to know where a
/// logical line ends: strings (basic, literal, multi-line), comments and arrays that span lines,
/// so a "[" inside a string or an array is never taken for a table header.
class TomlSections
{
public:
    explicit TomlSections(const QString &text);

    /// Sets `key = value` among the top-level keys (before the first table), replacing the
    /// key's whole logical line when it is there, else adding it after the last top-level key
    /// (or at the start of the file). value is TOML already (quoted by the caller).
    void setTopLevel(const QString &key, const QString &value);
    /// Replaces table `name` and its sub-tables ([name.x]) by `[name]` followed by bodyLines;
    /// the comments and blank lines after the table's last key stay (they belong to what
    /// follows). A table that is not there is appended at the end, after a blank line.
    void setTable(const QString &name, const QStringList &bodyLines);
    /// Why the file cannot be edited safely, or empty: the table defined another way (a dotted
    /// key, an inline table) or an unterminated string.
    QString conflict(const QString &table) const;

    QString text() const;
    /// The value of key in table (empty: top level) as written, without a trailing comment; a
    /// basic or literal string comes back unquoted. Empty when the key is not there.
    QString value(const QString &table, const QString &key) const;

private:
    struct Entry
    {
        enum Kind { Blank, Comment, Header, KeyValue } kind = Blank;
        int first = 0; // lines [first, last]
        int last = 0;
        QString name;  // the table of a header; the key of a key/value line (raw, trimmed)
        QString table; // the table a key/value line sits in (empty: top level)
    };
    void scan();
    QString eol() const;

    QStringList m_lines; // each with its own line ending, if it had one
    QList<Entry> m_entries;
    bool m_unterminated = false;
};

} // namespace Aile::Clients
