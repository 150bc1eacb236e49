#include "ReplayRows.h"

#include "AttemptsTable.h"
#include "Store.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>

namespace Aile::Store {

namespace {

/// The one attempt row of a request served at its first try, read without a JSON parse: the
/// common case, and most of a replay's read when parsed. The store writes attempts_json with Qt's
/// compact writer, so a key appears as "name": and a quote inside a string is escaped; a row with
/// more than one outcome, or that is not served, takes the full parse.
bool readServedAlone(const QByteArray &json, TraceRecord &r)
{
    static const QByteArray outcome = QByteArrayLiteral("\"outcome\":\"");
    static const QByteArray served = QByteArrayLiteral("\"outcome\":\"served\"");
    static const QByteArray started = QByteArrayLiteral("\"startedMs\":");
    static const QByteArray sharer = QByteArrayLiteral("\"sharer\":\"");
    const qsizetype at = json.indexOf(served);
    if (at < 0 || json.indexOf(outcome, at + 1) >= 0 || json.lastIndexOf(outcome, at - 1) >= 0)
        return false;
    const qsizetype startAt = json.indexOf(started);
    const qsizetype sharerAt = json.indexOf(sharer);
    if (startAt < 0 || json.indexOf(started, startAt + 1) >= 0 || sharerAt < 0 || json.indexOf(sharer, sharerAt + 1) >= 0)
        return false;
    const qsizetype numberAt = startAt + started.size();
    qsizetype end = numberAt;
    while (end < json.size() && (json.at(end) == '-' || (json.at(end) >= '0' && json.at(end) <= '9')))
        ++end;
    if (end >= json.size() || (json.at(end) != ',' && json.at(end) != '}'))
        return false; // not a plain integer (1.78e+12)
    bool ok = false;
    const qint64 startedMs = QByteArrayView(json).sliced(numberAt, end - numberAt).toLongLong(&ok);
    const qsizetype nameAt = sharerAt + sharer.size();
    const qsizetype sharerEnd = json.indexOf('"', nameAt);
    if (!ok || sharerEnd < 0 || QByteArrayView(json).sliced(nameAt, sharerEnd - nameAt).contains('\\'))
        return false;
    AttemptRecord a;
    a.sharer = QString::fromUtf8(json.constData() + nameAt, sharerEnd - nameAt);
    a.outcome = QStringLiteral("served");
    a.startedMs = startedMs;
    r.attemptRows.append(a);
    return true;
}

/// The attempt rows written with the trace (schema 2 on), reduced to what HealthTimeline reads.
void readAttemptsJson(const QByteArray &json, TraceRecord &r)
{
    if (json.isEmpty() || readServedAlone(json, r))
        return;
    const QJsonArray rows = QJsonDocument::fromJson(json).array();
    r.attemptRows.reserve(rows.size());
    for (const QJsonValue &v : rows) {
        const QJsonObject o = v.toObject();
        AttemptRecord a;
        a.sharer = o.value(QLatin1String("sharer")).toString();
        a.status = o.value(QLatin1String("status")).toInt();
        a.outcome = o.value(QLatin1String("outcome")).toString();
        a.skip = o.value(QLatin1String("skip")).toString();
        a.startedMs = qint64(o.value(QLatin1String("startedMs")).toDouble());
        a.dispatched = o.value(QLatin1String("dispatched")).toBool(true);
        r.attemptRows.append(a);
    }
}

} // namespace

QList<TraceRecord> replayRows(const Store &store, const QString &keyId, qint64 sinceMs, int limit)
{
    QList<TraceRecord> out;
    const QSqlDatabase d = QSqlDatabase::database(store.connectionName(), false);
    // Room for every row at once: growing a list of 100,000 records moves them again and again.
    TraceQuery count;
    count.keyId = keyId;
    count.sinceMs = qMax<qint64>(1, sinceMs);
    out.reserve(qMin(qMax(0, limit), store.traceCount(count)));
    QSqlQuery q(d);
    // Forward only: the driver hands each row over once instead of caching every value of the result.
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT id, started_ms, endpoint, model_asked, model_served, sharer, status, attempts, input_tokens,"
                             " output_tokens, cost_usd, stream, session, max_output, attempts_json FROM traces"
                             " WHERE started_ms >= ? AND (key_id = ? OR key_name = ?) ORDER BY started_ms DESC, rowid DESC LIMIT ?"));
    q.addBindValue(qMax<qint64>(1, sinceMs));
    q.addBindValue(keyId);
    q.addBindValue(keyId);
    q.addBindValue(qMax(0, limit));
    if (!q.exec())
        return out;
    while (q.next()) {
        TraceRecord r;
        r.id = q.value(0).toString();
        r.startedMs = q.value(1).toLongLong();
        r.endpoint = q.value(2).toString();
        r.modelAsked = q.value(3).toString();
        r.modelServed = q.value(4).toString();
        r.sharer = q.value(5).toString();
        r.status = q.value(6).toInt();
        r.attempts = q.value(7).toInt();
        r.inputTokens = q.value(8).toLongLong();
        r.outputTokens = q.value(9).toLongLong();
        r.costUsd = q.value(10).toDouble();
        r.stream = q.value(11).toBool();
        r.session = q.value(12).toString();
        const QVariant maxOutput = q.value(13);
        r.maxOutputTokens = maxOutput.isNull() ? -1 : maxOutput.toLongLong();
        readAttemptsJson(q.value(14).toByteArray(), r);
        if (r.attemptRows.isEmpty() && r.attempts > 0)
            loadOlderAttempts(d, r);
        out.append(std::move(r));
    }
    return out;
}

} // namespace Aile::Store
