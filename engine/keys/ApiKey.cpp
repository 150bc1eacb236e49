#include "ApiKey.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QRandomGenerator>

namespace Aile::Keys {

QString hashKey(const QString &plain)
{
    return QString::fromLatin1(QCryptographicHash::hash(plain.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QString generateKey()
{
    QByteArray bytes(20, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()), 5);
    return QStringLiteral("sk-aile-") + QString::fromLatin1(bytes.toHex());
}

bool looksLikeKey(const QString &plain)
{
    return plain.startsWith(QLatin1String("sk-aile-")) && plain.size() >= 16;
}

const KeyRouting &ApiKey::routingSettings() const
{
    if (!parsedRouting || parsedRouting->source != routing)
        parsedRouting = std::make_shared<const ParsedRouting>(ParsedRouting{routing, KeyRouting::from(routing)});
    return parsedRouting->settings;
}

ApiKey ApiKey::fromPlain(const QString &name, const QString &plain, qint64 nowMs)
{
    ApiKey k;
    k.name = name;
    k.hash = hashKey(plain);
    k.id = QStringLiteral("k_") + k.hash.left(12);
    k.prefix = plain.left(12) + QStringLiteral("…");
    k.createdMs = nowMs;
    return k;
}

QJsonObject ApiKey::toJson() const
{
    return QJsonObject{{QStringLiteral("id"), id},           {QStringLiteral("name"), name},           {QStringLiteral("hash"), hash},
                       {QStringLiteral("prefix"), prefix},   {QStringLiteral("createdMs"), createdMs}, {QStringLiteral("revoked"), revoked},
                       {QStringLiteral("routing"), routing}, {QStringLiteral("routes"), routes}};
}

std::optional<ApiKey> ApiKey::fromJson(const QJsonObject &o, QString *error)
{
    ApiKey k;
    k.name = o.value(QLatin1String("name")).toString();
    k.hash = o.value(QLatin1String("hash")).toString();
    if (k.name.isEmpty() || k.hash.size() != 64) {
        if (error)
            *error = QStringLiteral("a stored key needs a name and a SHA-256 hash");
        return std::nullopt;
    }
    k.id = o.value(QLatin1String("id")).toString(QStringLiteral("k_") + k.hash.left(12));
    k.prefix = o.value(QLatin1String("prefix")).toString();
    k.createdMs = qint64(o.value(QLatin1String("createdMs")).toDouble());
    k.revoked = o.value(QLatin1String("revoked")).toBool(false);
    k.routing = o.value(QLatin1String("routing")).toObject();
    k.routes = o.value(QLatin1String("routes")).toArray();
    return k;
}

} // namespace Aile::Keys
