#pragma once

#include "TraceRecord.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonValue>

namespace Aile::Store {

/// A trace's attempt rows as the compact JSON text the traces table keeps (attempts_json), written
/// straight from the fields with RapidJSON's SAX writer into the array, without building a
/// QJsonObject per row, which was a third of the store writer's CPU (docs/performance.md "Change 1
/// (writer)", "Change 1 (json)"). Members in Qt's key order, numbers as Qt holds them (a whole
/// double within 2^53 and an integer as integers, NaN and infinities as null): a reader parsing it
/// with Qt gets the values QJsonDocument's text would give (ReplayRows reads it by key spelling).
QByteArray attemptsJson(const QList<AttemptRecord> &rows);
/// The same appended to out (a buffer the store writer reuses from row to row).
void appendAttemptsJson(QByteArray &out, const QList<AttemptRecord> &rows);

/// Appends one JSON value (an attempt's plan facts, a trace's pin, the ledger journal's JSON fields)
/// as compact JSON, with the same writer.
void appendJson(QByteArray &out, const QJsonValue &value);

} // namespace Aile::Store
