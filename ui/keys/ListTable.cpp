#include "ListTable.h"

#include <QtWidgets/QHeaderView>
#include <QtWidgets/QTableView>

namespace Aile::Ui {

void setUpListTable(QTableView *table, QAbstractItemModel *model, const QString &objectName, const QString &accessibleName)
{
    table->setObjectName(objectName);
    table->setAccessibleName(accessibleName);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
}

} // namespace Aile::Ui
