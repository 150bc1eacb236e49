#pragma once

#include <QtCore/QCoreApplication>
#include <QtCore/QJsonArray>
#include <QtCore/QList>
#include <QtCore/QString>

#include <optional>

namespace Aile::Clients {

/// Ready-to-paste settings that point a coding tool or an SDK at the proxy, as the real clients
/// expect them (see CLIENTS.md in the project's shared notes): Claude Code by environment
/// variables, the Codex CLI by a config.toml provider block, OpenCode by its config JSON, and
/// the OpenAI and Anthropic SDKs by base URL and key. The desktop app's Connect a tool dialog and
/// `aile connect TOOL` both print these, so they never disagree. The translation context stays the
/// desktop app's (the CLI installs no translator and prints English).
class ClientSnippets
{
    Q_DECLARE_TR_FUNCTIONS(Aile::Ui::ClientSnippets)
public:
    enum class Tool { ClaudeCode, Codex, OpenCode, OpenAiSdk, AnthropicSdk };
    /// Which wire a tool speaks, for the connection test.
    enum class Wire { Messages, Responses, ChatCompletions };

    struct Block
    {
        QString caption; // where it goes ("~/.codex/config.toml"), translated
        QString code;    // what to paste, never translated
    };

    static QList<Tool> tools();
    static QString name(Tool tool);
    /// The tool's name on the command line (aile connect claude-code): claude-code, codex,
    /// opencode, openai-sdk, anthropic-sdk.
    static QString id(Tool tool);
    static std::optional<Tool> fromId(const QString &id);
    /// A sentence on how the tool picks up the settings and what to know.
    static QString note(Tool tool);
    static Wire wire(Tool tool);
    /// The model the snippet and the test use when none was picked.
    static QString defaultModel(Tool tool);
    /// The wire's name in a provider's "wires" list: messages, responses or chat.
    static QString wireName(Wire wire);

    /// The model to preselect for the tool: one a sharer offers on a provider that speaks the
    /// tool's wire (Codex: Responses), the tool's own default first, then models a sharer passed
    /// a test of; empty when no sharer can serve the tool. sharers: EngineStatus / GET /sharers
    /// rows (provider, models, tested, blocked); providers: the catalogue's (id, wires).
    static QString preferredModel(Tool tool, const QJsonArray &sharers, const QJsonArray &providers);
    /// Whether some sharer offers model ("provider/model") on a provider that speaks the tool's wire.
    static bool hasSharerFor(Tool tool, const QString &model, const QJsonArray &sharers, const QJsonArray &providers);
    /// What to say when no sharer can serve the tool, naming the wire it needs.
    static QString noSharerMessage(Tool tool);

    /// baseUrl: the proxy's root ("http://127.0.0.1:2453"); key: the local key, or empty for a
    /// placeholder; model: "provider/model" or empty for the tool's default.
    static QList<Block> blocks(Tool tool, const QString &baseUrl, const QString &key, const QString &model);
    static QString keyPlaceholder();

    /// "Use this tool's own login" (docs/subscriptions.md): Claude Code and the Codex CLI keep
    /// their subscription login (Claude plan, ChatGPT) and send the local key in x-aile-key, for a
    /// sharer with "credential": "client". No ANTHROPIC_API_KEY; Codex's provider block takes
    /// requires_openai_auth and env_http_headers.
    static bool offersOwnLogin(Tool tool) { return tool == Tool::ClaudeCode || tool == Tool::Codex; }
    static QList<Block> ownLoginBlocks(Tool tool, const QString &baseUrl, const QString &key, const QString &model);
    static QString ownLoginNote(Tool tool);
};

} // namespace Aile::Clients
