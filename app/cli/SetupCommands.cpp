#include "SetupCommands.h"

#include "ConnectApply.h"
#include "ManagementCall.h"
#include "clients/ClientSnippets.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTextStream>
#include <QtCore/QUrl>

namespace Aile::Cli {

namespace {

using Clients::ClientSnippets;

QString keyPath(const QString &key)
{
    return QStringLiteral("/keys/") + QString::fromLatin1(QUrl::toPercentEncoding(key));
}

} // namespace

int runSharersAdd(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Add a sharer: an upstream account the proxy may send requests to.\n"
                       "  aile sharers add PROVIDER --name NAME --secret-file - [--models M1,M2] [--base-url URL] [--test MODEL]\n"
                       "The credential is read from a file or stdin (-), never from the command line, and kept in the keychain\n"
                       "(or in the engine's opted-in secrets file with --credential file:NAME); --credential env:NAME names a\n"
                       "variable of the engine's environment instead. aile catalog lists the providers."));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addPositionalArgument(QStringLiteral("add"), QStringLiteral("add"));
    parser.addPositionalArgument(QStringLiteral("provider"),
                                 QStringLiteral("claude, codex, openai, openrouter, gemini, deepseek, local, or one of yours"));
    parser.addOption({QStringLiteral("name"), QStringLiteral("What the account is called in listings and traces."), QStringLiteral("NAME")});
    parser.addOption(
        {QStringLiteral("secret-file"), QStringLiteral("Read the credential (API key) from FILE; - reads stdin."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("credential"), QStringLiteral("A reference instead: env:NAME, keychain:NAME, or file:NAME with --secret-file."),
                      QStringLiteral("REF")});
    parser.addOption({QStringLiteral("models"), QStringLiteral("The models it offers, comma-separated (default: all of its provider's)."),
                      QStringLiteral("LIST")});
    parser.addOption({QStringLiteral("base-url"), QStringLiteral("Its own base URL (default: the provider's)."), QStringLiteral("URL")});
    parser.addOption({QStringLiteral("handle"), QStringLiteral("L followed by 16 hex digits (default: made from the provider, name and URL)."),
                      QStringLiteral("HANDLE")});
    parser.addOption(
        {QStringLiteral("test"), QStringLiteral("Then send one minimal request of MODEL on it (a pass marks it tested)."), QStringLiteral("MODEL")});
    parser.process(arguments);
    QTextStream out(stdout), err(stderr);
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 2) {
        err << "aile sharers add: name the provider, e.g. aile sharers add openai --name work --secret-file -\n";
        return 2;
    }
    QJsonObject sharer{{QStringLiteral("provider"), pos.at(1)}};
    for (const char *field : {"name", "handle"})
        if (parser.isSet(QLatin1String(field)))
            sharer.insert(QLatin1String(field), parser.value(QLatin1String(field)));
    if (parser.isSet(QStringLiteral("base-url")))
        sharer.insert(QStringLiteral("baseUrl"), parser.value(QStringLiteral("base-url")));
    if (parser.isSet(QStringLiteral("models"))) {
        QJsonArray models;
        for (const QString &m : parser.value(QStringLiteral("models")).split(QLatin1Char(','), Qt::SkipEmptyParts))
            models.append(m.trimmed().startsWith(pos.at(1) + QLatin1Char('/')) ? m.trimmed().mid(pos.at(1).size() + 1) : m.trimmed());
        sharer.insert(QStringLiteral("models"), models);
    }
    if (parser.isSet(QStringLiteral("credential")))
        sharer.insert(QStringLiteral("credential"), parser.value(QStringLiteral("credential")));
    if (parser.isSet(QStringLiteral("secret-file"))) {
        QString secret, error;
        if (!readFileOrStdin(parser.value(QStringLiteral("secret-file")), &secret, &error)) {
            err << "aile sharers add: " << error << Qt::endl;
            return 2;
        }
        sharer.insert(QStringLiteral("secret"), secret);
    } else if (!parser.isSet(QStringLiteral("credential")) && pos.at(1) != QLatin1String("local")) {
        err << "aile sharers add: give its credential with --secret-file FILE (- reads stdin) or --credential env:NAME\n";
        return 2;
    }
    const Connection c = connectionFrom(parser);
    QByteArray body;
    QString error;
    const int status = call(c, "POST", QStringLiteral("/sharers"), {}, &body, &error, QJsonDocument(sharer).toJson(QJsonDocument::Compact));
    if (status != 200) {
        err << "aile sharers add: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    const QJsonObject added = QJsonDocument::fromJson(body).object();
    const QString handle = added.value(QLatin1String("handle")).toString();
    if (parser.isSet(QStringLiteral("json")) && !parser.isSet(QStringLiteral("test"))) {
        out << body << Qt::endl;
        return 0;
    }
    out << "added " << handle << " \"" << added.value(QLatin1String("name")).toString() << "\" on "
        << added.value(QLatin1String("provider")).toString()
        << (added.value(QLatin1String("credentialAvailable")).toBool()
                ? QStringLiteral(", credential stored as %1").arg(added.value(QLatin1String("credential")).toString())
                : QStringLiteral(", but its credential cannot be read yet"))
        << Qt::endl;
    if (!parser.isSet(QStringLiteral("test")))
        return 0;
    QString model = parser.value(QStringLiteral("test"));
    if (model.startsWith(pos.at(1) + QLatin1Char('/')))
        model = model.mid(pos.at(1).size() + 1);
    if (call(c, "POST", QStringLiteral("/sharers/%1/test").arg(handle), {}, &body, &error,
             QJsonDocument(QJsonObject{{QStringLiteral("model"), model}}).toJson(QJsonDocument::Compact))
        != 200) {
        err << "aile sharers add: the test did not run: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    const QJsonObject r = QJsonDocument::fromJson(body).object();
    out << "test of " << model << (r.value(QLatin1String("ok")).toBool() ? QStringLiteral(" passed: ") : QStringLiteral(" failed: "))
        << r.value(QLatin1String("message")).toString() << Qt::endl;
    return r.value(QLatin1String("ok")).toBool() ? 0 : 1;
}

int runKeysRouting(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("A key's routing settings (docs/keys.md lists each one).\n"
                       "  aile keys routing KEY                        show them\n"
                       "  aile keys routing KEY SETTING=VALUE...       change these, keep the rest (prefer=speed maxCostUsd=0.5\n"
                       "                                               excludeProviders='[\"gemini\"]'; SETTING= removes one)\n"
                       "  aile keys routing KEY --set FILE            replace them all with the JSON object in FILE (- reads stdin)"));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addOption({QStringLiteral("set"), QStringLiteral("The JSON file holding the whole routing object."), QStringLiteral("FILE")});
    parser.addPositionalArgument(QStringLiteral("routing"), QStringLiteral("routing"));
    parser.addPositionalArgument(QStringLiteral("key"), QStringLiteral("the key's id or name"));
    parser.process(arguments);
    QTextStream out(stdout), err(stderr);
    const QStringList pos = parser.positionalArguments();
    if (pos.size() < 2) {
        err << "aile keys routing: name the key, e.g. aile keys routing laptop prefer=speed\n";
        return 2;
    }
    const Connection c = connectionFrom(parser);
    QByteArray body;
    QString error;
    if (call(c, "GET", keyPath(pos.at(1)), {}, &body, &error) != 200) {
        err << "aile keys routing: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    QJsonObject routing = QJsonDocument::fromJson(body).object().value(QLatin1String("key")).toObject().value(QLatin1String("routing")).toObject();
    const bool change = parser.isSet(QStringLiteral("set")) || pos.size() > 2;
    if (parser.isSet(QStringLiteral("set"))) {
        QString text;
        if (!readFileOrStdin(parser.value(QStringLiteral("set")), &text, &error)) {
            err << "aile keys routing: " << error << Qt::endl;
            return 2;
        }
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &parseError);
        if (!doc.isObject()) {
            err << "aile keys routing: " << parser.value(QStringLiteral("set")) << " must hold a JSON object (" << parseError.errorString() << ")\n";
            return 2;
        }
        routing = doc.object();
    }
    for (const QString &pair : pos.mid(2)) {
        const qsizetype eq = pair.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            err << "aile keys routing: say SETTING=VALUE, not \"" << pair << "\"\n";
            return 2;
        }
        const QString name = pair.left(eq), value = pair.mid(eq + 1);
        if (value.isEmpty()) {
            routing.remove(name);
            continue;
        }
        // A JSON value where the text is one (0.5, true, ["a"]), else the text itself (speed).
        const QJsonDocument asJson = QJsonDocument::fromJson(QByteArrayLiteral("[") + value.toUtf8() + QByteArrayLiteral("]"));
        routing.insert(name, asJson.isArray() && asJson.array().size() == 1 ? asJson.array().at(0) : QJsonValue(value));
    }
    if (change) {
        const QByteArray payload = QJsonDocument(QJsonObject{{QStringLiteral("routing"), routing}}).toJson(QJsonDocument::Compact);
        if (call(c, "PUT", keyPath(pos.at(1)), {}, &body, &error, payload) != 200) {
            err << "aile keys routing: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
            return 1;
        }
        routing = QJsonDocument::fromJson(body).object().value(QLatin1String("key")).toObject().value(QLatin1String("routing")).toObject();
    }
    out << QJsonDocument(routing).toJson(parser.isSet(QStringLiteral("json")) ? QJsonDocument::Compact : QJsonDocument::Indented);
    out.flush();
    return 0;
}

int runConnect(const QStringList &arguments)
{
    QStringList ids;
    for (ClientSnippets::Tool t : ClientSnippets::tools())
        ids << ClientSnippets::id(t);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The settings that point a tool at the proxy, as the desktop app's Connect a tool dialog shows them.\n"
                       "  aile connect TOOL [--new-key NAME | --key-file FILE] [--model PROVIDER/MODEL] [--own-login]\n"
                       "  aile connect TOOL --apply [--dry-run] [same options]   write them into the tool's own settings file\n"
                       "  aile connect TOOL --undo [--dry-run]                   put that file back as it was before Aile\n"
                       "TOOL: %1. Without --model, a model one of your sharers offers on a wire the tool speaks.\n"
                       "--apply (claude-code, codex, opencode) shows the change first (the key masked), keeps a backup beside the\n"
                       "file (FILE.aile-backup) and changes only Aile's own part; the file then holds your key in full.\n"
                       "The engine keeps only a hash of each key: make one here with --new-key (shown in the settings, once),\n"
                       "or give the one you kept with --key-file (- reads stdin) or $AILE_KEY.")
            .arg(ids.join(QStringLiteral(", "))));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addPositionalArgument(QStringLiteral("tool"), ids.join(QLatin1Char('|')));
    parser.addOption(
        {QStringLiteral("model"), QStringLiteral("provider/model for the tool (default: one your sharers offer)."), QStringLiteral("MODEL")});
    parser.addOption({QStringLiteral("new-key"), QStringLiteral("Create a key named NAME and fill it in."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("key-file"), QStringLiteral("Read the key to fill in from FILE; - reads stdin."), QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("own-login"), QStringLiteral("Claude Code and Codex: keep the tool's own subscription login, the key in x-aile-key "
                                                     "(docs/subscriptions.md).")});
    parser.addOption({QStringLiteral("apply"), QStringLiteral("Write the settings into the tool's configuration file (a backup is kept).")});
    parser.addOption({QStringLiteral("undo"), QStringLiteral("Restore the tool's configuration file as it was before --apply.")});
    parser.addOption({QStringLiteral("dry-run"), QStringLiteral("With --apply or --undo: show the change, write nothing.")});
    parser.process(arguments);
    QTextStream out(stdout), err(stderr);
    const QStringList pos = parser.positionalArguments();
    const auto tool = ClientSnippets::fromId(pos.value(0));
    if (pos.size() != 1 || !tool) {
        err << "aile connect: name one tool: " << ids.join(QStringLiteral(", ")) << Qt::endl;
        return 2;
    }
    const bool ownLogin = parser.isSet(QStringLiteral("own-login"));
    if (ownLogin && !ClientSnippets::offersOwnLogin(*tool)) {
        err << "aile connect: --own-login is for claude-code and codex, the tools that have a subscription login of their own\n";
        return 2;
    }
    const bool apply = parser.isSet(QStringLiteral("apply")), undo = parser.isSet(QStringLiteral("undo"));
    if ((apply || undo) && !Clients::ToolConfigEdit::supports(*tool)) {
        err << "aile connect: --apply and --undo are for claude-code, codex and opencode; the SDKs take their settings in code\n";
        return 2;
    }
    if (apply && undo) {
        err << "aile connect: choose --apply or --undo\n";
        return 2;
    }
    if (undo)
        return runConnectUndo(*tool, parser.isSet(QStringLiteral("dry-run")));
    const Connection c = connectionFrom(parser);
    QByteArray body;
    QString error;
    if (call(c, "GET", QStringLiteral("/sharers"), {}, &body, &error) != 200) {
        err << "aile connect: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    const QJsonArray sharers = QJsonDocument::fromJson(body).object().value(QLatin1String("data")).toArray();
    if (call(c, "GET", QStringLiteral("/catalog"), {}, &body, &error) != 200) {
        err << "aile connect: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    const QJsonArray providers = QJsonDocument::fromJson(body).object().value(QLatin1String("providers")).toArray();
    QString model = parser.value(QStringLiteral("model"));
    if (model.isEmpty()) {
        model = ClientSnippets::preferredModel(*tool, sharers, providers);
        if (model.isEmpty()) {
            // A snippet whose model no sharer serves would only end in 503s: say what is missing instead.
            err << "aile connect: " << ClientSnippets::noSharerMessage(*tool) << " (aile sharers add --help)" << Qt::endl;
            return 1;
        }
    } else if (!ClientSnippets::hasSharerFor(*tool, model, sharers, providers)) {
        err << "note: none of your sharers lists " << model << " on a provider that speaks the "
            << ClientSnippets::wireName(ClientSnippets::wire(*tool)) << " wire; requests for it may fail\n";
    }
    QString key;
    if (parser.isSet(QStringLiteral("new-key"))) {
        const QByteArray payload =
            QJsonDocument(QJsonObject{{QStringLiteral("name"), parser.value(QStringLiteral("new-key"))}}).toJson(QJsonDocument::Compact);
        if (call(c, "POST", QStringLiteral("/keys"), {}, &body, &error, payload) != 201) {
            err << "aile connect: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
            return 1;
        }
        key = QJsonDocument::fromJson(body).object().value(QLatin1String("plain")).toString();
        err << "created key \"" << parser.value(QStringLiteral("new-key"))
            << (apply ? "\": it goes into the tool's settings file, and the engine keeps only its hash\n"
                      : "\": it is in the settings below, and shown only this once\n");
    } else if (parser.isSet(QStringLiteral("key-file"))) {
        if (!readFileOrStdin(parser.value(QStringLiteral("key-file")), &key, &error)) {
            err << "aile connect: " << error << Qt::endl;
            return 2;
        }
    } else {
        key = qEnvironmentVariable("AILE_KEY");
    }
    if (apply)
        return runConnectApply(Clients::ToolSetup{*tool, c.base, key.trimmed(), model, ownLogin}, parser.isSet(QStringLiteral("dry-run")));
    out << "# " << ClientSnippets::name(*tool) << ", model " << model << "\n# "
        << (ownLogin ? ClientSnippets::ownLoginNote(*tool) : ClientSnippets::note(*tool)) << "\n";
    const QList<ClientSnippets::Block> blocks =
        ownLogin ? ClientSnippets::ownLoginBlocks(*tool, c.base, key, model) : ClientSnippets::blocks(*tool, c.base, key, model);
    for (const ClientSnippets::Block &b : blocks)
        out << "\n# " << b.caption << "\n" << b.code << (b.code.endsWith(QLatin1Char('\n')) ? "" : "\n");
    out.flush();
    return 0;
}

} // namespace Aile::Cli
