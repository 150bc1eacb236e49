#include "RouteTargetsTable.h"

#include "common/Format.h"

#include <QtWidgets/QApplication>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLineEdit>

namespace Aile::Ui {

namespace {

QString providerOf(const QString &model)
{
    return model.section(QLatin1Char('/'), 0, 0).trimmed();
}

QDoubleSpinBox *dollars(int decimals, double maximum, const QString &none)
{
    auto *box = new QDoubleSpinBox;
    box->setDecimals(decimals);
    box->setRange(0, maximum);
    box->setPrefix(QStringLiteral("$"));
    box->setSingleStep(0.1);
    box->setSpecialValueText(none);
    box->setFrame(false);
    box->setAutoFillBackground(true); // the row's selection colour stays behind the cell, not in its buttons
    return box;
}

} // namespace

RouteTargetsTable::RouteTargetsTable(QWidget *parent) : QTableWidget(0, ColumnCount, parent)
{
    setHorizontalHeaderLabels({tr("Model"), tr("Sharer"), tr("Max cost"), tr("Daily budget"), tr("Spent today")});
    horizontalHeaderItem(SpentToday)
        ->setToolTip(tr("What the key was charged through this target since 00:00 UTC, as saved. "
                        "An edited target starts afresh."));
    horizontalHeaderItem(MaxCost)->setToolTip(tr("The most one request through this target may be charged; the key's own cap "
                                                 "binds too, the stricter winning."));
    horizontalHeaderItem(Budget)->setToolTip(tr("Once this target has spent it today (UTC), the route moves on to its next "
                                                "target."));
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setWordWrap(false);
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 16);
    // The model and the sharer share what the money columns leave; those fit their (translated) titles.
    horizontalHeader()->setSectionResizeMode(Model, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(Sharer, QHeaderView::Stretch);
    for (const int column : {MaxCost, Budget, SpentToday})
        setColumnWidth(column, qMax(110, fontMetrics().horizontalAdvance(horizontalHeaderItem(column)->text()) + 28));
    setMinimumHeight(verticalHeader()->defaultSectionSize() * 4 + horizontalHeader()->sizeHint().height());

    // Clicking into a row's combo or spin box makes it the selected row, for Remove and Move.
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget *, QWidget *now) {
        for (QWidget *w = now; w && w != this; w = w->parentWidget())
            if (const int row = rowOfWidget(w); row >= 0) {
                if (row != selectedRow())
                    selectRow(row);
                return;
            }
    });
}

void RouteTargetsTable::setChoices(const QStringList &models, const QList<Api::SharerStatus> &sharers)
{
    const QList<Api::RouteTargetValue> current = targets();
    m_models = models;
    m_sharers = sharers;
    const int selected = selectedRow();
    setTargets(current);
    if (selected >= 0)
        selectRow(selected);
}

void RouteTargetsTable::setSpend(const QList<Api::RouteSpend::Target> &spend)
{
    m_spend = spend;
    for (int row = 0; row < rowCount(); ++row)
        updateSpend(row);
}

void RouteTargetsTable::setTargets(const QList<Api::RouteTargetValue> &targets)
{
    setRowCount(0);
    for (const Api::RouteTargetValue &t : targets) {
        const int row = rowCount();
        insertRow(row);
        fillRow(row, t);
    }
    renameCells();
}

QList<Api::RouteTargetValue> RouteTargetsTable::targets() const
{
    QList<Api::RouteTargetValue> out;
    for (int row = 0; row < rowCount(); ++row)
        out.append(target(row));
    return out;
}

Api::RouteTargetValue RouteTargetsTable::target(int row) const
{
    Api::RouteTargetValue t;
    t.model = modelBox(row)->currentText().trimmed();
    t.sharer = sharerBox(row)->currentData().toString();
    if (maxCostBox(row)->value() > 0)
        t.maxCostUsd = maxCostBox(row)->value();
    if (budgetBox(row)->value() > 0)
        t.budgetUsdPerDay = budgetBox(row)->value();
    return t;
}

void RouteTargetsTable::addTarget(const Api::RouteTargetValue &target)
{
    const int row = rowCount();
    insertRow(row);
    fillRow(row, target);
    renameCells();
    selectRow(row);
    Q_EMIT targetsChanged();
}

void RouteTargetsTable::removeSelected()
{
    const int row = selectedRow();
    if (row < 0)
        return;
    removeRow(row);
    renameCells();
    if (rowCount() > 0)
        selectRow(qMin(row, rowCount() - 1));
    Q_EMIT targetsChanged();
}

void RouteTargetsTable::moveSelected(int delta)
{
    const int row = selectedRow();
    const int to = row + delta;
    if (row < 0 || to < 0 || to >= rowCount())
        return;
    QList<Api::RouteTargetValue> list = targets();
    list.move(row, to);
    setTargets(list);
    selectRow(to);
    Q_EMIT targetsChanged();
}

int RouteTargetsTable::selectedRow() const
{
    const QModelIndexList rows = selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.first().row();
}

QComboBox *RouteTargetsTable::modelBox(int row) const
{
    return qobject_cast<QComboBox *>(cellWidget(row, Model));
}

QComboBox *RouteTargetsTable::sharerBox(int row) const
{
    return qobject_cast<QComboBox *>(cellWidget(row, Sharer));
}

QDoubleSpinBox *RouteTargetsTable::maxCostBox(int row) const
{
    return qobject_cast<QDoubleSpinBox *>(cellWidget(row, MaxCost));
}

QDoubleSpinBox *RouteTargetsTable::budgetBox(int row) const
{
    return qobject_cast<QDoubleSpinBox *>(cellWidget(row, Budget));
}

int RouteTargetsTable::rowOfWidget(const QWidget *cell) const
{
    for (int row = 0; row < rowCount(); ++row)
        for (int column = Model; column <= Budget; ++column)
            if (cellWidget(row, column) == cell)
                return row;
    return -1;
}

void RouteTargetsTable::fillRow(int row, const Api::RouteTargetValue &t)
{
    auto *spent = new QTableWidgetItem;
    spent->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    spent->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    setItem(row, SpentToday, spent);

    auto *model = new QComboBox;
    model->setObjectName(QStringLiteral("targetModel"));
    model->setEditable(true);
    model->setInsertPolicy(QComboBox::NoInsert);
    model->setFrame(false);
    model->addItems(m_models);
    model->setEditText(t.model);
    model->lineEdit()->setPlaceholderText(tr("provider/model"));
    setCellWidget(row, Model, model);

    auto *sharer = new QComboBox;
    sharer->setObjectName(QStringLiteral("targetSharer"));
    sharer->setFrame(false);
    setCellWidget(row, Sharer, sharer);
    fillSharers(row, t.sharer);

    QDoubleSpinBox *maxCost = dollars(6, 10000, tr("none"));
    maxCost->setObjectName(QStringLiteral("targetMaxCost"));
    maxCost->setValue(t.maxCostUsd.value_or(0));
    setCellWidget(row, MaxCost, maxCost);
    QDoubleSpinBox *budget = dollars(2, 1000000, tr("none"));
    budget->setObjectName(QStringLiteral("targetBudget"));
    budget->setValue(t.budgetUsdPerDay.value_or(0));
    setCellWidget(row, Budget, budget);
    updateSpend(row);

    connect(model, &QComboBox::currentTextChanged, this, [this, model] {
        const int r = rowOfWidget(model);
        if (r < 0)
            return;
        // A pin to a sharer of another provider does not carry over; a handle this engine does not
        // know is kept (it may be the market's).
        QString pin = sharerBox(r)->currentData().toString();
        for (const Api::SharerStatus &s : std::as_const(m_sharers))
            if (s.config.handle.compare(pin, Qt::CaseInsensitive) == 0 && s.config.provider != providerOf(model->currentText()))
                pin.clear();
        fillSharers(r, pin);
        updateSpend(r);
        Q_EMIT targetsChanged();
    });
    connect(sharer, &QComboBox::currentIndexChanged, this, [this, sharer] {
        if (const int r = rowOfWidget(sharer); r >= 0)
            updateSpend(r);
        Q_EMIT targetsChanged();
    });
    for (QDoubleSpinBox *box : {maxCost, budget})
        connect(box, &QDoubleSpinBox::valueChanged, this, &RouteTargetsTable::targetsChanged);
}

void RouteTargetsTable::fillSharers(int row, const QString &pin)
{
    QComboBox *box = sharerBox(row);
    const QString provider = providerOf(modelBox(row)->currentText());
    const QSignalBlocker blocker(box);
    box->clear();
    box->addItem(tr("Any sharer"), QString());
    int current = 0;
    for (const Api::SharerStatus &s : std::as_const(m_sharers)) {
        if (provider.isEmpty() || s.config.provider != provider)
            continue;
        const QString handle = s.config.handle;
        box->addItem(tr("%1 (%2)").arg(s.config.name, handle), handle);
        box->setItemData(box->count() - 1, handle, Qt::ToolTipRole);
        if (handle.compare(pin, Qt::CaseInsensitive) == 0)
            current = box->count() - 1;
    }
    if (!pin.isEmpty() && current == 0) {
        box->addItem(pin, pin);
        current = box->count() - 1;
    }
    box->setCurrentIndex(current);
}

void RouteTargetsTable::updateSpend(int row)
{
    QTableWidgetItem *cell = item(row, SpentToday);
    if (!cell)
        return;
    const QString model = modelBox(row)->currentText().trimmed();
    const QString pin = sharerBox(row)->currentData().toString();
    QString text = m_spend.isEmpty() ? QString() : QStringLiteral("—");
    QString tip = tr("Nothing spent today through this target as it stands: a new or edited target starts afresh.");
    for (const Api::RouteSpend::Target &s : std::as_const(m_spend)) {
        if (s.model != model || s.sharer.compare(pin, Qt::CaseInsensitive) != 0)
            continue;
        const double spent = s.spentUsd;
        const double budget = s.budgetUsdPerDay.value_or(0);
        text = Format::money(spent);
        tip = budget > 0 ? tr("%1 of its %2 daily budget spent today (UTC)").arg(Format::money(spent), Format::money(budget))
                         : tr("%1 spent today (UTC)").arg(Format::money(spent));
        break;
    }
    cell->setText(text);
    cell->setToolTip(tip);
}

void RouteTargetsTable::renameCells()
{
    // A screen reader names each cell by its target's place in the order.
    for (int row = 0; row < rowCount(); ++row) {
        modelBox(row)->setAccessibleName(tr("Model of target %1").arg(row + 1));
        modelBox(row)->lineEdit()->setAccessibleName(modelBox(row)->accessibleName());
        sharerBox(row)->setAccessibleName(tr("Sharer of target %1").arg(row + 1));
        maxCostBox(row)->setAccessibleName(tr("Max cost per request of target %1").arg(row + 1));
        budgetBox(row)->setAccessibleName(tr("Daily budget of target %1").arg(row + 1));
        for (QDoubleSpinBox *box : {maxCostBox(row), budgetBox(row)})
            if (auto *editor = box->findChild<QLineEdit *>())
                editor->setAccessibleName(box->accessibleName());
    }
}

} // namespace Aile::Ui
