#pragma once

#include "Conversation.h"

#include <QtCore/QJsonObject>
#include <QtCore/QString>

namespace Aile::Translate {

/// Codex's freeform tools (a Responses `custom` tool such as apply_patch: its input is plain text
/// following a grammar, not JSON arguments) travel to another wire as a function tool with one
/// string parameter, "input", the grammar told in its description; the call comes back as a
/// Responses custom_tool_call whose input is that string (docs/translation.md "Codex's apply_patch").
Tool functionToolForCustom(const QJsonObject &customTool);
/// A custom_tool_call in a Responses history, as the function call the other wire carries.
Part callForCustomInput(const QString &callId, const QString &name, const QString &input);
/// The freeform input of a function call made of a custom tool: its "input" string.
QString customInput(const QString &arguments);

/// Reads the "input" string out of a function call's JSON arguments as they stream in pieces, and
/// returns each piece's newly decoded text at once (escapes split between pieces wait for the rest).
class CustomInputStream
{
public:
    QString feed(const QString &piece);

private:
    QString m_json;      // the arguments so far
    qsizetype m_at = -1; // where the input string's next undecoded character is; -1 before it starts
    bool m_done = false;
};

} // namespace Aile::Translate
