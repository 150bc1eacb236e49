#pragma once

#include <QtCore/QJsonArray>
#include <QtWidgets/QStyledItemDelegate>

namespace Aile::Ui {

/// Draws a sharer's quota windows in the Sharers view as bars (docs/subscriptions.md): one thin
/// bar per subscription window, filled to its use (orange past 80%, red when used up), with the
/// column's text beside it. The windows come from the listing row (SharerOrderModel::WindowsRole).
class QuotaBarDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    static constexpr int BarWidth = 56;
    static constexpr int BarHeight = 5;

    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    /// The fill of each subscription window (0..1; 1 when used up), in order; what the bars draw.
    static QList<double> fills(const QJsonArray &windows);
};

} // namespace Aile::Ui
