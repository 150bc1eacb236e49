#pragma once

#include "api/values/EngineStatus.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QPointer>
#include <QtWidgets/QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace Aile::Ui {

class DryRunDialog;
class ManagementClient;
class RouteDialog;
class RoutesModel;

/// The selected key's named routes on the Keys page: name, targets in order, order, limits and
/// today's spend against the budget (from GET /keys), with New route…, Edit route…, Remove route…
/// and Dry run on a saved route. Every change is a PUT /keys/{id} of the key's whole route list.
class KeyRoutesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit KeyRoutesPanel(QWidget *parent = nullptr);

    void setClient(ManagementClient *client);
    void setSharers(const QList<Api::SharerStatus> &sharers);
    /// The key as GET /keys lists it; an empty object when none is selected.
    void setKey(const Api::KeyInfo &key);

    RoutesModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QString selectedRoute() const;
    void selectRoute(const QString &name);

    /// Open the route dialog (non-modal) for a new route or the selected one.
    RouteDialog *newRoute();
    RouteDialog *editRoute();
    /// Asks to confirm, then saves the key's routes without the selected one.
    void removeSelected();
    /// Dry run on the selected route: the dialog opens with its name as the model and runs.
    DryRunDialog *dryRun();

Q_SIGNALS:
    /// A route was saved or removed: the key list is worth reading again. message says which.
    void routesChanged(const QString &message);
    void failed(const QString &message);

private:
    RouteDialog *openDialog(const QString &routeName);
    void updateButtons();

    ManagementClient *m_client = nullptr;
    Api::KeyInfo m_key;
    QString m_lastKeyId; // the route last chosen, and its key's id
    QString m_lastRoute;
    QList<Api::SharerStatus> m_sharers;
    RoutesModel *m_model;
    QLabel *m_heading;
    QTableView *m_table;
    QPushButton *m_new;
    QPushButton *m_edit;
    QPushButton *m_remove;
    QPushButton *m_dryRun;
    QPointer<RouteDialog> m_dialog;
};

} // namespace Aile::Ui
