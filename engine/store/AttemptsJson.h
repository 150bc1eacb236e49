#pragma once

#include "TraceRecord.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonValue>

namespace Aile::Store {

/// A trace's attempt rows as the compact JSON text the traces table keeps (attempts_json), written
/// straight from the fields: the same bytes as QJsonDocument(array of AttemptRecord::toJson())
/// .toJson(Compact) (keys in Qt's sorted order, Qt's escapes and number forms), without building
/// a QJsonObject per row, which was a third of the store writer's CPU (docs/performance.md
/// "Change 2 (writer)"). Readers parse it with Qt as before (ReplayRows reads it by its key spelling).
QByteArray attemptsJson(const QList<AttemptRecord> &rows);

/// Appends one JSON value (an attempt's plan facts, a trace's pin) in Qt's compact form.
void appendJson(QByteArray &out, const QJsonValue &value);

} // namespace Aile::Store
