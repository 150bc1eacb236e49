#pragma once

#include "store/UsageSummary.h"

#include <QtCore/QCoreApplication>

class QChart;

namespace Aile::Ui {

/// What the subscriptions served beside what money was spent (docs/subscriptions.md "What it
/// costs"): a plan's usage at its list-price value is drawn as its own bars, next to the money
/// spent, never stacked onto it, and the Charts page's summary line says both.
class PlanValueChart
{
    Q_DECLARE_TR_FUNCTIONS(Aile::Ui::PlanValueChart)
public:
    /// "Claude Max served $41.00 of list-price usage today; API keys cost $3.20".
    static QString summary(const Store::UsageSummary &usage);
    /// One bar set for the money spent per day, one per subscription for its usage at list price,
    /// grouped side by side per day.
    static void fill(QChart *chart, const Store::UsageSummary &usage);
    /// The bar set labels: what the legend says.
    static QString spentLabel();
    static QString planLabel(const QString &plan);
};

} // namespace Aile::Ui
