#include "KeysModel.h"

#include "common/Format.h"

#include <QtCore/QDateTime>
#include <QtCore/QLocale>
#include <QtGui/QPalette>
#include <QtWidgets/QApplication>

namespace Aile::Ui {

KeysModel::KeysModel(QObject *parent) : QAbstractTableModel(parent)
{
}

void KeysModel::setKeys(const QList<Api::KeyInfo> &keys)
{
    beginResetModel();
    m_keys = keys;
    endResetModel();
}

int KeysModel::rowOf(const QString &keyId) const
{
    for (int row = 0; row < m_keys.size(); ++row)
        if (m_keys.at(row).id == keyId)
            return row;
    return -1;
}

int KeysModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_keys.size());
}

int KeysModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString KeysModel::routingSummary(const QJsonObject &r)
{
    QStringList parts;
    const QLocale locale;
    auto number = [&](const char *name) { return r.value(QLatin1String(name)).toDouble(0); };
    auto list = [&](const char *name) { return int(r.value(QLatin1String(name)).toArray().size()); };
    if (!r.value(QLatin1String("provider")).toString().isEmpty())
        parts << tr("only %1").arg(r.value(QLatin1String("provider")).toString());
    if (number("maxPricePercent") > 0)
        parts << tr("≤ %1% of list").arg(locale.toString(number("maxPricePercent")));
    if (number("maxPrice") > 0)
        parts << tr("≤ %1/Mtok").arg(Format::money(number("maxPrice")));
    if (number("minPricePercent") > 0)
        parts << tr("≥ %1% of list").arg(locale.toString(number("minPricePercent")));
    if (number("maxCostUsd") > 0)
        parts << tr("cap %1").arg(Format::money(number("maxCostUsd")));
    if (number("spendLimitUsdPerDay") > 0)
        parts << tr("%1 a day").arg(Format::money(number("spendLimitUsdPerDay")));
    if (list("onlySharers") > 0)
        parts << tr("%n allowed sharer(s)", nullptr, list("onlySharers"));
    if (list("neverSharers") > 0)
        parts << tr("%n blocked sharer(s)", nullptr, list("neverSharers"));
    if (list("excludeProviders") > 0)
        parts << tr("%n provider(s) left out", nullptr, list("excludeProviders"));
    if (r.value(QLatin1String("dataCollection")).toString() == QLatin1String("deny"))
        parts << tr("no training");
    if (r.value(QLatin1String("allowSelfHosted")) == QJsonValue(false))
        parts << tr("no self-hosted");
    if (r.value(QLatin1String("verifiedOnly")).toBool())
        parts << tr("verified only");
    if (r.value(QLatin1String("prefer")).toString() == QLatin1String("speed"))
        parts << tr("speed first");
    if (r.value(QLatin1String("demoteFailing")).toBool())
        parts << tr("failing sharers last");
    if (r.value(QLatin1String("sticky")) == QJsonValue(false))
        parts << tr("not sticky");
    if (!r.value(QLatin1String("sharer")).toString().isEmpty())
        parts << tr("pinned to %1").arg(r.value(QLatin1String("sharer")).toString());
    return parts.isEmpty() ? tr("cheapest first (defaults)") : parts.join(QStringLiteral(" · "));
}

QVariant KeysModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_keys.size())
        return {};
    const Api::KeyInfo &k = m_keys.at(index.row());
    const bool revoked = k.revoked;
    switch (role) {
    case KeyIdRole:
        return k.id;
    case RevokedRole:
        return revoked;
    case Qt::ForegroundRole:
        if (revoked)
            return QApplication::palette().color(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == SpentToday)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole:
        if (index.column() == Routing)
            return routingSummary(k.routing);
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case Name:
        return k.name;
    case Prefix:
        return k.prefix;
    case Created:
        return k.createdMs > 0 ? Format::dateTime(k.createdMs) : QString();
    case State:
        return revoked ? tr("revoked") : tr("active");
    case SpentToday:
        return Format::money(k.spentTodayUsd);
    case Routing:
        return routingSummary(k.routing);
    default:
        return {};
    }
}

QVariant KeysModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Name");
    case Prefix:
        return tr("Key");
    case Created:
        return tr("Created");
    case State:
        return tr("State");
    case SpentToday:
        return tr("Spent today");
    case Routing:
        return tr("Routing");
    default:
        return {};
    }
}

} // namespace Aile::Ui
