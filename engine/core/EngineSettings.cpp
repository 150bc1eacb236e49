#include "EngineSettings.h"

#include <QtCore/QJsonArray>

namespace Aile {

void EngineSettings::apply(const QJsonObject &o)
{
    maxDials = qBound(1, o.value(QLatin1String("maxDials")).toInt(maxDials), 16);
    scanCap = qBound(1, o.value(QLatin1String("scanCap")).toInt(scanCap), 1000);
    firstByteBudgetMs = qint64(o.value(QLatin1String("firstByteBudgetMs")).toDouble(double(firstByteBudgetMs)));
    idleTimeoutMs = qint64(o.value(QLatin1String("idleTimeoutMs")).toDouble(double(idleTimeoutMs)));
    connectTimeoutMs = qint64(o.value(QLatin1String("connectTimeoutMs")).toDouble(double(connectTimeoutMs)));
    holdAfterMs = qint64(o.value(QLatin1String("holdAfterMs")).toDouble(double(holdAfterMs)));
    holdKeepaliveMs = qint64(o.value(QLatin1String("holdKeepaliveMs")).toDouble(double(holdKeepaliveMs)));
    tieBandPercent = qBound(0.0, o.value(QLatin1String("tieBandPercent")).toDouble(tieBandPercent), 100.0);
    comparisonInputWeight = qMax(0.0, o.value(QLatin1String("comparisonInputWeight")).toDouble(comparisonInputWeight));
    comparisonOutputWeight = qMax(0.0, o.value(QLatin1String("comparisonOutputWeight")).toDouble(comparisonOutputWeight));
    degradedSuccessRate = qBound(0.0, o.value(QLatin1String("degradedSuccessRate")).toDouble(degradedSuccessRate), 1.0);
    degradedMinAttempts = qMax(1, o.value(QLatin1String("degradedMinAttempts")).toInt(degradedMinAttempts));
    sortMinSamples = qMax(1, o.value(QLatin1String("sortMinSamples")).toInt(sortMinSamples));
    affinityPriceTolerance = o.value(QLatin1String("affinityPriceTolerance")).toDouble(affinityPriceTolerance);
    pinTtlSeconds = qint64(o.value(QLatin1String("pinTtlSeconds")).toDouble(double(pinTtlSeconds)));
    probeIntervalMs = qMax<qint64>(60'000, qint64(o.value(QLatin1String("probeIntervalMs")).toDouble(double(probeIntervalMs))));
    if (o.contains(QLatin1String("allowedOrigins"))) {
        allowedOrigins.clear();
        for (const QJsonValue &v : o.value(QLatin1String("allowedOrigins")).toArray())
            allowedOrigins.append(v.toString());
    }
    allowRemote = o.value(QLatin1String("allowRemote")).toBool(allowRemote);
    if (o.contains(QLatin1String("allowedHosts"))) {
        allowedHosts.clear();
        for (const QJsonValue &v : o.value(QLatin1String("allowedHosts")).toArray())
            if (!v.toString().trimmed().isEmpty())
                allowedHosts.append(v.toString().trimmed().toLower());
    }
}

QJsonObject EngineSettings::toJson() const
{
    return QJsonObject{{QStringLiteral("maxDials"), maxDials},
                       {QStringLiteral("scanCap"), scanCap},
                       {QStringLiteral("firstByteBudgetMs"), firstByteBudgetMs},
                       {QStringLiteral("idleTimeoutMs"), idleTimeoutMs},
                       {QStringLiteral("connectTimeoutMs"), connectTimeoutMs},
                       {QStringLiteral("holdAfterMs"), holdAfterMs},
                       {QStringLiteral("holdKeepaliveMs"), holdKeepaliveMs},
                       {QStringLiteral("tieBandPercent"), tieBandPercent},
                       {QStringLiteral("comparisonInputWeight"), comparisonInputWeight},
                       {QStringLiteral("comparisonOutputWeight"), comparisonOutputWeight},
                       {QStringLiteral("degradedSuccessRate"), degradedSuccessRate},
                       {QStringLiteral("degradedMinAttempts"), degradedMinAttempts},
                       {QStringLiteral("sortMinSamples"), sortMinSamples},
                       {QStringLiteral("affinityPriceTolerance"), affinityPriceTolerance},
                       {QStringLiteral("pinTtlSeconds"), pinTtlSeconds},
                       {QStringLiteral("probeIntervalMs"), probeIntervalMs},
                       {QStringLiteral("allowedOrigins"), QJsonArray::fromStringList(allowedOrigins)},
                       {QStringLiteral("allowRemote"), allowRemote},
                       {QStringLiteral("allowedHosts"), QJsonArray::fromStringList(allowedHosts)}};
}

} // namespace Aile
