#include "ChartData.h"

#include "store/Store.h"
#include "store/UsageSummary.h"

#include <QtCore/QMap>

#include <algorithm>

namespace Aile::Ui::ChartData {

double SpendTable::total() const
{
    double sum = 0;
    for (const QList<double> &values : usd)
        for (double v : values)
            sum += v;
    return sum;
}

bool isFailure(const Store::TraceRecord &trace)
{
    return trace.status == 0 || trace.status >= 400;
}

QList<SharerSeries> firstTokenBySharer(const QList<Store::TraceRecord> &traces, int maxSeries)
{
    QHash<QString, SharerSeries> bySharer;
    for (const Store::TraceRecord &t : traces) {
        if (t.ttfbMs < 0)
            continue;
        const QString name = t.sharerName.isEmpty() ? t.sharer : t.sharerName;
        if (name.isEmpty())
            continue;
        SharerSeries &s = bySharer[name];
        s.sharer = name;
        s.points.append(QPointF(double(t.startedMs), double(t.ttfbMs)));
    }
    QList<SharerSeries> out = bySharer.values();
    std::sort(out.begin(), out.end(), [](const SharerSeries &a, const SharerSeries &b) {
        return a.points.size() != b.points.size() ? a.points.size() > b.points.size() : a.sharer < b.sharer;
    });
    if (out.size() > maxSeries)
        out.resize(maxSeries);
    for (SharerSeries &s : out)
        std::sort(s.points.begin(), s.points.end(), [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); });
    // Stable colours between refreshes: the legend order follows the names.
    std::sort(out.begin(), out.end(), [](const SharerSeries &a, const SharerSeries &b) { return a.sharer < b.sharer; });
    return out;
}

QList<MinuteCount> perMinute(const QList<Store::TraceRecord> &traces, qint64 fromMs, qint64 toMs)
{
    constexpr qint64 Minute = 60 * 1000;
    const qint64 first = fromMs - fromMs % Minute;
    QList<MinuteCount> out;
    for (qint64 m = first; m < toMs; m += Minute)
        out.append(MinuteCount{m, 0, 0});
    for (const Store::TraceRecord &t : traces) {
        if (t.startedMs < first || t.startedMs >= toMs)
            continue;
        MinuteCount &c = out[int((t.startedMs - first) / Minute)];
        ++c.requests;
        if (isFailure(t))
            ++c.failures;
    }
    return out;
}

SpendTable spendPerDay(const QStringList &days, const QList<Store::LedgerEntry> &entries,
                       const std::function<QString(const Store::LedgerEntry &)> &nameOf)
{
    SpendTable table;
    table.days = days;
    QHash<QString, double> totals;
    for (const Store::LedgerEntry &e : entries) {
        const int day = int(days.indexOf(e.day));
        if (day < 0 || e.subscription)
            continue;   // a plan's rows spent nothing: PlanValueChart draws what they were worth
        const QString name = nameOf(e);
        QList<double> &values = table.usd[name];
        if (values.isEmpty())
            values = QList<double>(days.size(), 0.0);
        values[day] += e.costUsd;
        totals[name] += e.costUsd;
    }
    table.names = table.usd.keys();
    std::sort(table.names.begin(), table.names.end(), [&](const QString &a, const QString &b) {
        return totals.value(a) != totals.value(b) ? totals.value(a) > totals.value(b) : a < b;
    });
    return table;
}

QStringList lastDays(qint64 nowMs, int count)
{
    return Store::daysUpTo(nowMs, count);
}

} // namespace Aile::Ui::ChartData
