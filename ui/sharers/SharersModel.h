#pragma once

#include <QtCore/QAbstractTableModel>
#include <QtCore/QJsonArray>

namespace Aile::Ui {

/// The sharers the engine knows, one row each, from EngineStatus::sharers (the configuration
/// file's JSON plus credentialAvailable/credentialError). Replaced whole on each status: the
/// list is short and a status carries all of it.
class SharersModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Handle, Provider, Kind, Models, Price, Priority, Weight, Slots, BaseUrl, Credential, ColumnCount };

    explicit SharersModel(QObject *parent = nullptr);

    void setSharers(const QJsonArray &sharers);
    QJsonObject sharer(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString text(const QJsonObject &s, int column) const;
    QJsonArray m_sharers;
};

} // namespace Aile::Ui
