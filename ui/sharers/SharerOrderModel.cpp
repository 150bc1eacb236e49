#include "SharerOrderModel.h"

#include "common/Format.h"

#include <QtCore/QJsonObject>
#include <QtCore/QLocale>
#include <QtGui/QPalette>
#include <QtWidgets/QApplication>

namespace Aile::Ui {

namespace {

QString perMillion(const QJsonValue &v)
{
    if (!v.isDouble())
        return QStringLiteral("—");
    return QStringLiteral("$") + QLocale().toString(v.toDouble(), 'f', 2);
}

} // namespace

SharerOrderModel::SharerOrderModel(QObject *parent) : QAbstractTableModel(parent) {}

void SharerOrderModel::setRows(const QJsonArray &rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

QJsonObject SharerOrderModel::row(int row) const
{
    return m_rows.at(row).toObject();
}

int SharerOrderModel::rowOf(const QString &handle) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (row(i).value(QLatin1String("handle")).toString() == handle)
            return i;
    return -1;
}

QString SharerOrderModel::sortKey(int column)
{
    switch (column) {
    case Name: return QStringLiteral("name");
    case InputPrice:
    case OutputPrice:
    case Quote: return QStringLiteral("price");
    case Speed: return QStringLiteral("speed");
    }
    return {};
}

QString SharerOrderModel::state(const QJsonObject &r)
{
    if (!r.value(QLatin1String("available")).toBool())
        return tr("unavailable: %1").arg(r.value(QLatin1String("reason")).toString(tr("no usable credential")));
    if (r.value(QLatin1String("deadKey")).toBool())
        return tr("dead key");
    if (r.value(QLatin1String("tiedWithPrevious")).toBool())
        return tr("available, tied with the row above");
    return tr("available");
}

int SharerOrderModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SharerOrderModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SharerOrderModel::text(const QJsonObject &r, int column) const
{
    switch (column) {
    case Name: return r.value(QLatin1String("name")).toString();
    case Rank: {
        const int rank = r.value(QLatin1String("rank")).toInt();
        return rank > 0 ? QString::number(rank) : QStringLiteral("—");
    }
    case Handle: return r.value(QLatin1String("handle")).toString();
    case InputPrice: return perMillion(r.value(QLatin1String("inputPrice")));
    case OutputPrice: return perMillion(r.value(QLatin1String("outputPrice")));
    case Quote: {
        const QJsonValue q = r.value(QLatin1String("quoteUsd"));
        return q.isDouble() ? Format::money(q.toDouble()) : QStringLiteral("—");
    }
    case Tested:
        if (!r.contains(QLatin1String("tested")))
            return QStringLiteral("—");
        return r.value(QLatin1String("tested")).toBool() ? tr("tested") : tr("not tested");
    case Speed: return Format::duration(qint64(r.value(QLatin1String("ttfbMs")).toDouble(-1)));
    case State: return state(r);
    }
    return {};
}

QVariant SharerOrderModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const QJsonObject r = row(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
    case Qt::AccessibleTextRole:
        return text(r, index.column());
    case Qt::ForegroundRole:
        // A sharer the next request would skip reads dimmed, in the palette's own colour.
        if (!r.value(QLatin1String("available")).toBool() || r.value(QLatin1String("deadKey")).toBool())
            return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Rank || index.column() == InputPrice || index.column() == OutputPrice || index.column() == Quote
            || index.column() == Speed)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

QVariant SharerOrderModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole)
        return sortKey(section).isEmpty() ? tr("Click to show the routing order again")
                                          : tr("Click to sort: a reading order, not the routing order");
    switch (section) {
    case Name: return tr("Name");
    case Rank: return tr("Rank");
    case Handle: return tr("Handle");
    case InputPrice: return tr("Input $/Mtok");
    case OutputPrice: return tr("Output $/Mtok");
    case Quote: return tr("Quote");
    case Tested: return tr("Tested");
    case Speed: return tr("First byte");
    case State: return tr("State");
    }
    return {};
}

} // namespace Aile::Ui
