#pragma once

#include "ConfigProblem.h"
#include "keys/KeyRouting.h"

#include <QtCore/QJsonObject>
#include <QtCore/QStringList>

#include <initializer_list>

namespace Aile::Config {

/// What one field of an object takes. The tables in EntryChecks.cpp describe every object of the
/// configuration format with these, so unknown names, wrong types and values out of range get the
/// same message wherever the object comes from.
struct Field
{
    enum Type { String, Bool, Integer, Number, Strings, Object, Array, Any };
    const char *name;
    Type type;
    double min = 0;
    double max = 0;             // min == max == 0: no range
    QStringList oneOf = {};     // String: the allowed values
    bool nullable = false;      // null reads as "not given"
    const char *what = nullptr; // how a message names a number: "a price in USD per million tokens"
};

/// Checks o against fields: every name must be one of them, of its type, in its range, one of its
/// values. entry names the object in messages ("sharer L0123456789abcdef"); kind is what the
/// object is ("sharer field"), pointer where it sits in the document.
void checkFields(const QJsonObject &o, std::initializer_list<Field> fields, const QString &entry, const QString &kind, const QString &pointer,
                 Problems *out);

/// A value as a message shows it (the keys' checks share it, one folder below).
using Keys::describeValue;

/// "sharer L…: message" at pointer.
void addProblem(Problems *out, const QString &pointer, const QString &entry, const QString &message);

} // namespace Aile::Config
