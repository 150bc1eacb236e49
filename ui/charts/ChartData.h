#pragma once

#include "store/TraceRecord.h"

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QPointF>
#include <QtCore/QStringList>

#include <functional>

namespace Aile::Ui::ChartData {

/// Time to first token of one sharer over time: x is the request's start (ms since the epoch),
/// y the first-token time in ms.
struct SharerSeries
{
    QString sharer;
    QList<QPointF> points;
};

struct MinuteCount
{
    qint64 minuteMs = 0;   // start of the minute, ms since the epoch
    int requests = 0;
    int failures = 0;
};

/// Spend per day (columns) for each name (rows): keys or routes.
struct SpendTable
{
    QStringList days;                    // YYYY-MM-DD, oldest first
    QStringList names;                   // biggest spender first
    QHash<QString, QList<double>> usd;   // name → one value per day
    double total() const;
};

/// A request failed when no answer came or the answer was an error.
bool isFailure(const Store::TraceRecord &trace);

/// One series per sharer that answered with a first byte, the busiest maxSeries sharers only
/// (a chart with twenty lines says nothing), points in time order.
QList<SharerSeries> firstTokenBySharer(const QList<Store::TraceRecord> &traces, int maxSeries = 8);

/// Every minute of [fromMs, toMs), empty ones included, so the lines drop to zero when idle.
QList<MinuteCount> perMinute(const QList<Store::TraceRecord> &traces, qint64 fromMs, qint64 toMs);

/// Sums ledger entries per day and per name. nameOf picks the grouping (the key, the route).
SpendTable spendPerDay(const QStringList &days, const QList<Store::LedgerEntry> &entries,
                       const std::function<QString(const Store::LedgerEntry &)> &nameOf);

/// The last `count` UTC days up to the one holding nowMs, oldest first.
QStringList lastDays(qint64 nowMs, int count);

} // namespace Aile::Ui::ChartData
