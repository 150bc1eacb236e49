#pragma once

#include "ClientSnippets.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>

namespace Aile::Clients {

/// What "Apply for me" writes for one tool: the proxy's root URL, the local key, the model and
/// whether the tool keeps its own subscription login (the key then travels in x-aile-key).
struct ToolSetup
{
    ClientSnippets::Tool tool = ClientSnippets::Tool::ClaudeCode;
    QString baseUrl; // "http://127.0.0.1:2453"
    QString key;     // the local key, written into the tool's file
    QString model;   // "provider/model"
    bool ownLogin = false;
};

/// The edit itself, bytes in and bytes out, with no file system: Aile's part of one tool's
/// configuration file set to a ToolSetup, everything else left alone (docs/getting-started.md,
/// "Apply for me").
///
/// - Claude Code, ~/.claude/settings.json: only keys of the "env" object (ANTHROPIC_BASE_URL,
///   the key, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, ANTHROPIC_MODEL for a model of another
///   provider); the credentials that would replace Aile's are taken out of "env".
/// - Codex CLI, config.toml: the top-level model and model_provider lines and the
///   [model_providers.aile] table; every other byte is kept (TomlSections).
/// - OpenCode, opencode.json: provider.aile and the top-level model.
/// JSON files are read and written with QJsonDocument: other keys and values stay, but the file
/// comes back indented by four spaces with its keys in alphabetical order.
class ToolConfigEdit
{
public:
    /// Whether Aile can apply settings for the tool (not for the SDKs, which take them in code).
    static bool supports(ClientSnippets::Tool tool);
    /// The file's new bytes; empty with *error set when the file cannot be edited safely (not
    /// JSON, JSON with comments, a TOML table defined another way).
    static QByteArray edit(const ToolSetup &setup, const QByteArray &before, QString *error);
    /// The names of what the edit owns in the file, for the dialog ("env.ANTHROPIC_BASE_URL, …").
    static QString ownedParts(ClientSnippets::Tool tool);
};

} // namespace Aile::Clients
