#include "ToolConfigEdit.h"

#include "TomlSections.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>

namespace Aile::Clients {

namespace {

using Tool = ClientSnippets::Tool;

const QString CodexTable = QStringLiteral("model_providers.aile");

// A TOML basic string: backslash, quote and control characters escaped.
QString tomlString(const QString &value)
{
    QString out = QStringLiteral("\"");
    for (const QChar c : value) {
        if (c == QLatin1Char('\\') || c == QLatin1Char('"'))
            out += QLatin1Char('\\') + QString(c);
        else if (c.unicode() < 0x20)
            out += QStringLiteral("\\u%1").arg(int(c.unicode()), 4, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out + QLatin1Char('"');
}

QByteArray editCodex(const ToolSetup &s, const QByteArray &before, QString *error)
{
    TomlSections toml(QString::fromUtf8(before));
    if (const QString why = toml.conflict(CodexTable); !why.isEmpty()) {
        *error = QStringLiteral("Aile edits config.toml only where it can tell its own part apart: %1. "
                                "Fix that or write the provider block by hand (aile connect codex prints it).")
                     .arg(why);
        return {};
    }
    // Codex sends the model as written: a codex model goes bare, any other keeps its provider.
    const QString model = s.model.startsWith(QLatin1String("codex/")) ? s.model.mid(6) : s.model;
    toml.setTopLevel(QStringLiteral("model"), tomlString(model));
    toml.setTopLevel(QStringLiteral("model_provider"), tomlString(QStringLiteral("aile")));
    QStringList body{QStringLiteral("# Written by Aile (aile connect codex --apply); aile connect codex --undo restores the file."),
                     QStringLiteral("name = \"Aile\""), QStringLiteral("base_url = ") + tomlString(s.baseUrl + QStringLiteral("/v1")),
                     QStringLiteral("wire_api = \"responses\"")};
    if (s.ownLogin)
        body << QStringLiteral("requires_openai_auth = true") << QStringLiteral("http_headers = { \"x-aile-key\" = %1 }").arg(tomlString(s.key));
    else
        body << QStringLiteral("experimental_bearer_token = ") + tomlString(s.key);
    toml.setTable(CodexTable, body);
    return toml.text().toUtf8();
}

bool readObject(const QByteArray &before, QJsonObject *root, QString *error)
{
    if (before.trimmed().isEmpty())
        return true;
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(before, &parse);
    if (parse.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = parse.error != QJsonParseError::NoError
                     ? QStringLiteral("the file is not plain JSON (%1 at byte %2; comments are not read)").arg(parse.errorString()).arg(parse.offset)
                     : QStringLiteral("the file holds JSON that is not an object");
        return false;
    }
    *root = doc.object();
    return true;
}

void editClaude(const ToolSetup &s, QJsonObject *root)
{
    QJsonObject env = root->value(QLatin1String("env")).toObject();
    env.insert(QStringLiteral("ANTHROPIC_BASE_URL"), s.baseUrl);
    env.insert(QStringLiteral("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"), QStringLiteral("1"));
    // Another credential beside Aile's would replace it (or, with the own login, replace the login).
    env.remove(QStringLiteral("ANTHROPIC_AUTH_TOKEN"));
    if (s.ownLogin) {
        env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
        env.insert(QStringLiteral("ANTHROPIC_CUSTOM_HEADERS"), QString(QStringLiteral("x-aile-key: ") + s.key));
    } else {
        env.insert(QStringLiteral("ANTHROPIC_API_KEY"), s.key);
        if (env.value(QLatin1String("ANTHROPIC_CUSTOM_HEADERS")).toString().startsWith(QLatin1String("x-aile-key:")))
            env.remove(QStringLiteral("ANTHROPIC_CUSTOM_HEADERS"));
    }
    // Claude Code's bare names go to the claude provider; any other model is named in full.
    if (!s.model.startsWith(QLatin1String("claude/")))
        env.insert(QStringLiteral("ANTHROPIC_MODEL"), s.model);
    root->insert(QStringLiteral("env"), env);
}

void editOpenCode(const ToolSetup &s, QJsonObject *root)
{
    if (root->isEmpty())
        root->insert(QStringLiteral("$schema"), QStringLiteral("https://opencode.ai/config.json"));
    QJsonObject providers = root->value(QLatin1String("provider")).toObject();
    providers.insert(QStringLiteral("aile"),
                     QJsonObject{{QStringLiteral("npm"), QStringLiteral("@ai-sdk/openai-compatible")},
                                 {QStringLiteral("name"), QStringLiteral("Aile")},
                                 {QStringLiteral("options"), QJsonObject{{QStringLiteral("baseURL"), QString(s.baseUrl + QStringLiteral("/v1"))},
                                                                         {QStringLiteral("apiKey"), s.key}}},
                                 {QStringLiteral("models"), QJsonObject{{s.model, QJsonObject{{QStringLiteral("name"), s.model}}}}}});
    root->insert(QStringLiteral("provider"), providers);
    root->insert(QStringLiteral("model"), QString(QStringLiteral("aile/") + s.model));
}

} // namespace

bool ToolConfigEdit::supports(Tool tool)
{
    return tool == Tool::ClaudeCode || tool == Tool::Codex || tool == Tool::OpenCode;
}

QByteArray ToolConfigEdit::edit(const ToolSetup &s, const QByteArray &before, QString *error)
{
    error->clear();
    if (!supports(s.tool)) {
        *error = QStringLiteral("Aile applies settings for claude-code, codex and opencode; the SDKs take theirs in code");
        return {};
    }
    if (s.key.trimmed().isEmpty() || s.baseUrl.isEmpty() || s.model.isEmpty()) {
        *error = QStringLiteral("applying needs the proxy's address, a key and a model");
        return {};
    }
    if (s.tool == Tool::Codex)
        return editCodex(s, before, error);
    QJsonObject root;
    if (!readObject(before, &root, error))
        return {};
    if (s.tool == Tool::ClaudeCode && root.contains(QLatin1String("env")) && !root.value(QLatin1String("env")).isObject()) {
        *error = QStringLiteral("its \"env\" is not an object");
        return {};
    }
    if (s.tool == Tool::OpenCode && root.contains(QLatin1String("provider")) && !root.value(QLatin1String("provider")).isObject()) {
        *error = QStringLiteral("its \"provider\" is not an object");
        return {};
    }
    const QJsonObject old = root;
    if (s.tool == Tool::ClaudeCode)
        editClaude(s, &root);
    else
        editOpenCode(s, &root);
    // Nothing to change: the file keeps its bytes (and its own formatting).
    if (root == old && !before.trimmed().isEmpty())
        return before;
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QString ToolConfigEdit::ownedParts(Tool tool)
{
    switch (tool) {
    case Tool::ClaudeCode:
        return QStringLiteral("env: ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY or ANTHROPIC_CUSTOM_HEADERS, ANTHROPIC_MODEL, "
                              "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC (ANTHROPIC_AUTH_TOKEN is taken out)");
    case Tool::Codex: return QStringLiteral("model, model_provider and [model_providers.aile]");
    case Tool::OpenCode: return QStringLiteral("provider.aile and model");
    case Tool::OpenAiSdk:
    case Tool::AnthropicSdk: break;
    }
    return {};
}

} // namespace Aile::Clients
