#include "PlanValueChart.h"

#include "ChartsView.h"
#include "common/Format.h"

#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>

namespace Aile::Ui {

QString PlanValueChart::spentLabel()
{
    return tr("Money spent (API keys)");
}

QString PlanValueChart::planLabel(const QString &plan)
{
    return tr("%1 at list price (not spent)").arg(plan);
}

QString PlanValueChart::summary(const Store::UsageSummary &usage)
{
    const int today = int(usage.days.size()) - 1;
    QStringList parts;
    for (const Store::SharerUsage *plan : usage.plansOn(today))
        parts << tr("%1 served %2 of list-price usage today").arg(plan->name, Format::money(plan->listValueUsd.value(today)));
    const QString spent = Format::money(usage.spentOn(today));
    if (parts.isEmpty())
        return tr("API keys cost %1 today; no subscription served a request today").arg(spent);
    return tr("%1; API keys cost %2").arg(parts.join(QStringLiteral("; ")), spent);
}

void PlanValueChart::fill(QChart *chart, const Store::UsageSummary &usage)
{
    const QStringList &days = usage.days;
    // QBarSeries, not stacked: a plan's value is not money and is never added to it.
    auto *series = new QBarSeries;
    auto *spent = new QBarSet(spentLabel());
    for (int d = 0; d < days.size(); ++d)
        spent->append(usage.spentOn(d));
    series->append(spent);
    double most = 0, totalSpent = 0, totalValue = 0;
    for (int d = 0; d < days.size(); ++d) {
        most = qMax(most, usage.spentOn(d));
        totalSpent += usage.spentOn(d);
    }
    for (const Store::SharerUsage &plan : usage.sharers) {
        if (!plan.subscription)
            continue;
        auto *set = new QBarSet(planLabel(plan.name));
        set->append(plan.listValueUsd);
        series->append(set);
        for (double v : plan.listValueUsd)
            most = qMax(most, v);
        totalValue += plan.totalListValue();
    }
    chart->addSeries(series);
    ChartsView::addDayAxes(chart, series, days, most);
    chart->setTitle(tr("Money spent %1, subscription usage worth %2 at list price, in the last %3 days")
                        .arg(Format::money(totalSpent), Format::money(totalValue))
                        .arg(days.size()));
}

} // namespace Aile::Ui
