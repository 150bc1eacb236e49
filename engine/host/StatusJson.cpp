#include "StatusJson.h"

namespace Aile {

QJsonObject statusToJson(const EngineStatus &s)
{
    return QJsonObject{{QStringLiteral("listening"), s.listening},
                       {QStringLiteral("address"), s.address},
                       {QStringLiteral("port"), s.port},
                       {QStringLiteral("error"), s.error},
                       {QStringLiteral("sharers"), s.sharers},
                       {QStringLiteral("keys"), s.keys},
                       {QStringLiteral("providers"), s.providers},
                       {QStringLiteral("keychainProbed"), s.keychainProbed},
                       {QStringLiteral("keychainAvailable"), s.keychainAvailable},
                       {QStringLiteral("keychainError"), s.keychainError},
                       {QStringLiteral("keychainErrorKind"), s.keychainErrorKind},
                       {QStringLiteral("secretsFile"), s.secretsFile},
                       {QStringLiteral("pid"), s.pid},
                       {QStringLiteral("program"), s.program},
                       {QStringLiteral("version"), s.version}};
}

EngineStatus statusFromJson(const QJsonObject &o)
{
    EngineStatus s;
    s.listening = o.value(QLatin1String("listening")).toBool();
    s.address = o.value(QLatin1String("address")).toString();
    s.port = quint16(o.value(QLatin1String("port")).toInt());
    s.error = o.value(QLatin1String("error")).toString();
    s.sharers = o.value(QLatin1String("sharers")).toArray();
    s.keys = o.value(QLatin1String("keys")).toArray();
    s.providers = o.value(QLatin1String("providers")).toArray();
    s.keychainProbed = o.value(QLatin1String("keychainProbed")).toBool();
    s.keychainAvailable = o.value(QLatin1String("keychainAvailable")).toBool();
    s.keychainError = o.value(QLatin1String("keychainError")).toString();
    s.keychainErrorKind = o.value(QLatin1String("keychainErrorKind")).toInt();
    s.secretsFile = o.value(QLatin1String("secretsFile")).toString();
    s.pid = o.value(QLatin1String("pid")).toInteger();
    s.program = o.value(QLatin1String("program")).toString();
    s.version = o.value(QLatin1String("version")).toString();
    return s;
}

} // namespace Aile
