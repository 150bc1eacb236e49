#pragma once

#include "store/TraceRecord.h"

#include <QtCore/QByteArray>
#include <QtCore/QLoggingCategory>

#include <span>

Q_DECLARE_LOGGING_CATEGORY(lcAccess)

namespace Aile::Log {

/// One access-log line per finished request, like a web server's: trace id, key name, model
/// asked and served, sharer, status, attempts, duration and cost, as key=value pairs. Never a
/// secret, a prompt or an answer: only what the Traces table shows in its columns.
QString accessLine(const Store::TraceRecord &trace);
/// The same line appended to out as UTF-8 (what the text log writes, without a QString between).
void appendAccessLine(QByteArray &out, const Store::TraceRecord &trace);

/// Writes one line per trace to the aile.access category; formats nothing when the category is
/// off. Called with the batches the trace sink publishes (a slice at a time: AccessLogQueue), not
/// on the request's own path.
void logAccess(std::span<const Store::TraceRecord> traces);
void logAccess(const QList<Store::TraceRecord> &traces);

/// A logfmt value: bare when it is one plain word, else quoted with " and \ escaped.
QString logfmtValue(const QString &value);

} // namespace Aile::Log
