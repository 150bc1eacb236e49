#include "Catalog.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QRegularExpression>

// The catalogue is compiled into an object library inside a static archive; make sure its
// resource initialiser is linked and run.
static void initCatalogResource()
{
    Q_INIT_RESOURCE(aile_catalog);
}

namespace Aile::Catalog {

DataPolicy dataPolicyFromString(const QString &s)
{
    if (s == QLatin1String("deny"))
        return DataPolicy::Deny;
    if (s == QLatin1String("allow"))
        return DataPolicy::Allow;
    return DataPolicy::Unknown;
}

QString dataPolicyName(DataPolicy p)
{
    switch (p) {
    case DataPolicy::Deny: return QStringLiteral("deny");
    case DataPolicy::Allow: return QStringLiteral("allow");
    case DataPolicy::Unknown: break;
    }
    return QStringLiteral("unknown");
}

namespace {

std::optional<double> optionalNumber(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isDouble())
        return v.toDouble();
    return std::nullopt;
}

QJsonValue numberOrNull(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QStringList stringList(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &e : v.toArray())
        out.append(e.toString());
    return out;
}

} // namespace

std::optional<ModelInfo> ModelInfo::fromJson(const QJsonObject &o, QString *error)
{
    ModelInfo m;
    m.provider = o.value(QLatin1String("provider")).toString();
    m.id = o.value(QLatin1String("id")).toString();
    if (m.provider.isEmpty() || m.id.isEmpty()) {
        if (error)
            *error = QStringLiteral("a model entry needs \"provider\" and \"id\"");
        return std::nullopt;
    }
    m.aliases = stringList(o.value(QLatin1String("aliases")));
    m.input = optionalNumber(o, "input");
    m.output = optionalNumber(o, "output");
    m.cacheRead = optionalNumber(o, "cacheRead");
    m.cacheWrite = optionalNumber(o, "cacheWrite");
    const QJsonObject lc = o.value(QLatin1String("longContext")).toObject();
    if (!lc.isEmpty()) {
        m.longContextThreshold = qint64(lc.value(QLatin1String("threshold")).toDouble());
        m.longInput = lc.value(QLatin1String("input")).toDouble();
        m.longOutput = lc.value(QLatin1String("output")).toDouble();
    }
    m.contextWindow = qint64(o.value(QLatin1String("contextWindow")).toDouble());
    m.maxOutput = qint64(o.value(QLatin1String("maxOutput")).toDouble());
    const QJsonObject caps = o.value(QLatin1String("capabilities")).toObject();
    m.capabilities.tools = caps.value(QLatin1String("tools")).toBool(true);
    m.capabilities.structuredOutput = caps.value(QLatin1String("structuredOutput")).toBool(true);
    m.capabilities.imageInput = caps.value(QLatin1String("imageInput")).toBool(false);
    m.capabilities.streaming = caps.value(QLatin1String("streaming")).toBool(true);
    m.capabilities.reasoning = caps.value(QLatin1String("reasoning")).toBool(false);
    m.capabilities.hostedTools = stringList(caps.value(QLatin1String("hostedTools")));
    m.kind = o.value(QLatin1String("kind")).toString(QStringLiteral("chat"));
    m.source = o.value(QLatin1String("source")).toString();
    m.sourceDate = o.value(QLatin1String("sourceDate")).toString();
    m.estimated = o.value(QLatin1String("estimated")).toBool(false);
    m.overridden = o.value(QLatin1String("overridden")).toBool(false);
    return m;
}

QJsonObject ModelInfo::toJson() const
{
    QJsonObject o{{QStringLiteral("provider"), provider},
                  {QStringLiteral("id"), id},
                  {QStringLiteral("aliases"), QJsonArray::fromStringList(aliases)},
                  {QStringLiteral("input"), numberOrNull(input)},
                  {QStringLiteral("output"), numberOrNull(output)},
                  {QStringLiteral("cacheRead"), numberOrNull(cacheRead)},
                  {QStringLiteral("cacheWrite"), numberOrNull(cacheWrite)},
                  {QStringLiteral("contextWindow"), contextWindow},
                  {QStringLiteral("maxOutput"), maxOutput},
                  {QStringLiteral("kind"), kind},
                  {QStringLiteral("source"), source},
                  {QStringLiteral("sourceDate"), sourceDate},
                  {QStringLiteral("estimated"), estimated}};
    if (longContextThreshold > 0)
        o.insert(QStringLiteral("longContext"), QJsonObject{{QStringLiteral("threshold"), longContextThreshold},
                                                            {QStringLiteral("input"), longInput},
                                                            {QStringLiteral("output"), longOutput}});
    else
        o.insert(QStringLiteral("longContext"), QJsonValue::Null);
    o.insert(QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("tools"), capabilities.tools},
                                                         {QStringLiteral("structuredOutput"), capabilities.structuredOutput},
                                                         {QStringLiteral("imageInput"), capabilities.imageInput},
                                                         {QStringLiteral("streaming"), capabilities.streaming},
                                                         {QStringLiteral("reasoning"), capabilities.reasoning},
                                                         {QStringLiteral("hostedTools"), QJsonArray::fromStringList(capabilities.hostedTools)}});
    if (overridden)
        o.insert(QStringLiteral("overridden"), true);
    return o;
}

std::optional<ProviderInfo> ProviderInfo::fromJson(const QJsonObject &o, QString *error)
{
    ProviderInfo p;
    p.id = o.value(QLatin1String("id")).toString();
    static const QRegularExpression idRe(QStringLiteral("^[a-z0-9][a-z0-9_.-]{0,39}$"));
    if (!idRe.match(p.id).hasMatch()) {
        if (error)
            *error = QStringLiteral("provider id \"%1\" must be 1-40 lower-case letters, digits, '.', '_' or '-'").arg(p.id);
        return std::nullopt;
    }
    p.name = o.value(QLatin1String("name")).toString(p.id);
    for (const QString &w : stringList(o.value(QLatin1String("wires"))))
        p.wires.insert(w);
    if (p.wires.isEmpty())
        p.wires = {QStringLiteral("chat")};
    p.auth = o.value(QLatin1String("auth")).toString(QStringLiteral("bearer"));
    p.baseUrl = o.value(QLatin1String("baseUrl")).toString();
    p.apiPath = o.value(QLatin1String("apiPath")).toString(QStringLiteral("/v1"));
    const QJsonObject wp = o.value(QLatin1String("wirePaths")).toObject();
    for (auto it = wp.begin(); it != wp.end(); ++it)
        p.wirePaths.insert(it.key(), it.value().toString());
    p.dataCollection = dataPolicyFromString(o.value(QLatin1String("dataCollection")).toString());
    p.selfHosted = o.value(QLatin1String("selfHosted")).toBool(false);
    p.namespacedIds = o.value(QLatin1String("namespacedIds")).toBool(false);
    p.outputCap = o.value(QLatin1String("outputCap")).toBool(true);
    p.builtIn = o.value(QLatin1String("builtIn")).toBool(true);
    return p;
}

QJsonObject ProviderInfo::toJson() const
{
    QStringList w(wires.begin(), wires.end());
    w.sort();
    QJsonObject paths;
    for (auto it = wirePaths.begin(); it != wirePaths.end(); ++it)
        paths.insert(it.key(), it.value());
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("wires"), QJsonArray::fromStringList(w)},
                       {QStringLiteral("auth"), auth},
                       {QStringLiteral("baseUrl"), baseUrl},
                       {QStringLiteral("apiPath"), apiPath},
                       {QStringLiteral("wirePaths"), paths},
                       {QStringLiteral("dataCollection"), dataPolicyName(dataCollection)},
                       {QStringLiteral("selfHosted"), selfHosted},
                       {QStringLiteral("namespacedIds"), namespacedIds},
                       {QStringLiteral("outputCap"), outputCap},
                       {QStringLiteral("builtIn"), builtIn}};
}

bool Catalog::merge(const QByteArray &json, QString *error, bool markOverridden)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isObject()) {
        if (error)
            *error = QStringLiteral("the catalogue is not a JSON object: %1").arg(parseError.errorString());
        return false;
    }
    const QJsonObject root = doc.object();
    QList<ProviderInfo> providers;
    QList<ModelInfo> models;
    for (const QJsonValue &v : root.value(QLatin1String("providers")).toArray()) {
        auto p = ProviderInfo::fromJson(v.toObject(), error);
        if (!p)
            return false;
        providers.append(*p);
    }
    for (const QJsonValue &v : root.value(QLatin1String("models")).toArray()) {
        auto m = ModelInfo::fromJson(v.toObject(), error);
        if (!m)
            return false;
        m->overridden = m->overridden || markOverridden;
        models.append(*m);
    }
    for (const ProviderInfo &p : providers)
        upsertProvider(p);
    for (const ModelInfo &m : models)
        upsertModel(m);
    return true;
}

Catalog Catalog::builtIn()
{
    initCatalogResource();
    Catalog c;
    QFile f(QStringLiteral(":/catalog/catalog.json"));
    if (f.open(QIODevice::ReadOnly)) {
        QString error;
        if (!c.merge(f.readAll(), &error))
            qWarning("built-in catalogue unreadable: %s", qPrintable(error));
    }
    return c;
}

const ProviderInfo *Catalog::provider(const QString &id) const
{
    const auto it = m_providerAt.constFind(id);
    return it == m_providerAt.constEnd() ? nullptr : &m_providers.at(*it);
}

const ModelInfo *Catalog::model(const QString &provider, const QString &id) const
{
    // The exact id first, then the first model of the provider that lists it as an alias.
    for (const auto *index : {&m_modelAt, &m_aliasAt}) {
        const auto ids = index->constFind(provider);
        if (ids == index->constEnd())
            continue;
        if (const auto it = ids->constFind(id); it != ids->constEnd())
            return &m_models.at(*it);
    }
    return nullptr;
}

QList<const ModelInfo *> Catalog::modelsOf(const QString &provider) const
{
    QList<const ModelInfo *> out;
    for (const ModelInfo &m : m_models)
        if (m.provider == provider)
            out.append(&m);
    return out;
}

void Catalog::upsertProvider(const ProviderInfo &provider)
{
    if (const auto it = m_providerAt.constFind(provider.id); it != m_providerAt.constEnd()) {
        m_providers[*it] = provider;
        return;
    }
    m_providerAt.insert(provider.id, m_providers.size());
    m_providers.append(provider);
}

void Catalog::indexAliases(const QString &provider)
{
    // The first model listing an alias answers for it, as a scan in list order would.
    QHash<QString, qsizetype> &aliases = m_aliasAt[provider];
    aliases.clear();
    for (qsizetype i = 0; i < m_models.size(); ++i)
        if (m_models.at(i).provider == provider)
            for (const QString &alias : m_models.at(i).aliases)
                if (!aliases.contains(alias))
                    aliases.insert(alias, i);
}

void Catalog::upsertModel(const ModelInfo &model)
{
    QHash<QString, qsizetype> &ids = m_modelAt[model.provider];
    if (const auto it = ids.constFind(model.id); it != ids.constEnd()) {
        m_models[*it] = model;
        indexAliases(model.provider); // the replaced entry may have dropped an alias
        return;
    }
    ids.insert(model.id, m_models.size());
    m_models.append(model);
    QHash<QString, qsizetype> &aliases = m_aliasAt[model.provider];
    for (const QString &alias : model.aliases)
        if (!aliases.contains(alias))
            aliases.insert(alias, m_models.size() - 1);
}

QJsonObject Catalog::toJson() const
{
    QJsonArray providers, models;
    for (const ProviderInfo &p : m_providers)
        providers.append(p.toJson());
    for (const ModelInfo &m : m_models)
        models.append(m.toJson());
    return QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("providers"), providers}, {QStringLiteral("models"), models}};
}

} // namespace Aile::Catalog
