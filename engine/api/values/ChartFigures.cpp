#include "ChartFigures.h"

#include "store/Store.h"

#include <QtCore/QJsonArray>

#include <algorithm>

namespace Aile::Api::Charts {

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
            continue; // a plan's rows spent nothing: PlanValueChart draws what they were worth
        const QString name = nameOf(e);
        QList<double> &values = table.usd[name];
        if (values.isEmpty())
            values = QList<double>(days.size(), 0.0);
        values[day] += e.costUsd;
        totals[name] += e.costUsd;
    }
    table.names = table.usd.keys();
    std::sort(table.names.begin(), table.names.end(),
              [&](const QString &a, const QString &b) { return totals.value(a) != totals.value(b) ? totals.value(a) > totals.value(b) : a < b; });
    return table;
}

QStringList lastDays(qint64 nowMs, int count)
{
    return Store::daysUpTo(nowMs, count);
}

namespace {

QJsonObject spendJson(const SpendTable &table)
{
    QJsonObject usd;
    for (auto it = table.usd.cbegin(); it != table.usd.cend(); ++it) {
        QJsonArray values;
        for (double v : it.value())
            values.append(v);
        usd.insert(it.key(), values);
    }
    return {{QStringLiteral("names"), QJsonArray::fromStringList(table.names)}, {QStringLiteral("usd"), usd}};
}

SpendTable spendFromJson(const QStringList &days, const QJsonObject &o)
{
    SpendTable table;
    table.days = days;
    for (const QJsonValue &v : o.value(QLatin1String("names")).toArray())
        table.names.append(v.toString());
    const QJsonObject usd = o.value(QLatin1String("usd")).toObject();
    for (const QString &name : std::as_const(table.names)) {
        // One value per day whatever the sender wrote: the charts index it by day.
        QList<double> values(days.size(), 0.0);
        const QJsonArray sent = usd.value(name).toArray();
        for (int d = 0; d < values.size() && d < sent.size(); ++d)
            values[d] = sent.at(d).toDouble();
        table.usd.insert(name, values);
    }
    return table;
}

} // namespace

QJsonObject ChartFigures::toJson() const
{
    QJsonArray firstTokenJson;
    for (const SharerSeries &s : firstToken) {
        QJsonArray points;
        for (const QPointF &p : s.points)
            points.append(QJsonArray{qint64(p.x()), p.y()});
        firstTokenJson.append(QJsonObject{{QStringLiteral("sharer"), s.sharer}, {QStringLiteral("points"), points}});
    }
    QJsonArray minutes;
    for (const MinuteCount &m : perMinute)
        minutes.append(
            QJsonObject{{QStringLiteral("minute"), m.minuteMs}, {QStringLiteral("requests"), m.requests}, {QStringLiteral("failures"), m.failures}});
    return {{QStringLiteral("from"), from},
            {QStringLiteral("now"), now},
            {QStringLiteral("requests"), requests},
            {QStringLiteral("failures"), failures},
            {QStringLiteral("days"), QJsonArray::fromStringList(usage.days)},
            {QStringLiteral("firstToken"), firstTokenJson},
            {QStringLiteral("perMinute"), minutes},
            {QStringLiteral("spendByKey"), spendJson(spendByKey)},
            {QStringLiteral("spendByRoute"), spendJson(spendByRoute)},
            {QStringLiteral("usage"), usage.toJson()}};
}

ChartFigures ChartFigures::fromJson(const QJsonObject &o)
{
    ChartFigures f;
    f.from = o.value(QLatin1String("from")).toInteger();
    f.now = o.value(QLatin1String("now")).toInteger();
    f.requests = o.value(QLatin1String("requests")).toInt();
    f.failures = o.value(QLatin1String("failures")).toInt();
    QStringList days;
    for (const QJsonValue &v : o.value(QLatin1String("days")).toArray())
        days.append(v.toString());
    for (const QJsonValue &v : o.value(QLatin1String("firstToken")).toArray()) {
        SharerSeries s;
        s.sharer = v.toObject().value(QLatin1String("sharer")).toString();
        for (const QJsonValue &p : v.toObject().value(QLatin1String("points")).toArray())
            s.points.append(QPointF(p.toArray().at(0).toDouble(), p.toArray().at(1).toDouble()));
        f.firstToken.append(s);
    }
    for (const QJsonValue &v : o.value(QLatin1String("perMinute")).toArray()) {
        const QJsonObject m = v.toObject();
        f.perMinute.append(MinuteCount{m.value(QLatin1String("minute")).toInteger(), m.value(QLatin1String("requests")).toInt(),
                                       m.value(QLatin1String("failures")).toInt()});
    }
    f.spendByKey = spendFromJson(days, o.value(QLatin1String("spendByKey")).toObject());
    f.spendByRoute = spendFromJson(days, o.value(QLatin1String("spendByRoute")).toObject());
    f.usage = Store::UsageSummary::fromJson(o.value(QLatin1String("usage")).toObject());
    f.usage.days = days;
    return f;
}

ChartFigures readFigures(const Store::Store *store, const ChartAsk &ask, const QHash<QString, QString> &keyNames)
{
    ChartFigures f;
    f.now = ask.now;
    f.from = ask.now - qint64(ask.minutes) * 60 * 1000;
    QList<Store::TraceRecord> recent;
    QList<Store::LedgerGroup> groups;
    QHash<QString, QString> sharerNames;
    const QStringList days = lastDays(ask.now, ask.days);
    if (store) {
        for (const Catalog::Sharer &s : store->sharers())
            sharerNames.insert(s.handle, s.name);
        Store::TraceQuery q;
        q.sinceMs = f.from;
        q.limit = ask.maxTraces;
        q.withAttempts = false;
        recent = store->traces(q);
        groups = store->ledgerGroups(days); // summed by the database: a busy day is ~100,000 rows
    }
    // spendPerDay adds costs up: one entry per group, its cost the group's sum.
    QList<Store::LedgerEntry> entries;
    entries.reserve(groups.size());
    for (const Store::LedgerGroup &g : std::as_const(groups)) {
        Store::LedgerEntry e;
        e.day = g.day;
        e.keyId = g.keyId;
        e.route = g.route;
        e.target = g.target;
        e.sharer = g.sharer;
        e.subscription = g.subscription;
        e.costUsd = g.costUsd;
        e.listValueUsd = g.listValueUsd;
        entries.append(e);
    }
    f.firstToken = firstTokenBySharer(recent);
    f.perMinute = perMinute(recent, f.from, ask.now);
    for (const MinuteCount &m : std::as_const(f.perMinute)) {
        f.requests += m.requests;
        f.failures += m.failures;
    }
    f.spendByKey = spendPerDay(days, entries, [&](const Store::LedgerEntry &e) { return keyNames.value(e.keyId, e.keyId); });
    f.spendByRoute = spendPerDay(days, entries, [](const Store::LedgerEntry &e) { return e.route; });
    f.usage = Store::summarizeUsage(days, groups, sharerNames);
    return f;
}

} // namespace Aile::Api::Charts
