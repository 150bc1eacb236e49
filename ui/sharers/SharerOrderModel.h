#pragma once

#include <QtCore/QAbstractTableModel>
#include <QtCore/QJsonArray>

namespace Aile::Ui {

/// The rows of `GET /sharers` exactly as the engine answered them: the routing order (or the
/// reading order the engine sorted by), never re-ordered here, so the view and the API agree.
class SharerOrderModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Rank, Handle, InputPrice, OutputPrice, Quote, Tested, Speed, State, ColumnCount };

    explicit SharerOrderModel(QObject *parent = nullptr);

    void setRows(const QJsonArray &rows);
    QJsonObject row(int row) const;
    /// The row of a handle, or -1.
    int rowOf(const QString &handle) const;
    /// The `sort=` key the engine offers for a column (name, price, speed), or empty: routing order.
    static QString sortKey(int column);
    /// "available", "unavailable: cooling", "dead key", ... as the State column reads.
    static QString state(const QJsonObject &row);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString text(const QJsonObject &row, int column) const;
    QJsonArray m_rows;
};

} // namespace Aile::Ui
