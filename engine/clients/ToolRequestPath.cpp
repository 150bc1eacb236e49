#include "ToolRequestPath.h"

#include "TomlSections.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QtCore/QUrl>
#include <QtCore/QUuid>

namespace Aile::Clients {

namespace {

using Tool = ClientSnippets::Tool;

// The versions CLIENTS.md saw; the engine recognises the tools by these headers.
const QByteArray ClaudeAgent = "claude-cli/2.1.197 (external, sdk-cli)";
const QByteArray CodexVersion = "0.171.0";
const QString Prompt = QStringLiteral("Reply with OK.");

QString withoutV1(QString url)
{
    if (url.endsWith(QLatin1String("/v1")))
        url.chop(3);
    return url;
}

QString pathOf(const QString &url)
{
    const QUrl u(url);
    return u.path().isEmpty() ? QStringLiteral("/") : u.path();
}

bool readClaude(const QJsonObject &root, const QString &fallbackModel, ToolSetup *s)
{
    const QJsonObject env = root.value(QLatin1String("env")).toObject();
    s->baseUrl = env.value(QLatin1String("ANTHROPIC_BASE_URL")).toString();
    s->key = env.value(QLatin1String("ANTHROPIC_API_KEY")).toString();
    const QString headers = env.value(QLatin1String("ANTHROPIC_CUSTOM_HEADERS")).toString();
    if (s->key.isEmpty() && headers.startsWith(QLatin1String("x-aile-key:"))) {
        s->key = headers.mid(11).trimmed();
        s->ownLogin = true;
    }
    s->model = env.value(QLatin1String("ANTHROPIC_MODEL")).toString(fallbackModel);
    return !s->baseUrl.isEmpty() && !s->key.isEmpty();
}

bool readCodex(const QByteArray &file, ToolSetup *s)
{
    const TomlSections toml(QString::fromUtf8(file));
    const QString table = QStringLiteral("model_providers.aile");
    if (toml.value(QString(), QStringLiteral("model_provider")) != QLatin1String("aile"))
        return false;
    s->baseUrl = withoutV1(toml.value(table, QStringLiteral("base_url")));
    s->model = toml.value(QString(), QStringLiteral("model"));
    s->key = toml.value(table, QStringLiteral("experimental_bearer_token"));
    if (s->key.isEmpty()) {
        static const QRegularExpression header(QStringLiteral("\"x-aile-key\"\\s*=\\s*\"([^\"]+)\""));
        s->key = header.match(toml.value(table, QStringLiteral("http_headers"))).captured(1);
        s->ownLogin = !s->key.isEmpty();
    }
    return !s->baseUrl.isEmpty() && !s->key.isEmpty();
}

bool readOpenCode(const QJsonObject &root, ToolSetup *s)
{
    const QJsonObject aile = root.value(QLatin1String("provider")).toObject().value(QLatin1String("aile")).toObject();
    const QJsonObject options = aile.value(QLatin1String("options")).toObject();
    s->baseUrl = withoutV1(options.value(QLatin1String("baseURL")).toString());
    s->key = options.value(QLatin1String("apiKey")).toString();
    const QString model = root.value(QLatin1String("model")).toString();
    s->model = model.startsWith(QLatin1String("aile/")) ? model.mid(5) : aile.value(QLatin1String("models")).toObject().keys().value(0);
    return !s->baseUrl.isEmpty() && !s->key.isEmpty() && !s->model.isEmpty();
}

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace

bool ToolRequestPath::readApplied(const QByteArray &file, const QString &fallbackModel, ToolSetup *s, QString *error)
{
    bool ok = false;
    if (s->tool == Tool::Codex) {
        ok = readCodex(file, s);
    } else {
        const QJsonObject root = QJsonDocument::fromJson(file).object();
        ok = s->tool == Tool::ClaudeCode ? readClaude(root, fallbackModel, s) : s->tool == Tool::OpenCode && readOpenCode(root, s);
    }
    if (!ok)
        *error = QStringLiteral("the file holds no settings of Aile's for %1").arg(ClientSnippets::name(s->tool));
    return ok;
}

QList<RequestStep> ToolRequestPath::steps(const ToolSetup &s)
{
    const QByteArray key = s.key.toUtf8();
    const QByteArray session = QUuid::createUuid().toString(QUuid::WithoutBraces).toLatin1();
    const QJsonArray messages{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), Prompt}}};
    QList<RequestStep> out;
    switch (s.tool) {
    case Tool::ClaudeCode: {
        QList<QPair<QByteArray, QByteArray>> headers{
            {"user-agent", ClaudeAgent}, {"x-app", "cli"}, {"anthropic-version", "2023-06-01"}, {"x-claude-code-session-id", session}};
        headers << (s.ownLogin ? qMakePair(QByteArray("x-aile-key"), key) : qMakePair(QByteArray("x-api-key"), key));
        out << RequestStep{"HEAD", s.baseUrl, headers, {}, QStringLiteral("HEAD ") + pathOf(s.baseUrl)};
        // Claude Code sends a claude model bare; another provider's model as named.
        const QString model = s.model.startsWith(QLatin1String("claude/")) ? s.model.mid(7) : s.model;
        const QString url = s.baseUrl + QStringLiteral("/v1/messages?beta=true");
        out << RequestStep{"POST", url, headers + QList<QPair<QByteArray, QByteArray>>{{"content-type", "application/json"}},
                           json({{QStringLiteral("model"), model},
                                 {QStringLiteral("max_tokens"), 16},
                                 {QStringLiteral("stream"), true},
                                 {QStringLiteral("messages"), messages}}),
                           QStringLiteral("POST ") + pathOf(url)};
        break;
    }
    case Tool::Codex: {
        QList<QPair<QByteArray, QByteArray>> headers{
            {"originator", "codex_exec"}, {"user-agent", "codex_exec/" + CodexVersion}, {"session-id", session}};
        headers << (s.ownLogin ? qMakePair(QByteArray("x-aile-key"), key) : qMakePair(QByteArray("authorization"), "Bearer " + key));
        const QString v1 = s.baseUrl + QStringLiteral("/v1");
        out << RequestStep{"GET",
                           v1 + QStringLiteral("/models?client_version=") + QString::fromLatin1(CodexVersion),
                           headers,
                           {},
                           QStringLiteral("GET ") + pathOf(v1 + QStringLiteral("/models"))};
        const QString model = s.model.startsWith(QLatin1String("codex/")) ? s.model.mid(6) : s.model;
        const QJsonArray input{QJsonObject{{QStringLiteral("type"), QStringLiteral("message")},
                                           {QStringLiteral("role"), QStringLiteral("user")},
                                           {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("input_text")},
                                                                                              {QStringLiteral("text"), Prompt}}}}}};
        out << RequestStep{"POST", v1 + QStringLiteral("/responses"),
                           headers + QList<QPair<QByteArray, QByteArray>>{{"content-type", "application/json"}},
                           json({{QStringLiteral("model"), model},
                                 {QStringLiteral("stream"), true},
                                 {QStringLiteral("store"), false},
                                 {QStringLiteral("input"), input}}),
                           QStringLiteral("POST ") + pathOf(v1 + QStringLiteral("/responses"))};
        break;
    }
    case Tool::OpenCode: {
        const QString url = s.baseUrl + QStringLiteral("/v1/chat/completions");
        out << RequestStep{"POST",
                           url,
                           {{"authorization", "Bearer " + key}, {"x-session-id", session}, {"content-type", "application/json"}},
                           json({{QStringLiteral("model"), s.model},
                                 {QStringLiteral("max_tokens"), 16},
                                 {QStringLiteral("stream"), true},
                                 {QStringLiteral("messages"), messages}}),
                           QStringLiteral("POST ") + pathOf(url)};
        break;
    }
    case Tool::OpenAiSdk:
    case Tool::AnthropicSdk: break;
    }
    return out;
}

} // namespace Aile::Clients
