#include "KeysView.h"

#include "Confirm.h"
#include "DryRunDialog.h"
#include "KeyRoutesPanel.h"
#include "KeyRoutingDialog.h"
#include "KeysModel.h"
#include "ListTable.h"
#include "NewKeyDialog.h"
#include "common/ManagementClient.h"

#include <QtCore/QJsonObject>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

KeysView::KeysView(QWidget *parent)
    : QWidget(parent), m_model(new KeysModel(this)), m_table(new QTableView(this)), m_new(new QPushButton(tr("&New key…"), this)),
      m_routing(new QPushButton(tr("&Routing…"), this)), m_revoke(new QPushButton(tr("Re&voke…"), this)),
      m_dryRun(new QPushButton(tr("&Dry run a request…"), this)), m_message(new QLabel(this)), m_footer(new QLabel(this)),
      m_routes(new KeyRoutesPanel(this))
{
    setObjectName(QStringLiteral("keysView"));
    setUpListTable(m_table, m_model, QStringLiteral("keysTable"), tr("API keys"));
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setColumnWidth(KeysModel::Name, 160);
    m_table->setColumnWidth(KeysModel::Prefix, 160);
    m_table->setColumnWidth(KeysModel::Created, 150);
    m_table->setColumnWidth(KeysModel::State, 80);
    m_table->setColumnWidth(KeysModel::SpentToday, 100);

    m_new->setObjectName(QStringLiteral("newKey"));
    m_new->setAccessibleName(tr("New key"));
    m_routing->setObjectName(QStringLiteral("keyRouting"));
    m_routing->setAccessibleName(tr("The selected key's routing"));
    m_revoke->setObjectName(QStringLiteral("revokeKey"));
    m_revoke->setAccessibleName(tr("Revoke the selected key"));
    m_dryRun->setObjectName(QStringLiteral("dryRunKey"));
    m_dryRun->setAccessibleName(tr("Dry run a request with the selected key"));
    m_message->setObjectName(QStringLiteral("keysMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_footer->setObjectName(QStringLiteral("keysFooter"));
    m_footer->setWordWrap(true);
    m_footer->setText(tr("Tools present a key as Authorization: Bearer or x-api-key. Aile keeps only a hash of each key: "
                         "a key is shown once, when it is made. Its routing binds every request made with it."));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_new);
    buttons->addWidget(m_routing);
    buttons->addWidget(m_revoke);
    buttons->addWidget(m_dryRun);
    buttons->addWidget(m_message, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("keysSplit"));
    split->setChildrenCollapsible(false);
    split->addWidget(m_table);
    split->addWidget(m_routes);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    layout->addWidget(m_footer);

    connect(m_new, &QPushButton::clicked, this, &KeysView::newKey);
    connect(m_routing, &QPushButton::clicked, this, &KeysView::editRouting);
    connect(m_revoke, &QPushButton::clicked, this, &KeysView::revokeSelected);
    connect(m_dryRun, &QPushButton::clicked, this, &KeysView::dryRun);
    connect(m_table, &QTableView::doubleClicked, this, &KeysView::editRouting);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &KeysView::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &KeysView::updateButtons);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &KeysView::showSelectedRoutes);
    connect(m_model, &QAbstractItemModel::modelReset, this, &KeysView::showSelectedRoutes);
    connect(m_routes, &KeyRoutesPanel::routesChanged, this, [this](const QString &message) {
        showMessage(message);
        refresh();
        Q_EMIT keysChanged();
    });
    connect(m_routes, &KeyRoutesPanel::failed, this, &KeysView::showMessage);
    updateButtons();
}

void KeysView::showSelectedRoutes()
{
    const int row = m_model->rowOf(selectedKeyId());
    m_routes->setKey(row >= 0 ? m_model->key(row) : Api::KeyInfo());
}

void KeysView::setClient(ManagementClient *client)
{
    m_client = client;
    m_routes->setClient(client);
    updateButtons();
}

void KeysView::setSharers(const QList<Api::SharerStatus> &sharers)
{
    m_sharers = sharers;
    m_routes->setSharers(sharers);
}

QString KeysView::message() const
{
    return m_message->text();
}

void KeysView::showMessage(const QString &text)
{
    m_message->setText(text);
}

QString KeysView::selectedKeyId() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(KeysModel::KeyIdRole).toString();
}

void KeysView::selectKey(const QString &keyId)
{
    const int row = m_model->rowOf(keyId);
    if (row >= 0)
        m_table->selectRow(row);
}

void KeysView::updateButtons()
{
    const QString id = selectedKeyId();
    const int row = m_model->rowOf(id);
    const bool revoked = row >= 0 && m_model->key(row).revoked;
    m_new->setEnabled(m_client);
    m_routing->setEnabled(m_client && row >= 0 && !revoked);
    m_revoke->setEnabled(m_client && row >= 0 && !revoked);
    m_dryRun->setEnabled(m_client && row >= 0 && !revoked);
}

void KeysView::refresh()
{
    if (!m_client)
        return;
    m_client->keys(this, [this](const Reply<QList<Api::KeyInfo>> &reply) {
        if (!reply.ok()) {
            showMessage(reply.error);
            return;
        }
        const QString selected = selectedKeyId();
        m_model->setKeys(reply.value);
        if (!selected.isEmpty())
            selectKey(selected);
        else if (m_model->rowCount() > 0)
            m_table->selectRow(0);
        updateButtons();
        Q_EMIT listed();
    });
}

NewKeyDialog *KeysView::newKey()
{
    if (!m_client)
        return nullptr;
    auto *dialog = new NewKeyDialog(m_client, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &NewKeyDialog::created, this, [this](const QString &id, const QString &name) {
        showMessage(tr("Key %1 created.").arg(name));
        m_client->keys(this, [this, id](const Reply<QList<Api::KeyInfo>> &reply) {
            if (!reply.ok())
                return;
            m_model->setKeys(reply.value);
            selectKey(id);
            updateButtons();
            Q_EMIT listed();
        });
        Q_EMIT keysChanged();
    });
    dialog->open();
    return dialog;
}

KeyRoutingDialog *KeysView::editRouting()
{
    const QString id = selectedKeyId();
    if (!m_client || id.isEmpty())
        return nullptr;
    if (m_routingDialog)
        m_routingDialog->close();
    auto *dialog = new KeyRoutingDialog(m_client, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setSharers(m_sharers);
    dialog->load(id);
    connect(dialog, &KeyRoutingDialog::saved, this, [this](const QString &, const QString &name) {
        showMessage(tr("Routing of %1 saved.").arg(name));
        refresh();
        Q_EMIT keysChanged();
    });
    m_routingDialog = dialog;
    dialog->open();
    return dialog;
}

DryRunDialog *KeysView::dryRun()
{
    const QString id = selectedKeyId();
    const int row = m_model->rowOf(id);
    if (!m_client || row < 0)
        return nullptr;
    auto *dialog = new DryRunDialog(m_client, id, m_model->key(row).name, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

void KeysView::revokeSelected()
{
    const QString id = selectedKeyId();
    const int row = m_model->rowOf(id);
    if (!m_client || row < 0)
        return;
    const QString name = m_model->key(row).name;
    Confirm::ask(this, tr("Revoke key %1?").arg(name),
                 tr("Tools that use key %1 (%2) are refused from now on. A revoked key cannot be used again; "
                    "make a new key for them.")
                     .arg(name, m_model->key(row).prefix),
                 tr("Revoke"), {QStringLiteral("revokeConfirm"), QStringLiteral("confirmRevoke"), QStringLiteral("cancelRevoke")}, [this, id, name] {
                     m_client->revokeKey(id, this, [this, name](const Reply<QJsonObject> &reply) {
                         if (!reply.ok()) {
                             showMessage(reply.error);
                             return;
                         }
                         showMessage(tr("Key %1 revoked.").arg(name));
                         refresh();
                         Q_EMIT keysChanged();
                     });
                 });
}

} // namespace Aile::Ui
