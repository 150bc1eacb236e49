#pragma once

#include <QtCore/QHash>
#include <QtGui/QStaticText>
#include <QtWidgets/QStyledItemDelegate>

namespace Aile::Ui {

/// Paints a cell as QStyledItemDelegate does (the style draws its background, selection, icon and
/// focus), but its text from laid-out lines it keeps (QStaticText), keyed by the text and the
/// width it is elided to: the style lays out and shapes every visible cell's text again on every
/// repaint. The live Traces table repaints twice a second under load, and its cells repeat the
/// same few names, models and statuses: ~93k instructions a cell with the style's text, ~32k with
/// this, pixel for pixel the same (docs/performance.md "Change 20 (desktop)"). Single-line, plain
/// text: what a table of short values shows.
class CachedTextDelegate : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    /// Lines laid out since the start: a repaint of cells already seen lays out none.
    int layouts() const { return m_layouts; }

    /// At most this many lines are kept; past it the cache starts again.
    static constexpr int MaxLines = 4096;

private:
    struct Key
    {
        QString text;
        int width = 0;
        int elide = 0;
        friend bool operator==(const Key &a, const Key &b) { return a.width == b.width && a.elide == b.elide && a.text == b.text; }
        friend size_t qHash(const Key &k, size_t seed = 0) { return qHashMulti(seed, k.text, k.width, k.elide); }
    };
    const QStaticText &line(const QString &text, const QFont &font, int width, Qt::TextElideMode elide) const;

    mutable QHash<Key, QStaticText> m_lines;
    mutable QFont m_font; // the font the lines were laid out in; another one starts again
    mutable int m_layouts = 0;
};

} // namespace Aile::Ui
