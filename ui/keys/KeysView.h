#pragma once

#include "api/values/EngineStatus.h"

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QPointer>
#include <QtWidgets/QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace Aile::Ui {

class KeyRoutesPanel;
class KeyRoutingDialog;
class DryRunDialog;
class KeysModel;
class ManagementClient;
class NewKeyDialog;

/// The Keys page: every local API key (GET /keys) with its prefix, when it was made, whether it
/// is revoked, what it spent today and a line of its routing; New key… (shown once, with Copy),
/// Routing… (the key's routing dialog) and Revoke… (after a confirmation). Under it, the selected
/// key's named routes (KeyRoutesPanel). Every change goes through the management API in-process
/// and the list is read again after it.
class KeysView : public QWidget
{
    Q_OBJECT
public:
    explicit KeysView(QWidget *parent = nullptr);

    void setClient(ManagementClient *client);
    /// The sharers as EngineStatus carries them: what the routing dialog offers in its lists.
    void setSharers(const QList<Api::SharerStatus> &sharers);
    /// Reads GET /keys again (it carries each key's spend today).
    void refresh();

    KeysModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    KeyRoutesPanel *routesPanel() const { return m_routes; }
    QString message() const;
    QString selectedKeyId() const;
    void selectKey(const QString &keyId);

    /// Opens the dialogs (non-modal); each returns the dialog it opened.
    NewKeyDialog *newKey();
    KeyRoutingDialog *editRouting();
    /// "Dry run a request…" for the selected key.
    DryRunDialog *dryRun();
    /// Asks to confirm, then DELETE /keys/{id}.
    void revokeSelected();

Q_SIGNALS:
    /// A listing arrived and the table shows it.
    void listed();
    /// A key was created, changed or revoked.
    void keysChanged();

private:
    void showMessage(const QString &text);
    void updateButtons();
    void showSelectedRoutes();

    ManagementClient *m_client = nullptr;
    KeysModel *m_model;
    QTableView *m_table;
    QPushButton *m_new;
    QPushButton *m_routing;
    QPushButton *m_revoke;
    QPushButton *m_dryRun;
    QLabel *m_message;
    QLabel *m_footer;
    KeyRoutesPanel *m_routes;
    QList<Api::SharerStatus> m_sharers;
    QPointer<KeyRoutingDialog> m_routingDialog;
};

} // namespace Aile::Ui
