#pragma once

#include "api/values/EngineStatus.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QStringList>
#include <QtWidgets/QTableWidget>

class QComboBox;
class QDoubleSpinBox;

namespace Aile::Ui {

/// A named route's targets, one row each in the order they are tried: the model (provider/model,
/// an editable choice), the sharer it is pinned to (Any sharer, or one of that provider's
/// sharers), its max cost per request and its daily budget (both optional), and, read-only, what
/// it spent today. Fields of a target the table does not show are kept as loaded.
class RouteTargetsTable : public QTableWidget
{
    Q_OBJECT
public:
    enum Column { Model, Sharer, MaxCost, Budget, SpentToday, ColumnCount };

    explicit RouteTargetsTable(QWidget *parent = nullptr);

    /// What the model cells offer (provider/model) and the sharers the pins offer, as
    /// EngineStatus carries them ({handle, name, provider}).
    void setChoices(const QStringList &models, const QList<Api::SharerStatus> &sharers);
    /// Today's spend per target as the key's routeSpend gives it ({model, sharer, spentUsd, …}).
    /// A figure belongs to what a target calls (model and pin), so it follows a moved row and
    /// leaves an edited one.
    void setSpend(const QList<Api::RouteSpend::Target> &spend);

    void setTargets(const QList<Api::RouteTargetValue> &targets);
    QList<Api::RouteTargetValue> targets() const;
    Api::RouteTargetValue target(int row) const;

    /// Appends a row (an empty one by default) and selects it.
    void addTarget(const Api::RouteTargetValue &target = {});
    void removeSelected();
    /// Moves the selected row up (-1) or down (+1); the selection follows it.
    void moveSelected(int delta);
    int selectedRow() const;

    QComboBox *modelBox(int row) const;
    QComboBox *sharerBox(int row) const;
    QDoubleSpinBox *maxCostBox(int row) const;
    QDoubleSpinBox *budgetBox(int row) const;

Q_SIGNALS:
    /// A row was added, removed or moved, or a cell edited.
    void targetsChanged();

private:
    void fillRow(int row, const Api::RouteTargetValue &target);
    void fillSharers(int row, const QString &pin);
    void updateSpend(int row);
    void renameCells();
    int rowOfWidget(const QWidget *cell) const;

    QStringList m_models;
    QList<Api::SharerStatus> m_sharers;
    QList<Api::RouteSpend::Target> m_spend;
};

} // namespace Aile::Ui
