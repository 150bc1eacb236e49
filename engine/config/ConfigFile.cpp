#include "ConfigFile.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

namespace Aile::Config {

QByteArray stripJsonc(const QByteArray &text)
{
    QByteArray out;
    out.reserve(text.size());
    bool inString = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text.at(++i);
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            out += c;
        } else if (c == '/' && i + 1 < text.size() && text.at(i + 1) == '/') {
            while (i < text.size() && text.at(i) != '\n')
                ++i;
            out += '\n';
        } else if (c == '/' && i + 1 < text.size() && text.at(i + 1) == '*') {
            i += 2;
            while (i + 1 < text.size() && !(text.at(i) == '*' && text.at(i + 1) == '/'))
                out += text.at(i++) == '\n' ? '\n' : ' ';
            ++i;
        } else if (c == ',') {
            // A trailing comma: the next significant character closes the object or array.
            qsizetype j = i + 1;
            while (j < text.size()) {
                const char d = text.at(j);
                if (d == ' ' || d == '\t' || d == '\r' || d == '\n') {
                    ++j;
                } else if (d == '/' && j + 1 < text.size() && text.at(j + 1) == '/') {
                    while (j < text.size() && text.at(j) != '\n')
                        ++j;
                } else {
                    break;
                }
            }
            if (j < text.size() && (text.at(j) == '}' || text.at(j) == ']'))
                out += ' ';
            else
                out += c;
        } else {
            out += c;
        }
    }
    return out;
}

namespace {

// Line and column of a byte offset, for error messages that point at the place.
QString where(const QByteArray &text, int offset)
{
    int line = 1, column = 1;
    for (int i = 0; i < offset && i < text.size(); ++i) {
        if (text.at(i) == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return QStringLiteral("line %1, column %2").arg(line).arg(column);
}

} // namespace

std::optional<ConfigFile> ConfigFile::parse(const QByteArray &text, QString *error)
{
    auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return std::nullopt;
    };
    const QByteArray clean = stripJsonc(text);
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(clean, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(QStringLiteral("the configuration is not valid JSON at %1: %2")
                        .arg(where(clean, parseError.offset), parseError.errorString()));
    if (!doc.isObject())
        return fail(QStringLiteral("the configuration must be a JSON object"));
    const QJsonObject root = doc.object();
    static const QStringList known{QStringLiteral("adminToken"), QStringLiteral("providers"), QStringLiteral("sharers"),
                                   QStringLiteral("keys"), QStringLiteral("routing"), QStringLiteral("settings"),
                                   QStringLiteral("catalog"), QStringLiteral("$schema")};
    for (const QString &k : root.keys())
        if (!known.contains(k))
            return fail(QStringLiteral("unknown top-level entry \"%1\" in the configuration (known: %2)")
                            .arg(k, known.mid(0, 7).join(QStringLiteral(", "))));

    ConfigFile cfg;
    cfg.adminToken = root.value(QLatin1String("adminToken")).toString();
    for (const QJsonValue &v : root.value(QLatin1String("providers")).toArray()) {
        QJsonObject o = v.toObject();
        o.insert(QStringLiteral("builtIn"), false);
        auto p = Catalog::ProviderInfo::fromJson(o, error);
        if (!p)
            return std::nullopt;
        cfg.providers.append(*p);
    }
    for (const QJsonValue &v : root.value(QLatin1String("sharers")).toArray()) {
        auto s = Catalog::Sharer::fromJson(v.toObject(), error);
        if (!s)
            return std::nullopt;
        cfg.sharers.append(*s);
    }
    for (const QJsonValue &v : root.value(QLatin1String("keys")).toArray()) {
        const QJsonObject o = v.toObject();
        ProvisionedKey k;
        k.name = o.value(QLatin1String("name")).toString();
        if (k.name.isEmpty())
            return fail(QStringLiteral("every entry of \"keys\" needs a \"name\""));
        k.plainKey = o.value(QLatin1String("key")).toString();
        if (!k.plainKey.isEmpty() && k.plainKey.size() < 16)
            return fail(QStringLiteral("key \"%1\": a provisioned key must be at least 16 characters (sk-aile-…)").arg(k.name));
        k.hasRouting = o.contains(QLatin1String("routing"));
        k.routing = o.value(QLatin1String("routing")).toObject();
        k.hasRoutes = o.contains(QLatin1String("routes"));
        k.routes = o.value(QLatin1String("routes")).toArray();
        cfg.keys.append(k);
    }
    cfg.routing = root.value(QLatin1String("routing")).toObject();
    cfg.settings = root.value(QLatin1String("settings")).toObject();
    cfg.catalog = root.value(QLatin1String("catalog")).toObject();
    return cfg;
}

std::optional<ConfigFile> ConfigFile::load(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read the configuration file %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    auto cfg = parse(f.readAll(), error);
    if (!cfg && error)
        *error = QStringLiteral("%1: %2").arg(path, *error);
    return cfg;
}

} // namespace Aile::Config
