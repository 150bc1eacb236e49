#include "KeysModel.h"

#include "common/Format.h"

#include <QtCore/QDateTime>
#include <QtCore/QLocale>
#include <QtGui/QPalette>
#include <QtWidgets/QApplication>

namespace Aile::Ui {

KeysModel::KeysModel(QObject *parent) : QAbstractTableModel(parent) { }

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

QString KeysModel::routingSummary(const Api::KeyRoutingValue &r)
{
    QStringList parts;
    const QLocale locale;
    auto positive = [](const std::optional<double> &v) { return v.value_or(0) > 0; };
    auto count = [](const std::optional<QStringList> &v) { return v ? int(v->size()) : 0; };
    if (!r.provider.value_or(QString()).isEmpty())
        parts << tr("only %1").arg(*r.provider);
    if (positive(r.maxPricePercent))
        parts << tr("≤ %1% of list").arg(locale.toString(*r.maxPricePercent));
    if (positive(r.maxPrice))
        parts << tr("≤ %1/Mtok").arg(Format::money(*r.maxPrice));
    if (positive(r.minPricePercent))
        parts << tr("≥ %1% of list").arg(locale.toString(*r.minPricePercent));
    if (positive(r.maxCostUsd))
        parts << tr("cap %1").arg(Format::money(*r.maxCostUsd));
    if (positive(r.spendLimitUsdPerDay))
        parts << tr("%1 a day").arg(Format::money(*r.spendLimitUsdPerDay));
    if (count(r.onlySharers) > 0)
        parts << tr("%n allowed sharer(s)", nullptr, count(r.onlySharers));
    if (count(r.neverSharers) > 0)
        parts << tr("%n blocked sharer(s)", nullptr, count(r.neverSharers));
    if (count(r.excludeProviders) > 0)
        parts << tr("%n provider(s) left out", nullptr, count(r.excludeProviders));
    if (r.dataCollection == QStringLiteral("deny"))
        parts << tr("no training");
    if (r.allowSelfHosted == false)
        parts << tr("no self-hosted");
    if (r.verifiedOnly.value_or(false))
        parts << tr("verified only");
    if (r.prefer == QStringLiteral("speed"))
        parts << tr("speed first");
    if (r.demoteFailing.value_or(false))
        parts << tr("failing sharers last");
    if (r.sticky == false)
        parts << tr("not sticky");
    if (!r.sharer.value_or(QString()).isEmpty())
        parts << tr("pinned to %1").arg(*r.sharer);
    return parts.isEmpty() ? tr("cheapest first (defaults)") : parts.join(QStringLiteral(" · "));
}

QVariant KeysModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_keys.size())
        return {};
    const Api::KeyInfo &k = m_keys.at(index.row());
    const bool revoked = k.revoked;
    switch (role) {
    case KeyIdRole: return k.id;
    case RevokedRole: return revoked;
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
    case Qt::DisplayRole: break;
    default: return {};
    }
    switch (index.column()) {
    case Name: return k.name;
    case Prefix: return k.prefix;
    case Created: return k.createdMs > 0 ? Format::dateTime(k.createdMs) : QString();
    case State: return revoked ? tr("revoked") : tr("active");
    case SpentToday: return Format::money(k.spentTodayUsd);
    case Routing: return routingSummary(k.routing);
    default: return {};
    }
}

QVariant KeysModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Name");
    case Prefix: return tr("Key");
    case Created: return tr("Created");
    case State: return tr("State");
    case SpentToday: return tr("Spent today");
    case Routing: return tr("Routing");
    default: return {};
    }
}

} // namespace Aile::Ui
