#include "CachedTextDelegate.h"

#include <QtGui/QFontMetrics>
#include <QtGui/QPainter>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyle>

namespace Aile::Ui {

const QStaticText &CachedTextDelegate::line(const QString &text, const QFont &font, int width, Qt::TextElideMode elide) const
{
    if (font != m_font) {
        m_lines.clear();
        m_font = font;
    }
    Key key{text, width, int(elide)};
    if (const auto it = m_lines.constFind(key); it != m_lines.constEnd())
        return *it;
    if (m_lines.size() >= MaxLines)
        m_lines.clear();
    // As QCommonStyle lays out a single line: elided to the width, laid out in the cell's font.
    QStaticText laid(QFontMetrics(font).elidedText(text, elide, width));
    laid.setTextFormat(Qt::PlainText);
    laid.setPerformanceHint(QStaticText::AggressiveCaching);
    laid.prepare(QTransform(), font);
    ++m_layouts;
    return *m_lines.insert(std::move(key), std::move(laid));
}

void CachedTextDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    // Where the style puts the text: on one line, the cell less its icon and check box, which the
    // style works out without measuring the text (so the option goes without it).
    const QString text = opt.text;
    opt.text.clear();
    QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background, selection, icon, focus
    if (text.isEmpty())
        return;

    // What QCommonStyle's viewItemDrawText does for one line: the focus frame's margin on each
    // side, the text's colour group and role, the option's alignment.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    textRect.adjust(margin, 0, -margin, 0);
    if (textRect.width() <= 0)
        return;
    const QStaticText &laid = line(text, opt.font, textRect.width(), opt.textElideMode);
    const QPalette::ColorGroup group = !(opt.state & QStyle::State_Enabled)  ? QPalette::Disabled
                                       : !(opt.state & QStyle::State_Active) ? QPalette::Inactive
                                                                             : QPalette::Normal;
    // Placed as viewItemDrawText places its line: the line's rounded height aligned vertically in
    // the rect (whole pixels), its natural width aligned horizontally within it.
    const QSizeF size = laid.size();
    const Qt::Alignment align = QStyle::visualAlignment(opt.direction, opt.displayAlignment);
    const int top =
        QStyle::alignedRect(Qt::LeftToRight, align & Qt::AlignVertical_Mask, QSize(textRect.width(), qRound(size.height())), textRect).top();
    qreal x = textRect.left();
    if (align & Qt::AlignRight)
        x += textRect.width() - size.width();
    else if (align & Qt::AlignHCenter)
        x += (textRect.width() - size.width()) / 2;

    painter->save();
    painter->setFont(opt.font);
    painter->setPen(opt.palette.color(group, (opt.state & QStyle::State_Selected) ? QPalette::HighlightedText : QPalette::Text));
    painter->drawStaticText(QPointF(x, top), laid);
    painter->restore();
}

} // namespace Aile::Ui
