#pragma once

#include "http/HttpHeaders.h"

#include <QtCore/QString>

namespace Aile::Routing {

/// Which tool sent a request, from the headers it really sends (../shared/CLIENTS.md).
enum class ClientKind { Unknown, ClaudeCode, Codex, OpenCode, OpenAISdk, AnthropicSdk };

ClientKind detectClient(const Http::HttpHeaders &headers);
QString clientName(ClientKind kind);

} // namespace Aile::Routing
