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

namespace {

/// The summary's rows being summed: one per sharer and kind, as rows of the ledger come.
class UsageSums
{
public:
    UsageSums(const QStringList &days, const QHash<QString, QString> &names) : m_names(names) { m_usage.days = days; }

    void add(const QString &day, const QString &sharer, bool subscription, double costUsd, double listValueUsd, int requests)
    {
        const int d = int(m_usage.days.indexOf(day));
        if (d < 0)
            return;
        // A sharer that served on its plan and, after an edit, as an API key is two rows: the
        // plan's value and the key's money stay apart.
        const QString slot = sharer + (subscription ? QStringLiteral("/plan") : QString());
        auto it = m_rowOf.constFind(slot);
        if (it == m_rowOf.constEnd()) {
            SharerUsage s;
            s.sharer = sharer;
            s.name = m_names.value(sharer, sharer);
            s.subscription = subscription;
            s.spentUsd = QList<double>(m_usage.days.size(), 0.0);
            s.listValueUsd = QList<double>(m_usage.days.size(), 0.0);
            s.requests = QList<int>(m_usage.days.size(), 0);
            it = m_rowOf.insert(slot, m_usage.sharers.size());
            m_usage.sharers.append(s);
        }
        SharerUsage &s = m_usage.sharers[*it];
        s.spentUsd[d] += costUsd;
        s.listValueUsd[d] += listValueUsd;
        s.requests[d] += requests;
    }

    UsageSummary take()
    {
        std::sort(m_usage.sharers.begin(), m_usage.sharers.end(), [](const SharerUsage &a, const SharerUsage &b) {
            if (a.subscription != b.subscription)
                return a.subscription;
            const double x = a.subscription ? a.totalListValue() : a.totalSpent();
            const double y = b.subscription ? b.totalListValue() : b.totalSpent();
            return x != y ? x > y : a.name < b.name;
        });
        return std::move(m_usage);
    }

private:
    const QHash<QString, QString> &m_names;
    UsageSummary m_usage;
    QHash<QString, qsizetype> m_rowOf;
};

} // namespace

UsageSummary summarizeUsage(const QStringList &days, const QList<LedgerEntry> &entries, const QHash<QString, QString> &names, const QString &keyId)
{
    UsageSums sums(days, names);
    for (const LedgerEntry &e : entries)
        if (keyId.isEmpty() || e.keyId == keyId)
            sums.add(e.day, e.sharer, e.subscription, e.costUsd, e.listValueUsd, 1);
    return sums.take();
}

UsageSummary summarizeUsage(const QStringList &days, const QList<LedgerGroup> &groups, const QHash<QString, QString> &names)
{
    UsageSums sums(days, names);
    for (const LedgerGroup &g : groups)
        sums.add(g.day, g.sharer, g.subscription, g.costUsd, g.listValueUsd, g.requests);
    return sums.take();
}

UsageSummary readUsage(const Store &store, const QStringList &days, const QString &keyId)
{
    QHash<QString, QString> names;
    for (const Catalog::Sharer &s : store.sharers())
        names.insert(s.handle, s.name);
    // Summed by the database: a busy day is ~100,000 rows, not worth carrying one by one.
    return summarizeUsage(days, store.ledgerGroups(days, keyId), names);
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
