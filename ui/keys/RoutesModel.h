#pragma once

#include <QtCore/QAbstractTableModel>
#include <QtCore/QHash>
#include "api/values/KeyInfo.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

namespace Aile::Ui {

/// A key's named routes, one row each as GET /keys gives them (routes, and routeSpend for what each
/// spent today): the name, its targets in order, its order and Prefer, its limits, and today's
/// spend against its daily budget.
class RoutesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Targets, Order, Limits, SpentToday, ColumnCount };
    enum Role { RouteNameRole = Qt::UserRole + 1 };

    explicit RoutesModel(QObject *parent = nullptr);

    /// The key as GET /keys lists it (its routes and routeSpend).
    void setKey(const Api::KeyInfo &key);
    /// Sharer names by handle, to show a pinned target by its sharer's name.
    void setSharerNames(const QHash<QString, QString> &names);
    Api::RouteValue route(int row) const { return m_routes.value(row); }
    QList<Api::RouteValue> routes() const { return m_routes; }
    int rowOf(const QString &routeName) const;

    /// "openai/gpt-5.2 (Work OpenAI) → deepseek/deepseek-chat"
    QString targetsSummary(const Api::RouteValue &route) const;
    static QString orderSummary(const Api::RouteValue &route);
    static QString limitsSummary(const Api::RouteValue &route);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Api::RouteSpend spendOf(int row) const;
    bool budgetSpent(int row) const;

    QList<Api::RouteValue> m_routes;
    QList<Api::RouteSpend> m_spend;
    QHash<QString, QString> m_sharerNames; // upper-case handle → name
};

} // namespace Aile::Ui
