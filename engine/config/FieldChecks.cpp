#include "FieldChecks.h"

#include <QtCore/QJsonArray>

#include <cmath>

namespace Aile::Config {

void addProblem(Problems *out, const QString &pointer, const QString &entry, const QString &message)
{
    out->append({pointer, entry.isEmpty() ? message : entry + QStringLiteral(": ") + message});
}

namespace {

QString number(double d)
{
    return d == std::floor(d) && std::fabs(d) < 1e15 ? QString::number(qint64(d)) : QString::number(d, 'g', 12);
}

// What a field takes, as the message says it: "a whole number from 0 to 10000".
QString expectation(const Field &f)
{
    const bool ranged = f.min != 0 || f.max != 0;
    const QString range = ranged ? QStringLiteral(" from %1 to %2").arg(number(f.min), number(f.max)) : QString();
    const QString orNull = f.nullable ? QStringLiteral(", or null") : QString();
    if (f.what)
        return QLatin1String(f.what) + range + orNull;
    switch (f.type) {
    case Field::String:
        if (!f.oneOf.isEmpty())
            return QStringLiteral("one of \"%1\"").arg(f.oneOf.join(QStringLiteral("\", \"")));
        return QStringLiteral("a string");
    case Field::Bool: return QStringLiteral("true or false");
    case Field::Integer: return QStringLiteral("a whole number") + range + orNull;
    case Field::Number: return QStringLiteral("a number") + range + orNull;
    case Field::Strings: return QStringLiteral("a list of strings");
    case Field::Object: return QStringLiteral("an object");
    case Field::Array: return QStringLiteral("a list");
    case Field::Any: break;
    }
    return QStringLiteral("a value");
}

bool fits(const Field &f, const QJsonValue &v)
{
    if (v.isNull())
        return f.nullable || f.type == Field::Any;
    const bool ranged = f.min != 0 || f.max != 0;
    switch (f.type) {
    case Field::String: return v.isString() && (f.oneOf.isEmpty() || f.oneOf.contains(v.toString()));
    case Field::Bool: return v.isBool();
    case Field::Integer:
    case Field::Number: {
        if (!v.isDouble() || !std::isfinite(v.toDouble()))
            return false;
        const double d = v.toDouble();
        if (f.type == Field::Integer && d != std::floor(d))
            return false;
        return !ranged || (d >= f.min && d <= f.max);
    }
    case Field::Strings:
        if (!v.isArray())
            return false;
        for (const QJsonValue &e : v.toArray())
            if (!e.isString())
                return false;
        return true;
    case Field::Object: return v.isObject();
    case Field::Array: return v.isArray();
    case Field::Any: return true;
    }
    return false;
}

} // namespace

void checkFields(const QJsonObject &o, std::initializer_list<Field> fields, const QString &entry, const QString &kind, const QString &pointer,
                 Problems *out)
{
    QStringList names;
    for (const Field &f : fields)
        names << QLatin1String(f.name);
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString where = pointerTo(pointer, it.key());
        const Field *field = nullptr;
        for (const Field &f : fields)
            if (it.key() == QLatin1String(f.name))
                field = &f;
        if (!field) {
            addProblem(out, where, entry,
                       QStringLiteral("\"%1\" is not a %2; the known ones are %3 (docs/configuration.md)")
                           .arg(it.key(), kind, names.join(QStringLiteral(", "))));
            continue;
        }
        if (!fits(*field, it.value()))
            addProblem(out, where, entry, QStringLiteral("\"%1\" must be %2, not %3").arg(it.key(), expectation(*field), describeValue(it.value())));
    }
}

} // namespace Aile::Config
