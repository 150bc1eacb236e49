#include "TraceRecord.h"

#include <QtCore/QJsonArray>

namespace Aile::Store {

QJsonObject AttemptRecord::toJson() const
{
    QJsonObject o{{QStringLiteral("seq"), seq},
                  {QStringLiteral("sharer"), sharer},
                  {QStringLiteral("sharerName"), sharerName},
                  {QStringLiteral("provider"), provider},
                  {QStringLiteral("model"), model},
                  {QStringLiteral("target"), target},
                  {QStringLiteral("status"), status},
                  {QStringLiteral("outcome"), outcome},
                  {QStringLiteral("reason"), reason},
                  {QStringLiteral("startedMs"), startedMs},
                  {QStringLiteral("ttfbMs"), ttfbMs},
                  {QStringLiteral("durationMs"), durationMs},
                  {QStringLiteral("inputTokens"), inputTokens},
                  {QStringLiteral("outputTokens"), outputTokens},
                  {QStringLiteral("quoteUsd"), quoteUsd},
                  {QStringLiteral("dispatched"), dispatched}};
    if (!skip.isEmpty())
        o.insert(QStringLiteral("skip"), skip);
    if (!plan.isEmpty())
        o.insert(QStringLiteral("plan"), plan);
    if (!nodeSharer.isEmpty())
        o.insert(QStringLiteral("nodeSharer"), nodeSharer);
    if (!nodePrice.isEmpty())
        o.insert(QStringLiteral("nodePrice"), nodePrice);
    return o;
}

AttemptRecord AttemptRecord::fromJson(const QJsonObject &o)
{
    AttemptRecord a;
    a.seq = o.value(QLatin1String("seq")).toInt();
    a.sharer = o.value(QLatin1String("sharer")).toString();
    a.sharerName = o.value(QLatin1String("sharerName")).toString();
    a.provider = o.value(QLatin1String("provider")).toString();
    a.model = o.value(QLatin1String("model")).toString();
    a.target = o.value(QLatin1String("target")).toString();
    a.status = o.value(QLatin1String("status")).toInt();
    a.outcome = o.value(QLatin1String("outcome")).toString();
    a.reason = o.value(QLatin1String("reason")).toString();
    a.skip = o.value(QLatin1String("skip")).toString();
    a.startedMs = qint64(o.value(QLatin1String("startedMs")).toDouble());
    a.ttfbMs = qint64(o.value(QLatin1String("ttfbMs")).toDouble(-1));
    a.durationMs = qint64(o.value(QLatin1String("durationMs")).toDouble());
    a.inputTokens = qint64(o.value(QLatin1String("inputTokens")).toDouble(-1));
    a.outputTokens = qint64(o.value(QLatin1String("outputTokens")).toDouble(-1));
    a.quoteUsd = o.value(QLatin1String("quoteUsd")).toDouble(-1);
    a.dispatched = o.value(QLatin1String("dispatched")).toBool(true);
    a.plan = o.value(QLatin1String("plan")).toObject();
    a.nodeSharer = o.value(QLatin1String("nodeSharer")).toString();
    a.nodePrice = o.value(QLatin1String("nodePrice")).toString();
    return a;
}

QJsonObject TraceRecord::toJson() const
{
    QJsonArray rows;
    for (const AttemptRecord &a : attemptRows)
        rows.append(a.toJson());
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("startedMs"), startedMs},
                  {QStringLiteral("keyId"), keyId},
                  {QStringLiteral("keyName"), keyName},
                  {QStringLiteral("client"), client},
                  {QStringLiteral("endpoint"), endpoint},
                  {QStringLiteral("modelAsked"), modelAsked},
                  {QStringLiteral("modelServed"), modelServed},
                  {QStringLiteral("route"), route},
                  {QStringLiteral("sharer"), sharer},
                  {QStringLiteral("sharerName"), sharerName},
                  {QStringLiteral("status"), status},
                  {QStringLiteral("attempts"), attempts},
                  {QStringLiteral("ttfbMs"), ttfbMs},
                  {QStringLiteral("durationMs"), durationMs},
                  {QStringLiteral("inputTokens"), inputTokens},
                  {QStringLiteral("outputTokens"), outputTokens},
                  {QStringLiteral("costUsd"), costUsd},
                  {QStringLiteral("absorbedUsd"), absorbedUsd},
                  {QStringLiteral("affinity"), affinity},
                  {QStringLiteral("pin"), pin},
                  {QStringLiteral("stream"), stream},
                  {QStringLiteral("error"), error},
                  {QStringLiteral("attemptRows"), rows}};
    if (!orderedBy.isEmpty())
        o.insert(QStringLiteral("orderedBy"), orderedBy);
    if (!session.isEmpty())
        o.insert(QStringLiteral("session"), session);
    if (maxOutputTokens >= 0)
        o.insert(QStringLiteral("maxOutputTokens"), maxOutputTokens);
    return o;
}

TraceRecord TraceRecord::fromJson(const QJsonObject &o)
{
    TraceRecord t;
    t.id = o.value(QLatin1String("id")).toString();
    t.startedMs = qint64(o.value(QLatin1String("startedMs")).toDouble());
    t.keyId = o.value(QLatin1String("keyId")).toString();
    t.keyName = o.value(QLatin1String("keyName")).toString();
    t.client = o.value(QLatin1String("client")).toString();
    t.endpoint = o.value(QLatin1String("endpoint")).toString();
    t.modelAsked = o.value(QLatin1String("modelAsked")).toString();
    t.modelServed = o.value(QLatin1String("modelServed")).toString();
    t.route = o.value(QLatin1String("route")).toString();
    t.sharer = o.value(QLatin1String("sharer")).toString();
    t.sharerName = o.value(QLatin1String("sharerName")).toString();
    t.status = o.value(QLatin1String("status")).toInt();
    t.attempts = o.value(QLatin1String("attempts")).toInt();
    t.ttfbMs = qint64(o.value(QLatin1String("ttfbMs")).toDouble(-1));
    t.durationMs = qint64(o.value(QLatin1String("durationMs")).toDouble());
    t.inputTokens = qint64(o.value(QLatin1String("inputTokens")).toDouble(-1));
    t.outputTokens = qint64(o.value(QLatin1String("outputTokens")).toDouble(-1));
    t.costUsd = o.value(QLatin1String("costUsd")).toDouble();
    t.absorbedUsd = o.value(QLatin1String("absorbedUsd")).toDouble();
    t.affinity = o.value(QLatin1String("affinity")).toString();
    t.orderedBy = o.value(QLatin1String("orderedBy")).toString();
    t.pin = o.value(QLatin1String("pin")).toObject();
    t.stream = o.value(QLatin1String("stream")).toBool();
    t.error = o.value(QLatin1String("error")).toString();
    t.session = o.value(QLatin1String("session")).toString();
    t.maxOutputTokens = qint64(o.value(QLatin1String("maxOutputTokens")).toDouble(-1));
    for (const QJsonValue &v : o.value(QLatin1String("attemptRows")).toArray())
        t.attemptRows.append(AttemptRecord::fromJson(v.toObject()));
    return t;
}

} // namespace Aile::Store
