#include "ClientKind.h"

namespace Aile::Routing {

ClientKind detectClient(const Http::HttpHeaders &headers)
{
    const QByteArray ua = headers.value("user-agent");
    // Claude Code: "claude-cli/<version> (external, cli|sdk-cli)", x-app: cli, and its session header.
    if (ua.startsWith("claude-cli/") || headers.has("x-claude-code-session-id"))
        return ClientKind::ClaudeCode;
    // Codex CLI: originator codex_exec / codex-tui / codex_cli_rs, user-agent codex_…
    const QByteArray originator = headers.value("originator");
    if (originator.startsWith("codex") || ua.startsWith("codex_") || ua.startsWith("codex-"))
        return ClientKind::Codex;
    if (ua.startsWith("opencode/") || (headers.has("x-session-affinity") && headers.has("x-session-id")))
        return ClientKind::OpenCode;
    if (ua.startsWith("OpenAI/"))
        return ClientKind::OpenAISdk;
    if (ua.startsWith("Anthropic/"))
        return ClientKind::AnthropicSdk;
    return ClientKind::Unknown;
}

QString clientName(ClientKind kind)
{
    switch (kind) {
    case ClientKind::ClaudeCode: return QStringLiteral("claude-code");
    case ClientKind::Codex: return QStringLiteral("codex");
    case ClientKind::OpenCode: return QStringLiteral("opencode");
    case ClientKind::OpenAISdk: return QStringLiteral("openai-sdk");
    case ClientKind::AnthropicSdk: return QStringLiteral("anthropic-sdk");
    case ClientKind::Unknown: break;
    }
    return QStringLiteral("other");
}

} // namespace Aile::Routing
