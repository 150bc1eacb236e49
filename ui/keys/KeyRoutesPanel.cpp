#include "KeyRoutesPanel.h"

#include "Confirm.h"
#include "DryRunDialog.h"
#include "ListTable.h"
#include "RouteDialog.h"
#include "RoutesModel.h"
#include "common/ManagementClient.h"

#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

KeyRoutesPanel::KeyRoutesPanel(QWidget *parent)
    : QWidget(parent), m_model(new RoutesModel(this)), m_heading(new QLabel(this)), m_table(new QTableView(this)),
      m_new(new QPushButton(tr("New ro&ute…"), this)), m_edit(new QPushButton(tr("&Edit route…"), this)),
      m_remove(new QPushButton(tr("Re&move route…"), this)), m_dryRun(new QPushButton(tr("Dr&y run"), this))
{
    setObjectName(QStringLiteral("keyRoutesPanel"));
    m_heading->setObjectName(QStringLiteral("keyRoutesHeading"));
    m_heading->setWordWrap(true);
    setUpListTable(m_table, m_model, QStringLiteral("keyRoutesTable"), tr("The selected key's routes"));
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(RoutesModel::Targets, QHeaderView::Stretch);
    m_table->setColumnWidth(RoutesModel::Name, 140);
    m_table->setColumnWidth(RoutesModel::Order, 170);
    m_table->setColumnWidth(RoutesModel::Limits, 190);
    m_table->setColumnWidth(RoutesModel::SpentToday, 150);

    m_new->setObjectName(QStringLiteral("newRoute"));
    m_new->setAccessibleName(tr("New route on the selected key"));
    m_edit->setObjectName(QStringLiteral("editRoute"));
    m_edit->setAccessibleName(tr("Edit the selected route"));
    m_remove->setObjectName(QStringLiteral("removeRoute"));
    m_remove->setAccessibleName(tr("Remove the selected route"));
    m_dryRun->setObjectName(QStringLiteral("dryRunRoute"));
    m_dryRun->setAccessibleName(tr("Dry run the selected route"));
    m_dryRun->setToolTip(tr("What a request to this route would do, as saved: its targets in order and the sharers of each. "
                            "Nothing is sent or charged."));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_heading, 1);
    for (QPushButton *b : {m_new, m_edit, m_remove, m_dryRun})
        buttons->addWidget(b);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(m_table, 1);

    connect(m_new, &QPushButton::clicked, this, &KeyRoutesPanel::newRoute);
    connect(m_edit, &QPushButton::clicked, this, &KeyRoutesPanel::editRoute);
    connect(m_remove, &QPushButton::clicked, this, &KeyRoutesPanel::removeSelected);
    connect(m_dryRun, &QPushButton::clicked, this, &KeyRoutesPanel::dryRun);
    connect(m_table, &QTableView::doubleClicked, this, &KeyRoutesPanel::editRoute);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        if (const QString name = selectedRoute(); !name.isEmpty()) {
            m_lastKeyId = m_key.id;
            m_lastRoute = name;
        }
        updateButtons();
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, &KeyRoutesPanel::updateButtons);
    setKey({});
}

void KeyRoutesPanel::setClient(ManagementClient *client)
{
    m_client = client;
    updateButtons();
}

void KeyRoutesPanel::setSharers(const QList<Api::SharerStatus> &sharers)
{
    m_sharers = sharers;
    QHash<QString, QString> names;
    for (const Api::SharerStatus &s : sharers)
        names.insert(s.config.handle, s.config.name);
    m_model->setSharerNames(names);
}

void KeyRoutesPanel::setKey(const Api::KeyInfo &key)
{
    m_key = key;
    m_model->setKey(key);
    const QString name = key.name;
    if (key.id.isEmpty())
        m_heading->setText(tr("Routes: select a key."));
    else if (m_model->rowCount() == 0)
        m_heading->setText(
            tr("Routes of %1: none yet. A route tries its targets in turn; a tool uses it by sending its name as the model.").arg(name));
    else
        m_heading->setText(tr("Routes of %1: a tool uses one by sending its name as the model.").arg(name));
    // The list is read again after every change and every status: the route chosen stays chosen.
    if (key.id == m_lastKeyId)
        selectRoute(m_lastRoute);
    if (selectedRoute().isEmpty() && m_model->rowCount() > 0)
        m_table->selectRow(0);
    updateButtons();
}

QString KeyRoutesPanel::selectedRoute() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(RoutesModel::RouteNameRole).toString();
}

void KeyRoutesPanel::selectRoute(const QString &name)
{
    if (const int row = m_model->rowOf(name); row >= 0)
        m_table->selectRow(row);
}

void KeyRoutesPanel::updateButtons()
{
    const bool usable = m_client && !m_key.id.isEmpty() && !m_key.revoked;
    const bool selected = usable && !selectedRoute().isEmpty();
    m_new->setEnabled(usable);
    m_edit->setEnabled(selected);
    m_remove->setEnabled(selected);
    m_dryRun->setEnabled(selected);
}

RouteDialog *KeyRoutesPanel::openDialog(const QString &routeName)
{
    const QString keyId = m_key.id;
    if (!m_client || keyId.isEmpty())
        return nullptr;
    if (m_dialog)
        m_dialog->close();
    auto *dialog = new RouteDialog(m_client, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setSharers(m_sharers);
    dialog->load(keyId, routeName);
    connect(dialog, &RouteDialog::saved, this, [this](const QString &keyId, const QString &name) {
        m_lastKeyId = keyId; // selected once the list is read again
        m_lastRoute = name;
        Q_EMIT routesChanged(tr("Route %1 saved.").arg(name));
    });
    m_dialog = dialog;
    dialog->open();
    return dialog;
}

RouteDialog *KeyRoutesPanel::newRoute()
{
    return openDialog(QString());
}

RouteDialog *KeyRoutesPanel::editRoute()
{
    const QString name = selectedRoute();
    return name.isEmpty() ? nullptr : openDialog(name);
}

void KeyRoutesPanel::removeSelected()
{
    const QString name = selectedRoute();
    const QString keyId = m_key.id;
    if (!m_client || name.isEmpty())
        return;
    Confirm::ask(this, tr("Remove route %1?").arg(name),
                 tr("Requests made with key %1 that send %2 as the model are no longer routed by it. "
                    "Its spend today stays in the ledger.")
                     .arg(m_key.name, name),
                 tr("Remove"), {QStringLiteral("removeRouteConfirm"), QStringLiteral("confirmRemoveRoute"), QStringLiteral("cancelRemoveRoute")},
                 [this, keyId, name] {
                     QList<Api::RouteValue> routes = m_model->routes();
                     routes.removeIf([&name](const Api::RouteValue &r) { return r.name == name; });
                     m_client->saveRoutes(keyId, routes, this, [this, name](const Reply<Api::KeyInfo> &reply) {
                         if (!reply.ok()) {
                             Q_EMIT failed(reply.error);
                             return;
                         }
                         Q_EMIT routesChanged(tr("Route %1 removed.").arg(name));
                     });
                 });
}

DryRunDialog *KeyRoutesPanel::dryRun()
{
    const QString name = selectedRoute();
    if (!m_client || name.isEmpty())
        return nullptr;
    auto *dialog = new DryRunDialog(m_client, m_key.id, m_key.name, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setModel(name);
    dialog->open();
    dialog->run();
    return dialog;
}

} // namespace Aile::Ui
