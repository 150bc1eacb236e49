#pragma once

#include "api/values/EngineStatus.h"
#include "common/ManagementClient.h"
#include "dialogs/SharerDialog.h"

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtWidgets/QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QCompleter;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace Aile::Api {
struct EngineStatus;
}

namespace Aile::Ui {

class SharerOrderModel;

/// The Sharers page: the engine's `GET /sharers` listing, which is the order requests route in
/// (the same ordering function), with the filters that map one-to-one onto the request headers,
/// and the buttons that add, edit, remove, re-link, test and probe a sharer through the management
/// API in-process. A column click asks the engine for a reading order and the footer says so.
class SharersView : public QWidget
{
    Q_OBJECT
public:
    explicit SharersView(QWidget *parent = nullptr);

    /// Where the management calls go; without it the page only shows the last status.
    void setClient(ManagementClient *client);
    /// The sharers as configured, the catalogue's providers and where secrets can go (from each
    /// EngineStatus): what the dialogs start from and what the keychain banner says. Also re-reads
    /// the listing, since a status means something in the engine may have changed.
    void setStatus(const Aile::Api::EngineStatus &status);
    /// Asks the engine for the listing again with the current filters and sort.
    void refresh();

    SharerOrderModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QString footer() const;
    /// The plain words shown when no keychain answers; empty while one does (or before the probe).
    QString keychainBanner() const;
    /// The handle of the selected row, or empty.
    QString selectedHandle() const;
    void selectHandle(const QString &handle);

Q_SIGNALS:
    /// A listing arrived and the table shows it.
    void listed();

private:
    void handleListing(const Reply<Api::SharerListing> &reply);
    void handleHeaderClick(int column);
    void showMessage(const QString &text);
    void updateButtons();
    SharerQuery listingQuery() const;
    void updateCompletion();

    void addSharer();
    void editSharer();
    void removeSharer();
    void relinkSharer();
    void testModel();
    void probeSharer();

    ManagementClient *m_client = nullptr;
    SharerOrderModel *m_model;
    QTableView *m_table;
    QLabel *m_keychainBanner;
    QLineEdit *m_modelEdit;
    QCompleter *m_modelCompleter;
    QComboBox *m_providerFilter;
    QLineEdit *m_maxPrice;
    QLineEdit *m_minPrice;
    QCheckBox *m_verified;
    QPushButton *m_add;
    QPushButton *m_edit;
    QPushButton *m_remove;
    QPushButton *m_relink;
    QPushButton *m_test;
    QPushButton *m_probe;
    QLabel *m_message;
    QLabel *m_footer;
    QString m_sort;
    QList<Api::SharerStatus> m_configured;
    QList<Api::ProviderStatus> m_providers;
    SecretStorage m_storage;
    bool m_statusSeen = false; // the engine's status came (its providers, where secrets can go)

    quint64 m_listing = 0; // the newest listing asked for; an older answer arriving late is dropped
};

} // namespace Aile::Ui
