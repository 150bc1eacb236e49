#pragma once

#include "ConfigProblem.h"

#include <QtCore/QByteArray>
#include <QtCore/QHash>
#include <QtCore/QJsonDocument>

namespace Aile::Config {

/// A JSONC document (comments and trailing commas allowed) with what QJsonDocument does not
/// give: where each object member and array element sits (line and column, for error messages)
/// and whether an object names a member twice (an error here, not "the last one wins").
/// QJsonDocument still reads the values.
class JsoncText
{
public:
    explicit JsoncText(const QByteArray &text);

    /// The parsed document; null when the text is not JSON.
    const QJsonDocument &document() const { return m_document; }
    /// Syntax errors and duplicated names, each with its place.
    const QList<Problem> &problems() const { return m_problems; }

    struct Position
    {
        int line = 0;   // 1-based; 0: unknown
        int column = 0; // 1-based, in characters
    };
    /// Where the member or element a JSON pointer names starts ("/sharers/0/priority": the
    /// "priority" key), or the nearest enclosing one that exists.
    Position positionOf(const QString &pointer) const;
    Position positionAt(qsizetype offset) const;
    /// Where a problem sits: its offset when it has one, else its pointer.
    Position positionOf(const Problem &problem) const;

private:
    void index(const QByteArray &clean);

    QByteArray m_text;
    QJsonDocument m_document;
    QList<Problem> m_problems;
    QHash<QString, qsizetype> m_offsets; // JSON pointer → offset of the member's name or the element
};

/// Comments (// and /* */ outside strings) and trailing commas replaced by spaces, so every
/// byte keeps its offset (and line and column) in the original text.
QByteArray stripJsonc(const QByteArray &text);

} // namespace Aile::Config
