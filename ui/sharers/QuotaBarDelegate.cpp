#include "QuotaBarDelegate.h"

#include "SharerOrderModel.h"

#include <QtCore/QJsonObject>
#include <QtGui/QPainter>
#include <QtWidgets/QApplication>

namespace Aile::Ui {

QList<double> QuotaBarDelegate::fills(const QJsonArray &windows)
{
    QList<double> out;
    for (const QJsonValue &v : windows) {
        const QJsonObject w = v.toObject();
        if (w.value(QLatin1String("kind")).toString() != QLatin1String("subscription"))
            continue;
        out << (w.value(QLatin1String("exhausted")).toBool() ? 1.0 : qBound(0.0, w.value(QLatin1String("used")).toDouble(0), 1.0));
    }
    return out;
}

void QuotaBarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QList<double> bars = fills(index.data(SharerOrderModel::WindowsRole).toJsonArray());
    if (bars.isEmpty()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // The usual cell (selection, text) shifted right of the bars.
    QStyleOptionViewItem text = option;
    initStyleOption(&text, index);
    const int barsWidth = BarWidth + 8;
    QStyle *style = option.widget ? option.widget->style() : QApplication::style();
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &text, painter, option.widget);
    text.rect.adjust(barsWidth, 0, 0, 0);
    text.backgroundBrush = Qt::NoBrush;
    style->drawControl(QStyle::CE_ItemViewItem, &text, painter, option.widget);

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    const int gap = 2;
    const int total = int(bars.size()) * BarHeight + (int(bars.size()) - 1) * gap;
    int y = option.rect.top() + (option.rect.height() - total) / 2;
    for (const double f : bars) {
        const QRect track(option.rect.left() + 4, y, BarWidth, BarHeight);
        painter->fillRect(track, option.palette.color(QPalette::Mid));
        const QColor colour = f >= 1.0 ? QColor(0xc6, 0x28, 0x28) : f >= 0.8 ? QColor(0xef, 0x8a, 0x00) : QColor(0x2e, 0x7d, 0x32);
        painter->fillRect(QRect(track.left(), track.top(), qRound(track.width() * f), track.height()), colour);
        y += BarHeight + gap;
    }
    painter->restore();
}

QSize QuotaBarDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (!fills(index.data(SharerOrderModel::WindowsRole).toJsonArray()).isEmpty())
        size.rwidth() += BarWidth + 8;
    return size;
}

} // namespace Aile::Ui
