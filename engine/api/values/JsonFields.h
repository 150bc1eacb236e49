#pragma once

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QStringList>

#include <optional>

// Small readers and writers the value structs share: a field the engine leaves out (or sends as
// null) reads as an empty optional, and an empty optional is left out again.
namespace Aile::Api::Json {

inline QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

inline std::optional<double> optDouble(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

inline std::optional<int> optInt(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? std::optional<int>(v.toInt()) : std::nullopt;
}

inline std::optional<bool> optBool(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isBool() ? std::optional<bool>(v.toBool()) : std::nullopt;
}

// A number, or null where there is none (a field the API always writes).
inline QJsonValue orNull(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

inline QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        out << s.toString();
    return out;
}

template <typename T> void put(QJsonObject &o, const char *key, const std::optional<T> &v)
{
    if (v)
        o.insert(QLatin1String(key), *v);
}

inline void putString(QJsonObject &o, const char *key, const QString &v)
{
    if (!v.isEmpty())
        o.insert(QLatin1String(key), v);
}

/// fromJson of every object of an array.
template <typename T> QList<T> listOf(const QJsonValue &v)
{
    QList<T> out;
    for (const QJsonValue &item : v.toArray())
        out.append(T::fromJson(item.toObject()));
    return out;
}

template <typename T> QJsonArray arrayOf(const QList<T> &items)
{
    QJsonArray out;
    for (const T &item : items)
        out.append(item.toJson());
    return out;
}

} // namespace Aile::Api::Json
