#include "SharersView.h"

#include "QuotaBarDelegate.h"
#include "SharerOrderModel.h"
#include "host/Engine.h"
#include "secrets/SecretStore.h"

#include <QtCore/QDir>
#include <QtCore/QJsonDocument>
#include <QtCore/QUrlQuery>
#include <QtCore/QStringListModel>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QCompleter>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

namespace {

QPushButton *button(const QString &text, const QString &name, const QString &accessible, QWidget *parent)
{
    auto *b = new QPushButton(text, parent);
    b->setObjectName(name);
    b->setAccessibleName(accessible);
    return b;
}

/// ~/… for a path in the home folder: shorter, and the same on every machine.
QString homeRelative(const QString &path)
{
    const QString home = QDir::homePath() + QLatin1Char('/');
    return QDir::toNativeSeparators(path.startsWith(home) ? QStringLiteral("~/") + path.mid(home.size()) : path);
}

} // namespace

SharersView::SharersView(QWidget *parent)
    : QWidget(parent), m_model(new SharerOrderModel(this)), m_table(new QTableView(this)), m_keychainBanner(new QLabel(this)),
      m_modelEdit(new QLineEdit(this)), m_modelCompleter(new QCompleter(this)), m_providerFilter(new QComboBox(this)),
      m_maxPrice(new QLineEdit(this)), m_minPrice(new QLineEdit(this)), m_verified(new QCheckBox(tr("&Verified only"), this)),
      m_add(button(tr("&Add sharer…"), QStringLiteral("addSharerButton"), tr("Add sharer"), this)),
      m_edit(button(tr("&Edit…"), QStringLiteral("editSharerButton"), tr("Edit sharer"), this)),
      m_remove(button(tr("&Remove"), QStringLiteral("removeSharerButton"), tr("Remove sharer"), this)),
      m_relink(button(tr("Re-&link…"), QStringLiteral("relinkSharerButton"), tr("Re-link sharer"), this)),
      m_test(button(tr("&Test model…"), QStringLiteral("testModelButton"), tr("Test model"), this)),
      m_probe(button(tr("&Probe"), QStringLiteral("probeSharerButton"), tr("Probe sharer"), this)), m_message(new QLabel(this)),
      m_footer(new QLabel(this))
{
    setObjectName(QStringLiteral("sharersView"));

    // The filters are the request headers' names as query parameters, so the page reads as a request would.
    m_modelEdit->setObjectName(QStringLiteral("sharersModelFilter"));
    m_modelEdit->setPlaceholderText(tr("provider/model, e.g. openai/gpt-5.2"));
    m_modelEdit->setAccessibleName(tr("Model"));
    m_modelEdit->setToolTip(tr("Name a model to see the order its requests route in"));
    m_modelEdit->setClearButtonEnabled(true);
    m_modelCompleter->setModel(new QStringListModel(m_modelCompleter));
    m_modelCompleter->setCaseSensitivity(Qt::CaseInsensitive);
    m_modelCompleter->setFilterMode(Qt::MatchContains);
    m_modelEdit->setCompleter(m_modelCompleter);
    m_providerFilter->setObjectName(QStringLiteral("sharersProviderFilter"));
    m_providerFilter->setAccessibleName(tr("Provider"));
    m_providerFilter->setToolTip(tr("Only the sharers of one provider"));
    m_providerFilter->addItem(tr("Any provider"), QString());
    m_maxPrice->setObjectName(QStringLiteral("sharersMaxPrice"));
    m_maxPrice->setAccessibleName(tr("Maximum price"));
    m_maxPrice->setToolTip(tr("As the x-aile-max-price request header"));
    m_minPrice->setObjectName(QStringLiteral("sharersMinPrice"));
    m_minPrice->setAccessibleName(tr("Minimum price"));
    m_minPrice->setToolTip(tr("As the x-aile-min-price request header"));
    m_verified->setObjectName(QStringLiteral("sharersVerifiedOnly"));
    m_verified->setAccessibleName(tr("Verified only"));
    m_verified->setToolTip(tr("As the x-aile-verified request header"));

    auto *filters = new QHBoxLayout;
    auto *modelLabel = new QLabel(tr("&Model:"), this);
    modelLabel->setBuddy(m_modelEdit);
    auto *providerLabel = new QLabel(tr("Pro&vider:"), this);
    providerLabel->setBuddy(m_providerFilter);
    auto *maxLabel = new QLabel(tr("Ma&x price:"), this);
    maxLabel->setBuddy(m_maxPrice);
    auto *minLabel = new QLabel(tr("Mi&n price:"), this);
    minLabel->setBuddy(m_minPrice);
    filters->addWidget(modelLabel);
    filters->addWidget(m_modelEdit, 2);
    filters->addWidget(providerLabel);
    filters->addWidget(m_providerFilter, 1);
    filters->addWidget(maxLabel);
    filters->addWidget(m_maxPrice, 1);
    filters->addWidget(minLabel);
    filters->addWidget(m_minPrice, 1);
    filters->addWidget(m_verified);

    auto *buttons = new QHBoxLayout;
    for (QPushButton *b : {m_add, m_edit, m_remove, m_relink, m_test, m_probe})
        buttons->addWidget(b);
    buttons->addStretch(1);

    m_table->setObjectName(QStringLiteral("sharersTable"));
    m_table->setModel(m_model);
    m_table->setItemDelegateForColumn(SharerOrderModel::Quota, new QuotaBarDelegate(m_table)); // windows as bars
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setObjectName(QStringLiteral("sharersHeader"));
    m_table->horizontalHeader()->setSectionsClickable(true);
    m_table->setTabKeyNavigation(false);
    m_table->setAccessibleName(tr("Sharers"));
    m_table->setAccessibleDescription(tr("The upstream accounts the proxy can dial, in the order requests route to them"));

    // Said plainly, above everything, when no keychain answers (the engine probes at start).
    m_keychainBanner->setObjectName(QStringLiteral("sharersKeychainBanner"));
    m_keychainBanner->setAccessibleName(tr("Keychain"));
    m_keychainBanner->setWordWrap(true);
    m_keychainBanner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_keychainBanner->setFrameShape(QFrame::StyledPanel);
    m_keychainBanner->setMargin(6);
    m_keychainBanner->setBackgroundRole(QPalette::ToolTipBase);
    m_keychainBanner->setForegroundRole(QPalette::ToolTipText);
    m_keychainBanner->setAutoFillBackground(true);
    m_keychainBanner->hide();

    m_message->setObjectName(QStringLiteral("sharersMessage"));
    m_message->setWordWrap(true);
    m_message->setAccessibleName(tr("Last sharer action"));
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_footer->setObjectName(QStringLiteral("sharersFooter"));
    m_footer->setWordWrap(true);
    m_footer->setAccessibleName(tr("Sharers listing order"));

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_keychainBanner);
    layout->addLayout(filters);
    layout->addLayout(buttons);
    layout->addWidget(m_message);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_footer);

    connect(m_modelEdit, &QLineEdit::editingFinished, this, &SharersView::refresh);
    connect(m_maxPrice, &QLineEdit::editingFinished, this, &SharersView::refresh);
    connect(m_minPrice, &QLineEdit::editingFinished, this, &SharersView::refresh);
    connect(m_verified, &QCheckBox::toggled, this, &SharersView::refresh);
    connect(m_providerFilter, &QComboBox::activated, this, &SharersView::refresh);
    connect(m_table->horizontalHeader(), &QHeaderView::sectionClicked, this, &SharersView::handleHeaderClick);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SharersView::updateButtons);
    connect(m_add, &QPushButton::clicked, this, &SharersView::addSharer);
    connect(m_edit, &QPushButton::clicked, this, &SharersView::editSharer);
    connect(m_remove, &QPushButton::clicked, this, &SharersView::removeSharer);
    connect(m_relink, &QPushButton::clicked, this, &SharersView::relinkSharer);
    connect(m_test, &QPushButton::clicked, this, &SharersView::testModel);
    connect(m_probe, &QPushButton::clicked, this, &SharersView::probeSharer);
    m_message->hide();
    updateButtons();
}

void SharersView::setClient(ManagementClient *client)
{
    m_client = client;
    updateButtons();
}

void SharersView::setStatus(const Api::EngineStatus &status)
{
    m_configured = status.sharers;
    m_providers = status.providers;
    m_statusSeen = true;
    m_storage = SecretStorage{status.keychainProbed, status.keychainAvailable, status.keychainError, status.keychainErrorKind, status.secretsFile};
    m_model->setConfigured(m_configured);
    updateCompletion();

    QString banner;
    if (m_storage.probed && !m_storage.keychain) {
        // The secret store's own words when it is something else than "none answers" (locked, timed out).
        const bool none = m_storage.keychainErrorKind == Secrets::SecretError::NoKeychain;
        banner = none ? tr("No keychain answers on this system.") : tr("The keychain did not answer: %1.").arg(m_storage.keychainError);
        banner += QLatin1Char(' ');
        if (m_storage.file.isEmpty())
            banner += tr("Credentials typed here cannot be stored, and nothing is written in plain text. Start a keychain "
                         "(GNOME Keyring, KeePassXC, KWallet), name an environment variable as the credential (env:NAME), "
                         "or opt in to a plain-text secrets file by starting Aile with --secrets-file FILE.");
        else
            banner += tr("You opted in to the plain-text secrets file %1 (mode 0600, readable only by you): credentials "
                         "typed here go there, and the list marks them “stored in a file”.")
                          .arg(homeRelative(m_storage.file));
    }
    m_keychainBanner->setToolTip(m_storage.keychainError);
    m_keychainBanner->setText(banner);
    m_keychainBanner->setVisible(!banner.isEmpty());
    updateButtons();
    refresh();
}

void SharersView::updateCompletion()
{
    // The models the sharers offer, as provider/model, and the providers for the filter.
    QStringList models;
    QStringList providers;
    for (const Api::SharerStatus &s : m_configured) {
        const QString provider = s.config.provider;
        if (!providers.contains(provider))
            providers << provider;
        for (const QString &m : s.config.models)
            models << provider + QLatin1Char('/') + m;
    }
    models.removeDuplicates();
    models.sort();
    static_cast<QStringListModel *>(m_modelCompleter->model())->setStringList(models);
    for (const Api::ProviderStatus &p : m_providers)
        if (!providers.contains(p.id))
            providers << p.id;
    for (const QString &p : providers)
        if (m_providerFilter->findData(p) < 0)
            m_providerFilter->addItem(p, p);
}

QString SharersView::keychainBanner() const
{
    return m_keychainBanner->isHidden() ? QString() : m_keychainBanner->text();
}

QString SharersView::footer() const
{
    return m_footer->text();
}

SharerQuery SharersView::listingQuery() const
{
    SharerQuery query;
    query.model = m_modelEdit->text().trimmed();
    query.maxPrice = m_maxPrice->text().trimmed();
    query.minPrice = m_minPrice->text().trimmed();
    query.provider = m_providerFilter->currentData().toString();
    query.verified = m_verified->isChecked();
    query.sort = m_sort;
    return query;
}

void SharersView::refresh()
{
    if (!m_client)
        return;
    // Only the newest listing is shown: an older answer arriving late is dropped.
    const quint64 listing = ++m_listing;
    m_client->sharers(listingQuery(), this, [this, listing](const Reply<Api::SharerListing> &reply) {
        if (listing == m_listing)
            handleListing(reply);
    });
}

void SharersView::handleListing(const Reply<Api::SharerListing> &reply)
{
    const QString selected = selectedHandle();
    if (!reply.ok()) {
        m_model->setRows({});
        m_footer->setText(tr("The engine did not list the sharers: %1").arg(reply.error));
        updateButtons();
        Q_EMIT listed();
        return;
    }
    m_model->setRows(reply.value.rows);
    const bool reading = reply.value.readingOrder;
    const QString engineFooter = reply.value.footer;
    // The engine's footer is the same text `aile sharers` prints; the GUI adds only what a click did.
    m_footer->setText(reading ? tr("%1. Click the Rank column for the routing order.").arg(engineFooter) : engineFooter);
    m_table->horizontalHeader()->setSortIndicatorShown(reading);
    m_table->resizeColumnsToContents();
    if (!selected.isEmpty())
        selectHandle(selected);
    updateButtons();
    Q_EMIT listed();
}

void SharersView::handleHeaderClick(int column)
{
    // The engine sorts (price, name, speed) so the reading order is the one `--sort` gives; a
    // column without such a key brings the routing order back.
    m_sort = SharerOrderModel::sortKey(column);
    if (!m_sort.isEmpty())
        m_table->horizontalHeader()->setSortIndicator(column, Qt::AscendingOrder);
    refresh();
}

QString SharersView::selectedHandle() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return {};
    return m_model->row(rows.first().row()).handle;
}

void SharersView::selectHandle(const QString &handle)
{
    const int row = m_model->rowOf(handle);
    if (row >= 0)
        m_table->selectRow(row);
}

void SharersView::showMessage(const QString &text)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
}

void SharersView::updateButtons()
{
    const bool engine = m_client != nullptr;
    const bool one = engine && !selectedHandle().isEmpty();
    // A new sharer's dialog lists the engine's providers and where its secret can go: both come
    // with the engine's status, so the button waits for the first one.
    m_add->setEnabled(engine && m_statusSeen);
    for (QPushButton *b : {m_edit, m_remove, m_relink, m_test, m_probe})
        b->setEnabled(one);
}

void SharersView::addSharer()
{
    auto *dialog = new SharerDialog(m_client, m_providers, m_storage, {}, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SharerDialog::saved, this, [this](const QString &handle, const QString &name) {
        showMessage(tr("Added %1 (%2).").arg(name, handle));
        refresh();
    });
    dialog->open();
}

void SharersView::editSharer()
{
    const QString handle = selectedHandle();
    const Api::SharerStatus *configured = m_model->configured(handle);
    const Api::SharerEdit sharer = configured ? configured->config : Api::SharerEdit::fromJson(m_model->row(m_model->rowOf(handle)).toJson());
    auto *dialog = new SharerDialog(m_client, m_providers, m_storage, sharer, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SharerDialog::saved, this, [this](const QString &handle, const QString &name) {
        showMessage(tr("Saved %1 (%2).").arg(name, handle));
        refresh();
    });
    dialog->open();
}

void SharersView::removeSharer()
{
    const QString handle = selectedHandle();
    auto *box = new QMessageBox(QMessageBox::Question, tr("Remove sharer"),
                                tr("Remove the sharer %1? The credential the app stored for it is removed too.").arg(handle),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("removeSharerConfirm"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::accepted, this, [this, handle] {
        m_client->removeSharer(handle, this, [this, handle](const Reply<QJsonObject> &reply) {
            showMessage(reply.ok() ? tr("Removed %1.").arg(handle) : tr("Not removed: %1").arg(reply.error));
            refresh();
        });
    });
    box->open();
}

void SharersView::relinkSharer()
{
    const QString handle = selectedHandle();
    auto *dialog = new QInputDialog(this);
    dialog->setObjectName(QStringLiteral("relinkDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Re-link sharer"));
    // The new secret goes where the old one was: the opted-in file stays the file.
    const Api::SharerStatus *configured = m_model->configured(handle);
    const bool toFile = (configured && configured->config.credential.startsWith(QLatin1String("file:")))
                        || (m_storage.probed && !m_storage.keychain && !m_storage.file.isEmpty());
    dialog->setLabelText(toFile ? tr("A new credential for %1 (stored in the plain-text secrets file), or env:VARIABLE:").arg(handle)
                                : tr("A new credential for %1 (stored in the keychain), or env:VARIABLE:").arg(handle));
    dialog->setTextEchoMode(QLineEdit::Password);
    dialog->setAccessibleName(tr("Re-link sharer"));
    connect(dialog, &QInputDialog::textValueSelected, this, [this, handle, toFile](const QString &typed) {
        const QString secret = typed.trimmed();
        if (secret.isEmpty())
            return;
        QJsonObject body;
        if (secret.startsWith(QLatin1String("env:")))
            body.insert(QStringLiteral("credential"), secret);
        else
            body.insert(QStringLiteral("secret"), secret);
        if (toFile && !secret.startsWith(QLatin1String("env:")))
            body.insert(QStringLiteral("credential"), QStringLiteral("file:"));
        m_client->relinkSharer(handle, body, this, [this, handle](const Reply<QJsonObject> &reply) {
            showMessage(reply.ok() ? tr("Re-linked %1.").arg(handle) : tr("Not re-linked: %1").arg(reply.error));
            refresh();
        });
    });
    dialog->open();
}

void SharersView::testModel()
{
    const QString handle = selectedHandle();
    auto *dialog = new QInputDialog(this);
    dialog->setObjectName(QStringLiteral("testModelDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Test model"));
    dialog->setLabelText(tr("Model to test on %1:").arg(handle));
    dialog->setAccessibleName(tr("Test model"));
    // The models the sharer offers; the listing's model (without its provider) first, as the
    // sharer's upstream is asked for it.
    const QString listed = m_modelEdit->text().trimmed();
    QStringList models;
    if (!listed.isEmpty())
        models << listed.mid(listed.indexOf(QLatin1Char('/')) + 1);
    if (const Api::SharerStatus *configured = m_model->configured(handle))
        for (const QString &m : configured->config.models)
            if (!models.contains(m))
                models << m;
    dialog->setComboBoxItems(models);
    dialog->setComboBoxEditable(true);
    if (!models.isEmpty())
        dialog->setTextValue(models.first());
    connect(dialog, &QInputDialog::textValueSelected, this, [this, handle](const QString &model) {
        showMessage(tr("Testing %1 on %2…").arg(model, handle));
        m_client->testSharer(handle, model, this, [this, handle, model](const Reply<Api::SharerCheck> &reply) {
            if (!reply.ok())
                showMessage(tr("Test of %1 on %2 not run: %3").arg(model, handle, reply.error));
            else
                showMessage(reply.value.ok ? tr("Test of %1 on %2 passed: %3").arg(model, handle, reply.value.message)
                                           : tr("Test of %1 on %2 failed: %3").arg(model, handle, reply.value.message));
            refresh();
        });
    });
    dialog->open();
}

void SharersView::probeSharer()
{
    const QString handle = selectedHandle();
    showMessage(tr("Probing %1…").arg(handle));
    m_client->probeSharer(handle, this, [this, handle](const Reply<Api::SharerCheck> &reply) {
        if (!reply.ok())
            showMessage(tr("Probe of %1 not run: %2").arg(handle, reply.error));
        else
            showMessage(reply.value.ok ? tr("Probe of %1 passed: %2").arg(handle, reply.value.message)
                                       : tr("Probe of %1 failed: %2").arg(handle, reply.value.message));
        refresh();
    });
}

} // namespace Aile::Ui
