#pragma once

#include <QtCore/QString>

class QAbstractItemModel;
class QTableView;

namespace Aile::Ui {

/// The Keys page's lists (the keys, a key's routes): one read-only row per item, whole rows
/// selected one at a time, alternating colours, no row numbers, no wrapping.
void setUpListTable(QTableView *table, QAbstractItemModel *model, const QString &objectName, const QString &accessibleName);

} // namespace Aile::Ui
