#include "RoutesModel.h"

#include "common/Format.h"

#include <QtCore/QLocale>
#include <QtGui/QColor>

namespace Aile::Ui {

namespace {

const QLatin1String NameField("name");
const QLatin1String TargetsField("targets");
const QLatin1String BudgetField("budgetUsdPerDay");
const QLatin1String SpentField("spentUsd");

} // namespace

RoutesModel::RoutesModel(QObject *parent) : QAbstractTableModel(parent)
{
}

void RoutesModel::setKey(const QJsonObject &key)
{
    beginResetModel();
    m_routes = key.value(QLatin1String("routes")).toArray();
    m_spend = key.value(QLatin1String("routeSpend")).toArray();
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

QJsonObject RoutesModel::route(int row) const
{
    return m_routes.at(row).toObject();
}

int RoutesModel::rowOf(const QString &routeName) const
{
    for (int row = 0; row < m_routes.size(); ++row)
        if (route(row).value(NameField).toString() == routeName)
            return row;
    return -1;
}

QJsonObject RoutesModel::spendOf(int row) const
{
    const QString name = route(row).value(NameField).toString();
    for (const QJsonValue &v : m_spend)
        if (v.toObject().value(NameField).toString() == name)
            return v.toObject();
    return {};
}

bool RoutesModel::budgetSpent(int row) const
{
    const double budget = route(row).value(BudgetField).toDouble(0);
    return budget > 0 && spendOf(row).value(SpentField).toDouble(0) >= budget;
}

QString RoutesModel::targetsSummary(const QJsonObject &r) const
{
    QStringList out;
    for (const QJsonValue &v : r.value(TargetsField).toArray()) {
        const QJsonObject t = v.toObject();
        const QString model = t.value(QLatin1String("model")).toString();
        const QString pin = t.value(QLatin1String("sharer")).toString();
        out << (pin.isEmpty() ? model : tr("%1 (%2)").arg(model, m_sharerNames.value(pin.toUpper(), pin)));
    }
    return out.join(QStringLiteral(" → "));
}

QString RoutesModel::orderSummary(const QJsonObject &r)
{
    const QString order = r.value(QLatin1String("order")).toString();
    QString text = order == QLatin1String("cheapest")      ? tr("cheapest")
                   : order == QLatin1String("round-robin") ? tr("round-robin")
                                                           : tr("in order");
    const QString prefer = r.value(QLatin1String("prefer")).toString();
    if (prefer == QLatin1String("speed"))
        text += QStringLiteral(" · ") + tr("speed first");
    else if (prefer == QLatin1String("price"))
        text += QStringLiteral(" · ") + tr("price first");
    return text;
}

QString RoutesModel::limitsSummary(const QJsonObject &r)
{
    QStringList parts;
    if (const int ttft = r.value(QLatin1String("ttftMs")).toInt(0); ttft > 0)
        parts << tr("first token within %1 s").arg(QLocale().toString(ttft / 1000.0, 'g', 6));
    if (r.value(QLatin1String("phaseLimits")).toBool())
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
    const QJsonObject r = route(index.row());
    if (role == RouteNameRole)
        return r.value(NameField).toString();
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
        for (const QJsonValue &v : spendOf(index.row()).value(TargetsField).toArray()) {
            const QJsonObject t = v.toObject();
            const double budget = t.value(BudgetField).toDouble(0);
            lines << (budget > 0 ? tr("%1: %2 of %3").arg(t.value(QLatin1String("model")).toString(), Format::money(t.value(SpentField).toDouble(0)),
                                                          Format::money(budget))
                                 : tr("%1: %2").arg(t.value(QLatin1String("model")).toString(), Format::money(t.value(SpentField).toDouble(0))));
        }
        return lines.size() > 1 ? lines.join(QLatin1Char('\n')) : QVariant();
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Name:
        return r.value(NameField).toString();
    case Targets:
        return targetsSummary(r);
    case Order:
        return orderSummary(r);
    case Limits:
        return limitsSummary(r);
    case SpentToday: {
        const QJsonObject spend = spendOf(index.row());
        const double spent = spend.value(SpentField).toDouble(0);
        const double budget = r.value(BudgetField).toDouble(0);
        return budget > 0 ? tr("%1 of %2").arg(Format::money(spent), Format::money(budget)) : Format::money(spent);
    }
    default:
        return {};
    }
}

QVariant RoutesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Route");
    case Targets:
        return tr("Targets, in order");
    case Order:
        return tr("Order");
    case Limits:
        return tr("Limits");
    case SpentToday:
        return tr("Spent today / budget");
    default:
        return {};
    }
}

} // namespace Aile::Ui
