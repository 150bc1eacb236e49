#include "RoutesModel.h"

#include "common/Format.h"

#include <QtCore/QLocale>
#include <QtGui/QColor>

namespace Aile::Ui {

RoutesModel::RoutesModel(QObject *parent) : QAbstractTableModel(parent) { }

void RoutesModel::setKey(const Api::KeyInfo &key)
{
    beginResetModel();
    m_routes = key.routes;
    m_spend = key.routeSpend;
    endResetModel();
}

void RoutesModel::setSharerNames(const QHash<QString, QString> &names)
{
    m_sharerNames.clear();
    for (auto it = names.begin(); it != names.end(); ++it)
        m_sharerNames.insert(it.key().toUpper(), it.value());
    if (!m_routes.isEmpty())
        Q_EMIT dataChanged(index(0, Targets), index(rowCount() - 1, Targets));
}

int RoutesModel::rowOf(const QString &routeName) const
{
    for (int row = 0; row < m_routes.size(); ++row)
        if (m_routes.at(row).name == routeName)
            return row;
    return -1;
}

Api::RouteSpend RoutesModel::spendOf(int row) const
{
    const QString name = route(row).name;
    for (const Api::RouteSpend &s : m_spend)
        if (s.name == name)
            return s;
    return {};
}

bool RoutesModel::budgetSpent(int row) const
{
    const double budget = route(row).budgetUsdPerDay.value_or(0);
    return budget > 0 && spendOf(row).spentUsd >= budget;
}

QString RoutesModel::targetsSummary(const Api::RouteValue &r) const
{
    QStringList out;
    for (const Api::RouteTargetValue &t : r.targets) {
        const QString &pin = t.sharer;
        out << (pin.isEmpty() ? t.model : tr("%1 (%2)").arg(t.model, m_sharerNames.value(pin.toUpper(), pin)));
    }
    return out.join(QStringLiteral(" → "));
}

QString RoutesModel::orderSummary(const Api::RouteValue &r)
{
    const QString &order = r.order;
    QString text = order == QLatin1String("cheapest") ? tr("cheapest") : order == QLatin1String("round-robin") ? tr("round-robin") : tr("in order");
    const QString &prefer = r.prefer;
    if (prefer == QLatin1String("speed"))
        text += QStringLiteral(" · ") + tr("speed first");
    else if (prefer == QLatin1String("price"))
        text += QStringLiteral(" · ") + tr("price first");
    return text;
}

QString RoutesModel::limitsSummary(const Api::RouteValue &r)
{
    QStringList parts;
    if (const int ttft = r.ttftMs.value_or(0); ttft > 0)
        parts << tr("first token within %1 s").arg(QLocale().toString(ttft / 1000.0, 'g', 6));
    if (r.phaseLimits.value_or(false))
        parts << tr("phase limits");
    return parts.isEmpty() ? tr("none") : parts.join(QStringLiteral(" · "));
}

int RoutesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_routes.size());
}

int RoutesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RoutesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_routes.size())
        return {};
    const Api::RouteValue &r = m_routes.at(index.row());
    if (role == RouteNameRole)
        return r.name;
    if (role == Qt::TextAlignmentRole && index.column() == SpentToday)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    // A spent route is refused until 00:00 UTC: it reads in the colour of the dialogs' refusals.
    if (role == Qt::ForegroundRole && index.column() == SpentToday && budgetSpent(index.row()))
        return QColor(0xc0, 0x39, 0x2b);
    if (role == Qt::ToolTipRole && index.column() == Targets)
        return targetsSummary(r);
    if (role == Qt::ToolTipRole && index.column() == SpentToday) {
        // Each target's own figure, in the route's order.
        QStringList lines;
        if (budgetSpent(index.row()))
            lines << tr("The daily budget is spent: requests through this route are refused with a 402 until 00:00 UTC.");
        lines << tr("Spent today (UTC) through each target:");
        for (const Api::RouteSpend::Target &t : spendOf(index.row()).targets) {
            const double budget = t.budgetUsdPerDay.value_or(0);
            lines << (budget > 0 ? tr("%1: %2 of %3").arg(t.model, Format::money(t.spentUsd), Format::money(budget))
                                 : tr("%1: %2").arg(t.model, Format::money(t.spentUsd)));
        }
        return lines.size() > 1 ? lines.join(QLatin1Char('\n')) : QVariant();
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Name: return r.name;
    case Targets: return targetsSummary(r);
    case Order: return orderSummary(r);
    case Limits: return limitsSummary(r);
    case SpentToday: {
        const double spent = spendOf(index.row()).spentUsd;
        const double budget = r.budgetUsdPerDay.value_or(0);
        return budget > 0 ? tr("%1 of %2").arg(Format::money(spent), Format::money(budget)) : Format::money(spent);
    }
    default: return {};
    }
}

QVariant RoutesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Route");
    case Targets: return tr("Targets, in order");
    case Order: return tr("Order");
    case Limits: return tr("Limits");
    case SpentToday: return tr("Spent today / budget");
    default: return {};
    }
}

} // namespace Aile::Ui
