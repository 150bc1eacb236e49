#include "EngineStatus.h"

#include "JsonFields.h"

namespace Aile::Api {

using namespace Json;

SharerStatus SharerStatus::fromJson(const QJsonObject &o)
{
    SharerStatus s;
    s.config = SharerEdit::fromJson(o);
    s.tested = strings(o.value(QLatin1String("tested")));
    s.priority = o.value(QLatin1String("priority")).toInt(0);
    s.weight = o.value(QLatin1String("weight")).toInt(1);
    s.blocked = o.value(QLatin1String("blocked")).toBool();
    s.credentialAvailable = o.value(QLatin1String("credentialAvailable")).toBool();
    s.credentialError = str(o, "credentialError");
    s.needsKey = o.value(QLatin1String("needsKey")).toBool();
    return s;
}

QJsonObject SharerStatus::toJson() const
{
    QJsonObject o = config.toJson();
    o.insert(QStringLiteral("tested"), QJsonArray::fromStringList(tested));
    o.insert(QStringLiteral("priority"), priority);
    o.insert(QStringLiteral("weight"), weight);
    if (blocked)
        o.insert(QStringLiteral("blocked"), true);
    o.insert(QStringLiteral("credentialAvailable"), credentialAvailable);
    o.insert(QStringLiteral("credentialError"), credentialError);
    if (needsKey)
        o.insert(QStringLiteral("needsKey"), true);
    return o;
}

ProviderStatus ProviderStatus::fromJson(const QJsonObject &o)
{
    ProviderStatus p;
    p.id = str(o, "id");
    p.name = str(o, "name");
    p.baseUrl = str(o, "baseUrl");
    p.wires = strings(o.value(QLatin1String("wires")));
    p.builtIn = o.value(QLatin1String("builtIn")).toBool(true);
    p.selfHosted = o.value(QLatin1String("selfHosted")).toBool();
    return p;
}

QJsonObject ProviderStatus::toJson() const
{
    return QJsonObject{{QStringLiteral("id"), id},           {QStringLiteral("name"), name},
                       {QStringLiteral("baseUrl"), baseUrl}, {QStringLiteral("wires"), QJsonArray::fromStringList(wires)},
                       {QStringLiteral("builtIn"), builtIn}, {QStringLiteral("selfHosted"), selfHosted}};
}

const SharerStatus *EngineStatus::sharer(const QString &handle) const
{
    for (const SharerStatus &s : sharers)
        if (s.config.handle == handle)
            return &s;
    return nullptr;
}

EngineStatus EngineStatus::fromJson(const QJsonObject &o)
{
    EngineStatus s;
    s.listening = o.value(QLatin1String("listening")).toBool();
    s.address = str(o, "address");
    s.port = quint16(o.value(QLatin1String("port")).toInt());
    s.error = str(o, "error");
    s.sharers = listOf<SharerStatus>(o.value(QLatin1String("sharers")));
    s.keys = listOf<KeyInfo>(o.value(QLatin1String("keys")));
    s.providers = listOf<ProviderStatus>(o.value(QLatin1String("providers")));
    s.keychainProbed = o.value(QLatin1String("keychainProbed")).toBool();
    s.keychainAvailable = o.value(QLatin1String("keychainAvailable")).toBool();
    s.keychainError = str(o, "keychainError");
    s.keychainErrorKind = o.value(QLatin1String("keychainErrorKind")).toInt();
    s.secretsFile = str(o, "secretsFile");
    s.pid = o.value(QLatin1String("pid")).toInteger();
    s.program = str(o, "program");
    s.version = str(o, "version");
    return s;
}

QJsonObject EngineStatus::toJson() const
{
    return QJsonObject{{QStringLiteral("listening"), listening},
                       {QStringLiteral("address"), address},
                       {QStringLiteral("port"), port},
                       {QStringLiteral("error"), error},
                       {QStringLiteral("sharers"), arrayOf(sharers)},
                       {QStringLiteral("keys"), arrayOf(keys)},
                       {QStringLiteral("providers"), arrayOf(providers)},
                       {QStringLiteral("keychainProbed"), keychainProbed},
                       {QStringLiteral("keychainAvailable"), keychainAvailable},
                       {QStringLiteral("keychainError"), keychainError},
                       {QStringLiteral("keychainErrorKind"), keychainErrorKind},
                       {QStringLiteral("secretsFile"), secretsFile},
                       {QStringLiteral("pid"), pid},
                       {QStringLiteral("program"), program},
                       {QStringLiteral("version"), version}};
}

} // namespace Aile::Api
