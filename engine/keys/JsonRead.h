#pragma once
// Small readers of optional JSON fields, shared by the key settings and the routes.

#include <QJsonObject>
#include <QJsonValue>
#include <QLatin1String>

#include <optional>

namespace Aile::Keys {

// The number at `name`, or nothing when the field is absent or not a number.
inline std::optional<double> optionalNumber(const QJsonObject &o, const char *name)
{
    const QJsonValue v = o.value(QLatin1String(name));
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

} // namespace Aile::Keys
