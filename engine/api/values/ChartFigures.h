#pragma once

#include "store/TraceRecord.h"
#include "store/UsageSummary.h"

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QPointF>
#include <QtCore/QStringList>

#include <functional>

namespace Aile::Store {
class Store;
}

namespace Aile::Api::Charts {

/// Time to first token of one sharer over time: x is the request's start (ms since the epoch),
/// y the first-token time in ms.
struct SharerSeries
{
    QString sharer;
    QList<QPointF> points;
};

struct MinuteCount
{
    qint64 minuteMs = 0; // start of the minute, ms since the epoch
    int requests = 0;
    int failures = 0;
};

/// Spend per day (columns) for each name (rows): keys or routes. An empty name is "no route".
struct SpendTable
{
    QStringList days;                  // YYYY-MM-DD, oldest first
    QStringList names;                 // biggest spender first
    QHash<QString, QList<double>> usd; // name → one value per day
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

/// What the Charts page draws, summed from one store: the requests of the last minutes (first
/// token per sharer, requests and failures per minute) and the ledger of the last days (spend per
/// key, per route, and per sharer with the subscriptions' list-price value in `usage`).
/// GET /keys/usage/charts answers it as JSON; the window sums the same from its own store file.
struct ChartFigures
{
    qint64 from = 0;
    qint64 now = 0;
    int requests = 0; // requests in [from, now)
    int failures = 0;
    QList<SharerSeries> firstToken;
    QList<MinuteCount> perMinute;
    SpendTable spendByKey;   // named by the key's name (its id once it is gone)
    SpendTable spendByRoute; // "" for requests without a route
    Store::UsageSummary usage;

    QJsonObject toJson() const;
    static ChartFigures fromJson(const QJsonObject &o);
};

/// How much ChartFigures reads: a busy window past maxTraces requests is drawn from its newest
/// part only, so the figures stay quick to sum and to send.
struct ChartAsk
{
    qint64 now = 0;
    int minutes = 60;
    int days = 14;
    int maxTraces = 20000;
};

/// Reads and sums the figures; no store gives empty figures over the same window and days.
/// keyNames gives each key id its name.
ChartFigures readFigures(const Store::Store *store, const ChartAsk &ask, const QHash<QString, QString> &keyNames);

} // namespace Aile::Api::Charts
