#pragma once

#include <QtCore/QCoreApplication>
#include <QtCore/QList>
#include <QtCore/QString>

namespace Aile::Ui {

/// Ready-to-paste settings that point a coding tool or an SDK at the proxy, as the real clients
/// expect them (see CLIENTS.md in the project's shared notes): Claude Code by environment
/// variables, the Codex CLI by a config.toml provider block, OpenCode by its config JSON, and
/// the OpenAI and Anthropic SDKs by base URL and key.
class ClientSnippets
{
    Q_DECLARE_TR_FUNCTIONS(Aile::Ui::ClientSnippets)
public:
    enum class Tool { ClaudeCode, Codex, OpenCode, OpenAiSdk, AnthropicSdk };
    /// Which wire a tool speaks, for the connection test.
    enum class Wire { Messages, Responses, ChatCompletions };

    struct Block
    {
        QString caption;   // where it goes ("~/.codex/config.toml"), translated
        QString code;      // what to paste, never translated
    };

    static QList<Tool> tools();
    static QString name(Tool tool);
    /// A sentence on how the tool picks up the settings and what to know.
    static QString note(Tool tool);
    static Wire wire(Tool tool);
    /// The model the snippet and the test use when none was picked.
    static QString defaultModel(Tool tool);

    /// baseUrl: the proxy's root ("http://127.0.0.1:2453"); key: the local key, or empty for a
    /// placeholder; model: "provider/model" or empty for the tool's default.
    static QList<Block> blocks(Tool tool, const QString &baseUrl, const QString &key, const QString &model);
    static QString keyPlaceholder();
};

} // namespace Aile::Ui
