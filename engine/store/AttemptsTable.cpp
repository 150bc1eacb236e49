#include "AttemptsTable.h"

#include "TraceRecord.h"

#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlQuery>

namespace Aile::Store {

void loadOlderAttempts(const QSqlDatabase &d, TraceRecord &r)
{
    if (!r.attemptRows.isEmpty())
        return; // written with the trace (schema 2)
    QSqlQuery q(d);
    q.prepare(QStringLiteral("SELECT seq, sharer, sharer_name, provider, model, target, status, outcome, reason, started_ms,"
                             " ttfb_ms, duration_ms, input_tokens, output_tokens, quote_usd, dispatched FROM attempts"
                             " WHERE trace_id = ? ORDER BY seq"));
    q.addBindValue(r.id);
    q.exec();
    while (q.next()) {
        AttemptRecord a;
        int i = 0;
        a.seq = q.value(i++).toInt();
        a.sharer = q.value(i++).toString();
        a.sharerName = q.value(i++).toString();
        a.provider = q.value(i++).toString();
        a.model = q.value(i++).toString();
        a.target = q.value(i++).toString();
        a.status = q.value(i++).toInt();
        a.outcome = q.value(i++).toString();
        a.reason = q.value(i++).toString();
        a.startedMs = q.value(i++).toLongLong();
        a.ttfbMs = q.value(i++).toLongLong();
        a.durationMs = q.value(i++).toLongLong();
        a.inputTokens = q.value(i++).toLongLong();
        a.outputTokens = q.value(i++).toLongLong();
        a.quoteUsd = q.value(i++).toDouble();
        a.dispatched = q.value(i++).toBool();
        r.attemptRows.append(a);
    }
}

} // namespace Aile::Store
