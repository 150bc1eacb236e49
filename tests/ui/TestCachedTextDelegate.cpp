// common/CachedTextDelegate.h: a table cell painted from laid-out lines it keeps looks as the
// stock delegate paints it (background, selection, icon, elided and aligned text), and a repaint
// of cells already seen lays out no text again (docs/performance.md "Change 20 (desktop)").
#include "common/CachedTextDelegate.h"

#include <QtGui/QImage>
#include <QtGui/QPainter>
#include <QtGui/QPixmap>
#include <QtGui/QStandardItemModel>
#include <QtTest/QtTest>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QTableView>

using namespace Aile::Ui;

namespace {

// A table of what the Traces table shows: short names, a long one cut at the edge, right-aligned
// numbers, an icon, an empty cell; one row selected.
void fill(QStandardItemModel &model)
{
    QPixmap dot(12, 12);
    dot.fill(Qt::darkGreen);
    const QStringList rows[] = {
        {QStringLiteral("12:03:04"), QStringLiteral("laptop"), QStringLiteral("openai/gpt-5.2"), QStringLiteral("200"), QStringLiteral("1,204")},
        {QStringLiteral("12:03:05"), QStringLiteral("a key with a rather long name that cannot fit"), QStringLiteral("claude/claude-sonnet-5"),
         QStringLiteral("429"), QStringLiteral("0")},
        {QStringLiteral("12:03:06"), QString(), QStringLiteral("mistral/devstral"), QStringLiteral("200"), QStringLiteral("98")}};
    for (const QStringList &cells : rows) {
        QList<QStandardItem *> items;
        for (const QString &text : cells)
            items << new QStandardItem(text);
        items[3]->setIcon(QIcon(dot));
        items[4]->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        model.appendRow(items);
    }
}

QImage render(QTableView &view)
{
    view.resize(520, 140);
    view.show();
    QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    view.viewport()->render(&image);
    return image;
}

} // namespace

class TestCachedTextDelegate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aCellLooksAsTheStockDelegatePaintsIt()
    {
        QStandardItemModel model;
        fill(model);
        QTableView stock, cached;
        for (QTableView *view : {&stock, &cached}) {
            view->setModel(&model);
            view->setWordWrap(false);
            view->setAlternatingRowColors(true);
            view->verticalHeader()->hide();
            view->horizontalHeader()->setDefaultSectionSize(100);
            view->selectRow(1);
        }
        auto *delegate = new CachedTextDelegate(&cached);
        cached.setItemDelegate(delegate);
        const QImage expected = render(stock);
        const QImage painted = render(cached);
        QCOMPARE(painted.size(), expected.size());
        // Pixel for pixel: the same glyphs at the same places, elided at the same character.
        int differing = 0;
        for (int y = 0; y < expected.height(); ++y)
            for (int x = 0; x < expected.width(); ++x)
                differing += painted.pixel(x, y) != expected.pixel(x, y);
        if (differing) {
            expected.save(QDir::temp().filePath(QStringLiteral("cached-text-expected.png")));
            painted.save(QDir::temp().filePath(QStringLiteral("cached-text-painted.png")));
        }
        QCOMPARE(differing, 0);
    }

    void aRepaintLaysOutNoTextAgain()
    {
        QStandardItemModel model;
        fill(model);
        QTableView view;
        view.setModel(&model);
        auto *delegate = new CachedTextDelegate(&view);
        view.setItemDelegate(delegate);
        render(view);
        const int first = delegate->layouts();
        QCOMPARE(first, 13); // one line per text and width: 14 cells with text, "200" twice in one column
        render(view);
        QCOMPARE(delegate->layouts(), first);
        // A new value is laid out once; a column made narrower lays its cells out again.
        model.item(0, 1)->setText(QStringLiteral("desktop"));
        render(view);
        QCOMPARE(delegate->layouts(), first + 1);
        view.horizontalHeader()->resizeSection(2, 60);
        render(view);
        QCOMPARE(delegate->layouts(), first + 1 + 3);
    }
};

QTEST_MAIN(TestCachedTextDelegate)
#include "TestCachedTextDelegate.moc"
