#include "SharersModel.h"

#include <QtCore/QJsonObject>
#include <QtCore/QLocale>
#include <QtGui/QBrush>
#include <QtGui/QPalette>
#include <QtWidgets/QApplication>

namespace Aile::Ui {

SharersModel::SharersModel(QObject *parent) : QAbstractTableModel(parent) {}

void SharersModel::setSharers(const QJsonArray &sharers)
{
    beginResetModel();
    m_sharers = sharers;
    endResetModel();
}

QJsonObject SharersModel::sharer(int row) const
{
    return m_sharers.at(row).toObject();
}

int SharersModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sharers.size());
}

int SharersModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SharersModel::text(const QJsonObject &s, int column) const
{
    switch (column) {
    case Name: {
        const QString name = s.value(QLatin1String("name")).toString();
        return s.value(QLatin1String("blocked")).toBool() ? tr("%1 (blocked)").arg(name) : name;
    }
    case Handle: return s.value(QLatin1String("handle")).toString();
    case Provider: return s.value(QLatin1String("provider")).toString();
    case Kind:
        return s.value(QLatin1String("kind")).toString() == QLatin1String("subscription") ? tr("subscription") : tr("API key");
    case Models: {
        const QJsonArray models = s.value(QLatin1String("models")).toArray();
        if (models.isEmpty())
            return tr("whole catalogue");
        QStringList names;
        for (const QJsonValue &m : models)
            names << m.toString();
        return names.join(QStringLiteral(", "));
    }
    case Price: {
        const QJsonObject price = s.value(QLatin1String("price")).toObject();
        if (price.contains(QLatin1String("models")))
            return tr("own quotes");
        const double percent = price.value(QLatin1String("percentOfList")).toDouble(100);
        return percent == 100 ? tr("list price") : tr("%1% of list").arg(QLocale().toString(percent));
    }
    case Priority: return QString::number(s.value(QLatin1String("priority")).toInt());
    case Weight: return QString::number(s.value(QLatin1String("weight")).toInt(1));
    case Slots: {
        const int slots = s.value(QLatin1String("slots")).toInt();
        return slots > 0 ? QString::number(slots) : tr("unbounded");
    }
    case Credential:
        if (s.value(QLatin1String("credentialAvailable")).toBool())
            return tr("available");
        return tr("missing: %1").arg(s.value(QLatin1String("credentialError")).toString());
    case BaseUrl: {
        const QString url = s.value(QLatin1String("baseUrl")).toString();
        return url.isEmpty() ? tr("provider default") : url;
    }
    }
    return {};
}

QVariant SharersModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_sharers.size())
        return {};
    const QJsonObject s = sharer(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::AccessibleTextRole:
        return text(s, index.column());
    case Qt::ToolTipRole:
        if (index.column() == Credential)
            return tr("Credential reference: %1").arg(s.value(QLatin1String("credential")).toString());
        return text(s, index.column());
    case Qt::ForegroundRole:
        // A sharer that cannot be dialled reads dimmed, without inventing a colour of our own.
        if (!s.value(QLatin1String("credentialAvailable")).toBool() || s.value(QLatin1String("blocked")).toBool())
            return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Priority || index.column() == Weight || index.column() == Slots)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

QVariant SharersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name: return tr("Name");
    case Handle: return tr("Handle");
    case Provider: return tr("Provider");
    case Kind: return tr("Kind");
    case Models: return tr("Models");
    case Price: return tr("Price");
    case Priority: return tr("Priority");
    case Weight: return tr("Weight");
    case Slots: return tr("Slots");
    case Credential: return tr("Credential");
    case BaseUrl: return tr("Base URL");
    }
    return {};
}

} // namespace Aile::Ui
