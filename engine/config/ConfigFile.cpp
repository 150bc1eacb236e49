#include "ConfigFile.h"

#include "EntryChecks.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>

namespace Aile::Config {

ConfigFile ConfigFile::read(const QByteArray &bytes)
{
    ConfigFile cfg;
    auto text = std::make_shared<JsoncText>(bytes);
    cfg.text = text;
    cfg.problems = text->problems();
    if (text->document().isNull())
        return cfg;
    if (!text->document().isObject()) {
        cfg.problems.append({QString(), QStringLiteral("the configuration must be a JSON object such as {\"sharers\": [...]}")});
        return cfg;
    }
    const QJsonObject root = text->document().object();
    cfg.root = root;
    cfg.problems += topLevelProblems(root);

    cfg.adminToken = root.value(QLatin1String("adminToken")).toString();
    cfg.store = root.value(QLatin1String("store")).toString();
    const QJsonArray providers = root.value(QLatin1String("providers")).toArray();
    for (int i = 0; i < providers.size(); ++i) {
        if (!providers.at(i).isObject())
            continue;
        const Problems found = providerProblems(providers.at(i).toObject(), pointerTo(QStringLiteral("/providers"), i));
        cfg.problems += found;
        QJsonObject o = providers.at(i).toObject();
        o.insert(QStringLiteral("builtIn"), false);
        if (auto p = Catalog::ProviderInfo::fromJson(o, nullptr); p && found.isEmpty())
            cfg.providers.append(*p);
    }
    const QJsonArray sharers = root.value(QLatin1String("sharers")).toArray();
    for (int i = 0; i < sharers.size(); ++i) {
        if (!sharers.at(i).isObject())
            continue;
        const Problems found = sharerProblems(sharers.at(i).toObject(), pointerTo(QStringLiteral("/sharers"), i));
        cfg.problems += found;
        if (auto s = Catalog::Sharer::fromJson(sharers.at(i).toObject(), nullptr); s && found.isEmpty())
            cfg.sharers.append(*s);
    }
    const QJsonArray keys = root.value(QLatin1String("keys")).toArray();
    for (int i = 0; i < keys.size(); ++i) {
        if (!keys.at(i).isObject())
            continue;
        const QJsonObject o = keys.at(i).toObject();
        cfg.problems += keyEntryProblems(o, pointerTo(QStringLiteral("/keys"), i));
        ProvisionedKey k;
        k.name = o.value(QLatin1String("name")).toString().trimmed();
        k.plainKey = o.value(QLatin1String("key")).toString();
        k.hasRouting = o.contains(QLatin1String("routing"));
        k.routing = o.value(QLatin1String("routing")).toObject();
        k.hasRoutes = o.contains(QLatin1String("routes"));
        k.routes = o.value(QLatin1String("routes")).toArray();
        k.index = i;
        if (!k.name.isEmpty())
            cfg.keys.append(k);
    }
    cfg.routing = root.value(QLatin1String("routing")).toObject();
    cfg.problems += routingProblems(cfg.routing, QStringLiteral("/routing"));
    cfg.settings = root.value(QLatin1String("settings")).toObject();
    cfg.problems += settingsProblems(cfg.settings, QStringLiteral("/settings"));
    cfg.catalog = root.value(QLatin1String("catalog")).toObject();
    cfg.problems += catalogProblems(cfg.catalog, QStringLiteral("/catalog"));
    return cfg;
}

std::optional<ConfigFile> ConfigFile::parse(const QByteArray &text, QString *error)
{
    ConfigFile cfg = read(text);
    if (cfg.problems.isEmpty())
        return cfg;
    if (error)
        *error = cfg.describe(cfg.problems).join(QLatin1Char('\n'));
    return std::nullopt;
}

std::optional<ConfigFile> ConfigFile::load(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read the configuration file %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    ConfigFile cfg = read(f.readAll());
    if (cfg.problems.isEmpty())
        return cfg;
    if (error)
        *error = cfg.refusal(cfg.problems, path);
    return std::nullopt;
}

QString ConfigFile::describe(const Problem &problem, const QString &file) const
{
    const JsoncText::Position at = text ? text->positionOf(problem) : JsoncText::Position{};
    if (at.line == 0)
        return file.isEmpty() ? problem.message : file + QStringLiteral(": ") + problem.message;
    if (file.isEmpty())
        return QStringLiteral("line %1, column %2: %3").arg(at.line).arg(at.column).arg(problem.message);
    return QStringLiteral("%1:%2:%3: %4").arg(file).arg(at.line).arg(at.column).arg(problem.message);
}

QStringList ConfigFile::describe(const Problems &problems, const QString &file) const
{
    QStringList out;
    for (const Problem &p : problems)
        out << describe(p, file);
    return out;
}

QString ConfigFile::refusal(const Problems &problems, const QString &file, const QString &verb) const
{
    QStringList lines = describe(problems, file);
    lines << QStringLiteral("%1%2 %3; nothing was %4 and the store is unchanged")
                 .arg(file.isEmpty() ? QString() : file + QStringLiteral(": "))
                 .arg(problems.size())
                 .arg(problems.size() == 1 ? QStringLiteral("problem") : QStringLiteral("problems"), verb);
    return lines.join(QLatin1Char('\n'));
}

} // namespace Aile::Config
