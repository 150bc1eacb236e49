#pragma once

#include "api/values/KeyInfo.h"

#include <QtCore/QAbstractTableModel>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

namespace Aile::Ui {

/// The local API keys, one row each, as GET /keys lists them (never the key itself: a name, a
/// prefix, when it was made, whether it is revoked, its routing and what it spent today).
class KeysModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Prefix, Created, State, SpentToday, Routing, ColumnCount };
    enum Role { KeyIdRole = Qt::UserRole + 1, RevokedRole };

    explicit KeysModel(QObject *parent = nullptr);

    void setKeys(const QList<Api::KeyInfo> &keys);
    Api::KeyInfo key(int row) const { return m_keys.value(row); }
    int rowOf(const QString &keyId) const;

    /// A short line of what the key's routing changes from the defaults ("≤ 80% of list · cap $0.50").
    static QString routingSummary(const Api::KeyRoutingValue &routing);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<Api::KeyInfo> m_keys;
};

} // namespace Aile::Ui
