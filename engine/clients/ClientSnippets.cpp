#include "ClientSnippets.h"

#include "catalog/Sharer.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QSet>

namespace Aile::Clients {

namespace {

QString shellQuote(const QString &value)
{
    QString v = value;
    v.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + v + QLatin1Char('\'');
}

// A value in double quotes for TOML, Python and JavaScript alike.
QString quoted(const QString &value)
{
    QString v = value;
    v.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    v.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + v + QLatin1Char('"');
}

QJsonObject openCodeConfig(const QString &baseUrl, const QString &key, const QString &model)
{
    const QJsonObject provider{{QStringLiteral("npm"), QStringLiteral("@ai-sdk/openai-compatible")},
                               {QStringLiteral("name"), QStringLiteral("Aile")},
                               {QStringLiteral("options"),
                                QJsonObject{{QStringLiteral("baseURL"), QString(baseUrl + QStringLiteral("/v1"))}, {QStringLiteral("apiKey"), key}}},
                               {QStringLiteral("models"), QJsonObject{{model, QJsonObject{{QStringLiteral("name"), model}}}}}};
    return QJsonObject{{QStringLiteral("$schema"), QStringLiteral("https://opencode.ai/config.json")},
                       {QStringLiteral("provider"), QJsonObject{{QStringLiteral("aile"), provider}}}};
}

} // namespace

QList<ClientSnippets::Tool> ClientSnippets::tools()
{
    return {Tool::ClaudeCode, Tool::Codex, Tool::OpenCode, Tool::OpenAiSdk, Tool::AnthropicSdk};
}

QString ClientSnippets::name(Tool tool)
{
    switch (tool) {
    case Tool::ClaudeCode: return tr("Claude Code");
    case Tool::Codex: return tr("Codex CLI");
    case Tool::OpenCode: return tr("OpenCode");
    case Tool::OpenAiSdk: return tr("OpenAI SDK");
    case Tool::AnthropicSdk: return tr("Anthropic SDK");
    }
    return {};
}

QString ClientSnippets::note(Tool tool)
{
    switch (tool) {
    case Tool::ClaudeCode:
        return tr("Set these in the shell that starts claude (or in your shell profile). Claude Code sends bare model "
                  "names; Aile routes them to the claude provider. The last variable stops Claude Code from calling "
                  "Anthropic's own hosts for telemetry and updates.");
    case Tool::Codex:
        return tr("Codex ignores OPENAI_BASE_URL: it needs this provider block in $CODEX_HOME/config.toml "
                  "(~/.codex/config.toml by default) and the key in the AILE_KEY variable. Codex speaks only the "
                  "Responses wire. A bare model goes to the codex provider; write provider/model for another.");
    case Tool::OpenCode:
        return tr("Put the JSON in opencode.json, or pass it in OPENCODE_CONFIG_CONTENT. Run it as "
                  "opencode run -m aile/<model>. The other variables keep OpenCode from fetching model lists, "
                  "updates and language servers from the Internet; leave them out if you want those.");
    case Tool::OpenAiSdk:
        return tr("The OpenAI SDKs read OPENAI_BASE_URL and OPENAI_API_KEY, or take them in code. The base URL ends "
                  "in /v1. Name the model as provider/model.");
    case Tool::AnthropicSdk:
        return tr("The Anthropic SDKs read ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY, or take them in code. The base "
                  "URL has no /v1. Name the model as provider/model.");
    }
    return {};
}

ClientSnippets::Wire ClientSnippets::wire(Tool tool)
{
    switch (tool) {
    case Tool::ClaudeCode:
    case Tool::AnthropicSdk: return Wire::Messages;
    case Tool::Codex: return Wire::Responses;
    case Tool::OpenCode:
    case Tool::OpenAiSdk: break;
    }
    return Wire::ChatCompletions;
}

QString ClientSnippets::defaultModel(Tool tool)
{
    switch (tool) {
    case Tool::ClaudeCode:
    case Tool::AnthropicSdk: return QStringLiteral("claude/claude-sonnet-5");
    case Tool::Codex: return QStringLiteral("codex/gpt-5.5");
    case Tool::OpenCode:
    case Tool::OpenAiSdk: break;
    }
    return QStringLiteral("openai/gpt-5.2");
}

QString ClientSnippets::keyPlaceholder()
{
    return QStringLiteral("sk-aile-PASTE-YOUR-KEY");
}

QList<ClientSnippets::Block> ClientSnippets::blocks(Tool tool, const QString &baseUrl, const QString &keyIn, const QString &modelIn)
{
    const QString key = keyIn.trimmed().isEmpty() ? keyPlaceholder() : keyIn.trimmed();
    const QString model = modelIn.trimmed().isEmpty() ? defaultModel(tool) : modelIn.trimmed();
    const QString v1 = baseUrl + QStringLiteral("/v1");
    QList<Block> out;
    switch (tool) {
    case Tool::ClaudeCode: {
        // Claude Code's bare names go to the claude provider; any other model is named in full.
        const QString other =
            model.startsWith(QLatin1String("claude/")) ? QString() : QStringLiteral("export ANTHROPIC_MODEL=%1\n").arg(shellQuote(model));
        out << Block{tr("Environment variables"), QStringLiteral("export ANTHROPIC_BASE_URL=%1\n"
                                                                 "export ANTHROPIC_API_KEY=%2\n"
                                                                 "export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1\n")
                                                          .arg(baseUrl, shellQuote(key))
                                                      + other};
        out << Block{tr("Then run"), QStringLiteral("claude\n")};
        break;
    }
    case Tool::Codex: {
        // Codex sends the model as written: a codex model goes bare, any other keeps its provider.
        const QString codexModel = model.startsWith(QLatin1String("codex/")) ? model.mid(6) : model;
        out << Block{tr("$CODEX_HOME/config.toml"), QStringLiteral("model = %1\n"
                                                                   "model_provider = \"aile\"\n"
                                                                   "check_for_update_on_startup = false\n"
                                                                   "[model_providers.aile]\n"
                                                                   "name = \"Aile\"\n"
                                                                   "base_url = %2\n"
                                                                   "env_key = \"AILE_KEY\"\n"
                                                                   "wire_api = \"responses\"\n"
                                                                   "[analytics]\n"
                                                                   "enabled = false\n"
                                                                   "[otel]\n"
                                                                   "exporter = \"none\"\n"
                                                                   "metrics_exporter = \"none\"\n"
                                                                   "[features]\n"
                                                                   "plugins = false\n")
                                                        .arg(quoted(codexModel), quoted(v1))};
        out << Block{tr("Environment variables"), QStringLiteral("export AILE_KEY=%1\n").arg(shellQuote(key))};
        out << Block{tr("Then run"), QStringLiteral("codex\n")};
        break;
    }
    case Tool::OpenCode: {
        const QJsonObject config = openCodeConfig(baseUrl, key, model);
        out << Block{tr("opencode.json"), QString::fromUtf8(QJsonDocument(config).toJson(QJsonDocument::Indented))};
        out << Block{tr("Or as environment variables"), QStringLiteral("export OPENCODE_CONFIG_CONTENT=%1\n"
                                                                       "export OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1\n"
                                                                       "export OPENCODE_DISABLE_SHARE=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1\n"
                                                                       "opencode run -m %2 \"say hi\"\n")
                                                            .arg(shellQuote(QString::fromUtf8(QJsonDocument(config).toJson(QJsonDocument::Compact))),
                                                                 shellQuote(QStringLiteral("aile/") + model))};
        break;
    }
    case Tool::OpenAiSdk:
        out << Block{tr("Environment variables"), QStringLiteral("export OPENAI_BASE_URL=%1\nexport OPENAI_API_KEY=%2\n").arg(v1, shellQuote(key))};
        out << Block{tr("Python"), QStringLiteral("from openai import OpenAI\n\n"
                                                  "client = OpenAI(base_url=%1, api_key=%2)\n"
                                                  "reply = client.chat.completions.create(\n"
                                                  "    model=%3, messages=[{\"role\": \"user\", \"content\": \"say hi\"}])\n"
                                                  "print(reply.choices[0].message.content)\n")
                                       .arg(quoted(v1), quoted(key), quoted(model))};
        out << Block{tr("JavaScript"), QStringLiteral("import OpenAI from \"openai\";\n\n"
                                                      "const client = new OpenAI({ baseURL: %1, apiKey: %2 });\n"
                                                      "const reply = await client.chat.completions.create({\n"
                                                      "  model: %3, messages: [{ role: \"user\", content: \"say hi\" }] });\n"
                                                      "console.log(reply.choices[0].message.content);\n")
                                           .arg(quoted(v1), quoted(key), quoted(model))};
        break;
    case Tool::AnthropicSdk:
        out << Block{tr("Environment variables"),
                     QStringLiteral("export ANTHROPIC_BASE_URL=%1\nexport ANTHROPIC_API_KEY=%2\n").arg(baseUrl, shellQuote(key))};
        out << Block{tr("Python"), QStringLiteral("import anthropic\n\n"
                                                  "client = anthropic.Anthropic(base_url=%1, api_key=%2)\n"
                                                  "message = client.messages.create(\n"
                                                  "    model=%3, max_tokens=1024,\n"
                                                  "    messages=[{\"role\": \"user\", \"content\": \"say hi\"}])\n"
                                                  "print(message.content[0].text)\n")
                                       .arg(quoted(baseUrl), quoted(key), quoted(model))};
        out << Block{tr("JavaScript"), QStringLiteral("import Anthropic from \"@anthropic-ai/sdk\";\n\n"
                                                      "const client = new Anthropic({ baseURL: %1, apiKey: %2 });\n"
                                                      "const message = await client.messages.create({\n"
                                                      "  model: %3, max_tokens: 1024,\n"
                                                      "  messages: [{ role: \"user\", content: \"say hi\" }] });\n"
                                                      "console.log(message.content[0].text);\n")
                                           .arg(quoted(baseUrl), quoted(key), quoted(model))};
        break;
    }
    return out;
}

QString ClientSnippets::id(Tool tool)
{
    switch (tool) {
    case Tool::ClaudeCode: return QStringLiteral("claude-code");
    case Tool::Codex: return QStringLiteral("codex");
    case Tool::OpenCode: return QStringLiteral("opencode");
    case Tool::OpenAiSdk: return QStringLiteral("openai-sdk");
    case Tool::AnthropicSdk: return QStringLiteral("anthropic-sdk");
    }
    return {};
}

std::optional<ClientSnippets::Tool> ClientSnippets::fromId(const QString &text)
{
    for (Tool tool : tools())
        if (id(tool).compare(text.trimmed(), Qt::CaseInsensitive) == 0)
            return tool;
    return std::nullopt;
}

QString ClientSnippets::wireName(Wire wire)
{
    switch (wire) {
    case Wire::Messages: return QStringLiteral("messages");
    case Wire::Responses: return QStringLiteral("responses");
    case Wire::ChatCompletions: break;
    }
    return QStringLiteral("chat");
}

namespace {

// provider/model for every model a usable sharer offers on a provider that speaks the wire,
// tested ones first. A sharer that lists no model serves its provider's whole catalogue; of
// that, only the tool's own default can be named without the catalogue at hand.
QStringList offeredModels(const QJsonArray &sharers, const QJsonArray &providers, const QString &wire, const QString &toolDefault)
{
    QSet<QString> speaking;
    for (const QJsonValue &v : providers) {
        const QJsonObject p = v.toObject();
        if (p.value(QLatin1String("wires")).toArray().contains(QJsonValue(wire)))
            speaking.insert(p.value(QLatin1String("id")).toString());
    }
    QStringList tested, listed;
    for (const QJsonValue &v : sharers) {
        const QJsonObject s = v.toObject();
        const QString provider = s.value(QLatin1String("provider")).toString();
        if (!speaking.contains(provider) || s.value(QLatin1String("blocked")).toBool())
            continue;
        const QJsonArray models = s.value(QLatin1String("models")).toArray();
        const QJsonArray passed = s.value(QLatin1String("tested")).toArray();
        // A team server's models are already provider/model, the names a tool sends for them
        // (docs/team.md, "A team server as a sharer").
        const QString prefix = provider == Catalog::nodeProvider() ? QString() : provider + QLatin1Char('/');
        for (const QJsonValue &m : passed)
            tested << prefix + m.toString();
        for (const QJsonValue &m : models)
            listed << prefix + m.toString();
        if (models.isEmpty() && toolDefault.startsWith(provider + QLatin1Char('/')))
            listed << toolDefault;
    }
    tested.sort();
    listed.sort();
    QStringList out = tested + listed;
    out.removeDuplicates();
    return out;
}

} // namespace

QString ClientSnippets::preferredModel(Tool tool, const QJsonArray &sharers, const QJsonArray &providers)
{
    const QStringList offered = offeredModels(sharers, providers, wireName(wire(tool)), defaultModel(tool));
    if (offered.contains(defaultModel(tool)))
        return defaultModel(tool);
    return offered.value(0);
}

bool ClientSnippets::hasSharerFor(Tool tool, const QString &model, const QJsonArray &sharers, const QJsonArray &providers)
{
    return offeredModels(sharers, providers, wireName(wire(tool)), model).contains(model);
}

QString ClientSnippets::noSharerMessage(Tool tool)
{
    return tr("No sharer can serve %1 yet: it speaks the %2 wire, and none of your sharers is on a provider that does. "
              "Add one (for example an OpenAI or Anthropic API key), then come back; the model will be filled in.")
        .arg(name(tool), wireName(wire(tool)));
}

QString ClientSnippets::ownLoginNote(Tool tool)
{
    if (tool == Tool::ClaudeCode)
        return tr("Claude Code keeps its own Claude Pro/Max login (claude /login, or CLAUDE_CODE_OAUTH_TOKEN) and sends "
                  "your Aile key beside it in x-aile-key. Leave ANTHROPIC_API_KEY and ANTHROPIC_AUTH_TOKEN unset: either "
                  "would replace the login. Aile sends the login only to a subscription sharer whose credential is "
                  "\"client\".");
    if (tool == Tool::Codex)
        return tr("Codex keeps its own ChatGPT login (codex login): requires_openai_auth sends it, and your Aile key "
                  "travels in x-aile-key from the AILE_KEY variable. Aile sends the login only to a codex subscription "
                  "sharer whose credential is \"client\".");
    return {};
}

QList<ClientSnippets::Block> ClientSnippets::ownLoginBlocks(Tool tool, const QString &baseUrl, const QString &keyIn, const QString &modelIn)
{
    const QString key = keyIn.trimmed().isEmpty() ? keyPlaceholder() : keyIn.trimmed();
    const QString model = modelIn.trimmed().isEmpty() ? defaultModel(tool) : modelIn.trimmed();
    QList<Block> out;
    if (tool == Tool::ClaudeCode) {
        const QString other =
            model.startsWith(QLatin1String("claude/")) ? QString() : QStringLiteral("export ANTHROPIC_MODEL=%1\n").arg(shellQuote(model));
        out << Block{tr("Environment variables"), QStringLiteral("export ANTHROPIC_BASE_URL=%1\n"
                                                                 "export ANTHROPIC_CUSTOM_HEADERS=%2\n"
                                                                 "unset ANTHROPIC_API_KEY ANTHROPIC_AUTH_TOKEN\n"
                                                                 "export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1\n")
                                                          .arg(baseUrl, shellQuote(QStringLiteral("x-aile-key: ") + key))
                                                      + other};
        out << Block{tr("Then run (signed in with your Claude plan)"), QStringLiteral("claude\n")};
    } else if (tool == Tool::Codex) {
        const QString codexModel = model.startsWith(QLatin1String("codex/")) ? model.mid(6) : model;
        out << Block{tr("$CODEX_HOME/config.toml"), QStringLiteral("model = %1\n"
                                                                   "model_provider = \"aile\"\n"
                                                                   "[model_providers.aile]\n"
                                                                   "name = \"Aile\"\n"
                                                                   "base_url = %2\n"
                                                                   "wire_api = \"responses\"\n"
                                                                   "requires_openai_auth = true\n"
                                                                   "env_http_headers = { \"x-aile-key\" = \"AILE_KEY\" }\n")
                                                        .arg(quoted(codexModel), quoted(baseUrl + QStringLiteral("/v1")))};
        out << Block{tr("Environment variables"), QStringLiteral("export AILE_KEY=%1\n").arg(shellQuote(key))};
        out << Block{tr("Then run (signed in with ChatGPT: codex login)"), QStringLiteral("codex\n")};
    }
    return out;
}

} // namespace Aile::Clients
