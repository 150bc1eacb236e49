#pragma once

#include "api/values/EngineStatus.h"
#include "api/values/SharerRow.h"

#include <QtCore/QAbstractTableModel>
#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

namespace Aile::Ui {

/// The rows of `GET /sharers` exactly as the engine answered them: the routing order (or the
/// reading order the engine sorted by), never re-ordered here, so the view and the API agree.
/// What a listing row does not carry (price sheet, kind, tested models, a missing credential's
/// reason) comes from the sharers as configured, by handle.
class SharerOrderModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Rank,
        Name,
        Handle,
        Provider,
        PriceSheet,
        InputPrice,
        OutputPrice,
        Quote,
        Tested,
        Speed,
        Tier,
        Weight,
        Quota,
        Health,
        Credential,
        State,
        ColumnCount
    };

    /// The Quota column's raw windows (a QJsonArray), for the bars (QuotaBarDelegate).
    static constexpr int WindowsRole = Qt::UserRole + 17;

    explicit SharerOrderModel(QObject *parent = nullptr);

    void setRows(const QList<Api::SharerRow> &rows);
    /// The sharers as the engine's status carries them (their configuration, credential and tests).
    void setConfigured(const QList<Api::SharerStatus> &sharers);
    Api::SharerRow row(int row) const { return m_rows.value(row); }
    /// The configured sharer of a handle, or null.
    const Api::SharerStatus *configured(const QString &handle) const;
    /// The row of a handle, or -1.
    int rowOf(const QString &handle) const;
    /// The `sort=` key the engine offers for a column (name, price, speed), or empty: routing order.
    static QString sortKey(int column);
    /// "available", "unavailable: cooling", "dead key", ... as the State column reads.
    QString state(const Api::SharerRow &row) const;
    /// "list price", "80% of list", "own quotes" for a configured sharer's price sheet.
    static QString priceSheet(const Api::SharerEdit &sharer);
    /// "keychain", "stored in a file", ... for a listing row's credentialStore.
    static QString credentialStore(const QString &store);
    /// "5h 42%, resets 14:00 · 7d used up, resets Mon 09:00" for a row's quota windows.
    static QString quota(const QList<Api::QuotaWindow> &windows);
    /// "98% ok, 420 ms (30 min)" once published, else "not enough data (37/100 served)".
    static QString health(const std::optional<Api::SharerHealth> &stats);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString text(const Api::SharerRow &row, int column) const;
    QString toolTip(const Api::SharerRow &row, int column) const;
    QList<Api::SharerRow> m_rows;
    QHash<QString, Api::SharerStatus> m_configured;
};

} // namespace Aile::Ui
