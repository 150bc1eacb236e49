#pragma once

#include "ToolConfigEdit.h"

#include <QtCore/QByteArray>
#include <QtCore/QList>
#include <QtCore/QPair>
#include <QtCore/QString>

namespace Aile::Clients {

/// One HTTP request of a tool's start-up path.
struct RequestStep
{
    QByteArray method; // HEAD, GET, POST
    QString url;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body; // empty for HEAD and GET
    QString label;   // "HEAD /", "GET /v1/models", "POST /v1/messages"
};

/// "Test connection" after Apply for me: the requests the tool itself makes at start, built from
/// what its settings file now holds (so the test proves the file, not the dialog's fields), as
/// CLIENTS.md saw the real clients send them:
/// - Claude Code: HEAD of the base URL (a 404 is harmless), then one streamed
///   POST /v1/messages?beta=true with its x-app and user-agent headers.
/// - Codex: GET {base_url}/models?client_version=…, then one streamed POST {base_url}/responses
///   with originator codex_exec.
/// - OpenCode: one streamed POST {baseURL}/chat/completions.
class ToolRequestPath
{
public:
    /// The settings Apply wrote, read back from the file's bytes: false with *error when the file
    /// holds no Aile settings for the tool. fallbackModel: Claude Code's model when the file
    /// names none (a claude model is left to the tool's own choice).
    static bool readApplied(const QByteArray &file, const QString &fallbackModel, ToolSetup *setup, QString *error);
    static QList<RequestStep> steps(const ToolSetup &setup);
};

} // namespace Aile::Clients
