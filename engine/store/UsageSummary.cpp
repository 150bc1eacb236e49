#include "UsageSummary.h"

#include "Store.h"

#include <QtCore/QJsonArray>

#include <algorithm>
#include <numeric>

namespace Aile::Store {

namespace {

template <typename T> T sum(const QList<T> &values)
{
    return std::accumulate(values.begin(), values.end(), T(0));
}

QJsonArray toArray(const QList<double> &values)
{
    QJsonArray out;
    for (double v : values)
        out.append(v);
    return out;
}

QList<double> doublesOf(const QJsonValue &v, qsizetype size)
{
    QList<double> out(size, 0.0);
    const QJsonArray a = v.toArray();
    for (qsizetype i = 0; i < size && i < a.size(); ++i)
        out[i] = a.at(i).toDouble();
    return out;
}

} // namespace

double SharerUsage::totalSpent() const
{
    return sum(spentUsd);
}
double SharerUsage::totalListValue() const
{
    return sum(listValueUsd);
}
int SharerUsage::totalRequests() const
{
    return sum(requests);
}

double UsageSummary::spentOn(int day) const
{
    double total = 0;
    for (const SharerUsage &s : sharers)
        total += s.spentUsd.value(day);
    return total;
}

double UsageSummary::listValueOn(int day) const
{
    double total = 0;
    for (const SharerUsage &s : sharers)
        total += s.listValueUsd.value(day);
    return total;
}

int UsageSummary::requestsOn(int day) const
{
    int total = 0;
    for (const SharerUsage &s : sharers)
        total += s.requests.value(day);
    return total;
}

QList<const SharerUsage *> UsageSummary::plansOn(int day) const
{
    QList<const SharerUsage *> out;
    for (const SharerUsage &s : sharers)
        if (s.subscription && s.requests.value(day) > 0)
            out.append(&s);
    return out;
}

QJsonObject UsageSummary::toJson() const
{
    QJsonArray perDay;
    for (int d = 0; d < days.size(); ++d)
        perDay.append(QJsonObject{{QStringLiteral("day"), days.at(d)},
                                  {QStringLiteral("spentUsd"), spentOn(d)},
                                  {QStringLiteral("listValueUsd"), listValueOn(d)},
                                  {QStringLiteral("requests"), requestsOn(d)}});
    QJsonArray rows;
    for (const SharerUsage &s : sharers) {
        QJsonArray requests;
        for (int n : s.requests)
            requests.append(n);
        rows.append(QJsonObject{{QStringLiteral("sharer"), s.sharer},
                                {QStringLiteral("name"), s.name},
                                {QStringLiteral("kind"), s.subscription ? QStringLiteral("subscription") : QStringLiteral("api-key")},
                                {QStringLiteral("spentUsd"), toArray(s.spentUsd)},
                                {QStringLiteral("listValueUsd"), toArray(s.listValueUsd)},
                                {QStringLiteral("requests"), requests}});
    }
    const int today = int(days.size()) - 1;
    return QJsonObject{{QStringLiteral("days"), QJsonArray::fromStringList(days)},
                       {QStringLiteral("today"), QJsonObject{{QStringLiteral("day"), days.value(today)},
                                                             {QStringLiteral("spentUsd"), spentOn(today)},
                                                             {QStringLiteral("listValueUsd"), listValueOn(today)},
                                                             {QStringLiteral("requests"), requestsOn(today)}}},
                       {QStringLiteral("perDay"), perDay},
                       {QStringLiteral("sharers"), rows}};
}

UsageSummary UsageSummary::fromJson(const QJsonObject &o)
{
    UsageSummary u;
    for (const QJsonValue &d : o.value(QLatin1String("days")).toArray())
        u.days.append(d.toString());
    for (const QJsonValue &v : o.value(QLatin1String("sharers")).toArray()) {
        const QJsonObject r = v.toObject();
        SharerUsage s;
        s.sharer = r.value(QLatin1String("sharer")).toString();
        s.name = r.value(QLatin1String("name")).toString();
        s.subscription = r.value(QLatin1String("kind")).toString() == QLatin1String("subscription");
        s.spentUsd = doublesOf(r.value(QLatin1String("spentUsd")), u.days.size());
        s.listValueUsd = doublesOf(r.value(QLatin1String("listValueUsd")), u.days.size());
        for (double n : doublesOf(r.value(QLatin1String("requests")), u.days.size()))
            s.requests.append(int(n));
        u.sharers.append(s);
    }
    return u;
}

UsageSummary summarizeUsage(const QStringList &days, const QList<LedgerEntry> &entries, const QHash<QString, QString> &names, const QString &keyId)
{
    UsageSummary u;
    u.days = days;
    QHash<QString, qsizetype> rowOf;
    for (const LedgerEntry &e : entries) {
        const int day = int(days.indexOf(e.day));
        if (day < 0 || (!keyId.isEmpty() && e.keyId != keyId))
            continue;
        // A sharer that served on its plan and, after an edit, as an API key is two rows: the
        // plan's value and the key's money stay apart.
        const QString slot = e.sharer + (e.subscription ? QStringLiteral("/plan") : QString());
        auto it = rowOf.constFind(slot);
        if (it == rowOf.constEnd()) {
            SharerUsage s;
            s.sharer = e.sharer;
            s.name = names.value(e.sharer, e.sharer);
            s.subscription = e.subscription;
            s.spentUsd = QList<double>(days.size(), 0.0);
            s.listValueUsd = QList<double>(days.size(), 0.0);
            s.requests = QList<int>(days.size(), 0);
            it = rowOf.insert(slot, u.sharers.size());
            u.sharers.append(s);
        }
        SharerUsage &s = u.sharers[*it];
        s.spentUsd[day] += e.costUsd;
        s.listValueUsd[day] += e.listValueUsd;
        ++s.requests[day];
    }
    std::sort(u.sharers.begin(), u.sharers.end(), [](const SharerUsage &a, const SharerUsage &b) {
        if (a.subscription != b.subscription)
            return a.subscription;
        const double x = a.subscription ? a.totalListValue() : a.totalSpent();
        const double y = b.subscription ? b.totalListValue() : b.totalSpent();
        return x != y ? x > y : a.name < b.name;
    });
    return u;
}

UsageSummary readUsage(const Store &store, const QStringList &days, const QString &keyId)
{
    QList<LedgerEntry> entries;
    for (const QString &day : days)
        entries += store.ledger(day);
    QHash<QString, QString> names;
    for (const Catalog::Sharer &s : store.sharers())
        names.insert(s.handle, s.name);
    return summarizeUsage(days, entries, names, keyId);
}

QStringList daysUpTo(qint64 nowMs, int count)
{
    constexpr qint64 Day = 24LL * 3600 * 1000;
    QStringList out;
    for (int i = count - 1; i >= 0; --i)
        out << utcDay(nowMs - i * Day);
    return out;
}

} // namespace Aile::Store
