#include "SharerDialog.h"

#include "common/ManagementClient.h"

#include <QtCore/QDir>
#include <QtCore/QJsonDocument>
#include <QtCore/QLocale>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

namespace {

enum PriceMode { List, Percent, Quotes };

const QString CustomOpenAi = QStringLiteral("custom:openai");
const QString CustomAnthropic = QStringLiteral("custom:anthropic");

template <typename W> W *named(W *w, const char *objectName, const QString &accessible)
{
    w->setObjectName(QLatin1String(objectName));
    w->setAccessibleName(accessible);
    return w;
}

} // namespace

SharerDialog::SharerDialog(ManagementClient *client, const QList<Api::ProviderStatus> &providers, const SecretStorage &storage,
                           const Api::SharerEdit &sharer, QWidget *parent)
    : QDialog(parent), m_client(client), m_providers(providers), m_handle(sharer.handle),
      m_handleEdit(named(new QLineEdit(this), "sharerHandle", tr("Handle"))), m_name(named(new QLineEdit(this), "sharerName", tr("Name"))),
      m_provider(named(new QComboBox(this), "sharerProvider", tr("Provider"))),
      m_customId(named(new QLineEdit(this), "sharerCustomId", tr("Provider id"))),
      m_baseUrl(named(new QLineEdit(this), "sharerBaseUrl", tr("Base URL"))), m_kind(named(new QComboBox(this), "sharerKind", tr("Kind"))),
      m_priceMode(named(new QComboBox(this), "sharerPriceMode", tr("Price"))),
      m_percent(named(new QDoubleSpinBox(this), "sharerPercent", tr("Percent of list price"))),
      m_quotes(named(new QTableWidget(0, 3, this), "sharerQuotes", tr("Per-model quotes"))), m_quoteButtons(new QWidget(this)),
      m_models(named(new QLineEdit(this), "sharerModels", tr("Models offered"))),
      m_slots(named(new QSpinBox(this), "sharerSlots", tr("Concurrency slots"))),
      m_dataCollection(named(new QComboBox(this), "sharerDataCollection", tr("Data collection"))),
      m_secret(named(new QLineEdit(this), "sharerSecret", tr("Credential"))),
      m_fileSecret(named(new QCheckBox(tr("Keep it in the plain-text secrets file (mode 0600) instead of the keychain"), this), "sharerFileSecret",
                         tr("Keep the credential in the plain-text secrets file"))),
      m_secretNote(named(new QLabel(this), "sharerSecretNote", tr("Where the credential goes"))),
      m_error(named(new QLabel(this), "sharerError", tr("Error"))),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("sharerDialog"));
    setWindowTitle(m_handle.isEmpty() ? tr("Add sharer") : tr("Edit sharer %1").arg(m_handle));

    m_handleEdit->setPlaceholderText(tr("optional: L and 16 hex digits"));
    m_handleEdit->setToolTip(tr("Left empty, the engine derives one from the provider, the name and the base URL"));
    m_handleEdit->setText(m_handle);
    m_handleEdit->setReadOnly(!m_handle.isEmpty());
    m_name->setPlaceholderText(tr("e.g. work key"));
    for (const Api::ProviderStatus &p : m_providers) {
        const QString id = p.id;
        const QString name = p.name.isEmpty() ? id : p.name;
        m_provider->addItem(name == id ? id : QStringLiteral("%1 (%2)").arg(name, id), id);
    }
    m_provider->insertSeparator(m_provider->count());
    m_provider->addItem(tr("Custom, OpenAI-compatible…"), CustomOpenAi);
    m_provider->addItem(tr("Custom, Anthropic-compatible…"), CustomAnthropic);
    m_customId->setPlaceholderText(tr("a short id, e.g. myco: model names read myco/model"));
    m_kind->addItem(tr("API key"), QStringLiteral("api-key"));
    m_kind->addItem(tr("Subscription"), QStringLiteral("subscription"));
    m_priceMode->addItem(tr("List price"), List);
    m_priceMode->addItem(tr("Percent of list"), Percent);
    m_priceMode->addItem(tr("Per-model quotes"), Quotes);
    m_percent->setRange(0, 1000);
    m_percent->setDecimals(1);
    m_percent->setSuffix(QStringLiteral(" %"));
    m_percent->setValue(100);
    m_quotes->setHorizontalHeaderLabels({tr("Model"), tr("Input $/Mtok"), tr("Output $/Mtok")});
    m_quotes->horizontalHeader()->setStretchLastSection(true);
    m_quotes->verticalHeader()->hide();
    m_quotes->setTabKeyNavigation(false);
    m_quotes->setMaximumHeight(120);
    auto *addQuote = named(new QPushButton(tr("Add &quote"), m_quoteButtons), "sharerAddQuote", tr("Add quote"));
    auto *removeQuote = named(new QPushButton(tr("Remove q&uote"), m_quoteButtons), "sharerRemoveQuote", tr("Remove quote"));
    auto *quoteLayout = new QHBoxLayout(m_quoteButtons);
    quoteLayout->setContentsMargins(0, 0, 0, 0);
    quoteLayout->addWidget(addQuote);
    quoteLayout->addWidget(removeQuote);
    quoteLayout->addStretch(1);
    m_models->setPlaceholderText(tr("comma-separated; empty: the provider's whole catalogue"));
    m_slots->setRange(0, 1000);
    m_slots->setSpecialValueText(tr("unbounded"));
    // A screen reader announces a spin box's inner line edit: give it the box's name.
    for (QAbstractSpinBox *spin : {static_cast<QAbstractSpinBox *>(m_percent), static_cast<QAbstractSpinBox *>(m_slots)})
        if (auto *edit = spin->findChild<QLineEdit *>())
            edit->setAccessibleName(spin->accessibleName());
    m_dataCollection->addItem(tr("The provider's policy"), QString());
    m_dataCollection->addItem(tr("Denies training on prompts"), QStringLiteral("deny"));
    m_dataCollection->addItem(tr("Allows training on prompts"), QStringLiteral("allow"));
    m_dataCollection->addItem(tr("Unknown"), QStringLiteral("unknown"));
    m_secret->setEchoMode(QLineEdit::Password);
    m_secret->setPlaceholderText(m_handle.isEmpty() ? tr("API key or token, or env:VARIABLE") : tr("unchanged (use Re-link to replace it)"));

    // Where a typed secret will go, said before the user types it.
    m_fileSecret->setEnabled(!storage.file.isEmpty());
    if (storage.file.isEmpty())
        m_fileSecret->setToolTip(tr("Start Aile with --secrets-file FILE to opt in to a plain-text secrets file"));
    else
        m_fileSecret->setToolTip(tr("The secrets file: %1").arg(QDir::toNativeSeparators(storage.file)));
    if (storage.probed && !storage.keychain) {
        m_fileSecret->setChecked(!storage.file.isEmpty());
        m_secretNote->setText(storage.file.isEmpty() ? tr("No keychain answers on this system, so a typed credential cannot be stored and "
                                                          "nothing is written in plain text. Name an environment variable (env:NAME), start "
                                                          "a keychain, or start Aile with --secrets-file FILE.")
                                                     : tr("No keychain answers on this system: a typed credential can only go to the "
                                                          "plain-text secrets file."));
    } else {
        m_secretNote->setText(tr("A typed credential is stored in the system keychain, never in the configuration."));
    }
    m_secretNote->setWordWrap(true);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    m_buttons->button(QDialogButtonBox::Ok)->setText(m_handle.isEmpty() ? tr("&Add") : tr("&Save"));
    m_buttons->button(QDialogButtonBox::Ok)->setAccessibleName(tr("Save sharer"));
    m_buttons->button(QDialogButtonBox::Cancel)->setAccessibleName(tr("Cancel"));
    m_buttons->setObjectName(QStringLiteral("sharerButtons"));

    auto *form = new QFormLayout;
    form->setObjectName(QStringLiteral("sharerForm"));
    form->addRow(tr("&Handle:"), m_handleEdit);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Provider:"), m_provider);
    form->addRow(tr("Provider &id:"), m_customId);
    form->addRow(tr("&Base URL:"), m_baseUrl);
    form->addRow(tr("&Kind:"), m_kind);
    form->addRow(tr("P&rice:"), m_priceMode);
    form->addRow(tr("Percen&t of list:"), m_percent);
    form->addRow(tr("Quotes:"), m_quotes);
    form->addRow(QString(), m_quoteButtons);
    form->addRow(tr("&Models offered:"), m_models);
    form->addRow(tr("&Slots:"), m_slots);
    form->addRow(tr("&Data collection:"), m_dataCollection);
    form->addRow(tr("&Credential:"), m_secret);
    form->addRow(QString(), m_fileSecret);
    form->addRow(QString(), m_secretNote);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    setMinimumWidth(560);

    // Editing starts from what the engine holds.
    if (!sharer.handle.isEmpty()) {
        m_name->setText(sharer.name);
        selectProvider(sharer.provider);
        m_baseUrl->setText(sharer.baseUrl);
        m_kind->setCurrentIndex(qMax(0, m_kind->findData(sharer.kind.isEmpty() ? QStringLiteral("api-key") : sharer.kind)));
        if (sharer.quotes) {
            m_priceMode->setCurrentIndex(Quotes);
            for (auto it = sharer.quotes->begin(); it != sharer.quotes->end(); ++it)
                addQuoteRow(it.key(), it->input, it->output);
        } else if (sharer.percentOfList && *sharer.percentOfList != 100) {
            m_priceMode->setCurrentIndex(Percent);
            m_percent->setValue(*sharer.percentOfList);
        }
        m_models->setText(sharer.models.join(QStringLiteral(", ")));
        m_slots->setValue(sharer.slots);
        m_dataCollection->setCurrentIndex(qMax(0, m_dataCollection->findData(sharer.dataCollection)));
        m_fileSecret->setChecked(sharer.credential.startsWith(QLatin1String("file:")));
    }

    connect(m_priceMode, &QComboBox::currentIndexChanged, this, &SharerDialog::updatePriceMode);
    connect(m_provider, &QComboBox::currentIndexChanged, this, &SharerDialog::updateProvider);
    connect(addQuote, &QPushButton::clicked, this, [this] { addQuoteRow(); });
    connect(removeQuote, &QPushButton::clicked, this, [this] {
        if (m_quotes->currentRow() >= 0)
            m_quotes->removeRow(m_quotes->currentRow());
    });
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SharerDialog::submit);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SharerDialog::reject);
    updatePriceMode();
    updateProvider();
}

void SharerDialog::selectProvider(const QString &id)
{
    const int index = m_provider->findData(id);
    if (index >= 0)
        m_provider->setCurrentIndex(index);
}

void SharerDialog::addQuoteRow(const QString &model, double input, double output)
{
    const int row = m_quotes->rowCount();
    m_quotes->insertRow(row);
    m_quotes->setItem(row, 0, new QTableWidgetItem(model));
    m_quotes->setItem(row, 1, new QTableWidgetItem(QLocale().toString(input)));
    m_quotes->setItem(row, 2, new QTableWidgetItem(QLocale().toString(output)));
}

void SharerDialog::updatePriceMode()
{
    const int mode = m_priceMode->currentData().toInt();
    auto *form = findChild<QFormLayout *>(QStringLiteral("sharerForm"));
    form->setRowVisible(m_percent, mode == Percent);
    form->setRowVisible(m_quotes, mode == Quotes);
    form->setRowVisible(m_quoteButtons, mode == Quotes);
}

void SharerDialog::updateProvider()
{
    const QString id = m_provider->currentData().toString();
    const bool custom = id == CustomOpenAi || id == CustomAnthropic;
    findChild<QFormLayout *>(QStringLiteral("sharerForm"))->setRowVisible(m_customId, custom && m_handle.isEmpty());
    QString defaultUrl;
    for (const Api::ProviderStatus &p : m_providers)
        if (p.id == id)
            defaultUrl = p.baseUrl;
    m_baseUrl->setPlaceholderText(custom                 ? tr("required: scheme and host, e.g. http://localhost:8080")
                                  : defaultUrl.isEmpty() ? tr("required for this provider")
                                                         : tr("the provider's: %1").arg(defaultUrl));
}

QJsonObject SharerDialog::customProvider() const
{
    const QString id = m_provider->currentData().toString();
    if (id != CustomOpenAi && id != CustomAnthropic)
        return {};
    const bool anthropic = id == CustomAnthropic;
    // The engine validates the id and the URL; its message is what the dialog shows.
    return QJsonObject{{QStringLiteral("id"), m_customId->text().trimmed()},
                       {QStringLiteral("wires"), QJsonArray{anthropic ? QStringLiteral("messages") : QStringLiteral("chat")}},
                       {QStringLiteral("auth"), anthropic ? QStringLiteral("x-api-key") : QStringLiteral("bearer")},
                       {QStringLiteral("baseUrl"), m_baseUrl->text().trimmed()}};
}

Api::SharerEdit SharerDialog::body() const
{
    const QJsonObject custom = customProvider();
    Api::SharerEdit o;
    o.provider = custom.isEmpty() ? m_provider->currentData().toString() : custom.value(QLatin1String("id")).toString();
    o.name = m_name->text().trimmed();
    o.baseUrl = m_baseUrl->text().trimmed();
    o.kind = m_kind->currentData().toString();
    o.slots = m_slots->value();
    if (m_handle.isEmpty())
        o.handle = m_handleEdit->text().trimmed();
    switch (m_priceMode->currentData().toInt()) {
    case List: o.percentOfList = 100; break;
    case Percent: o.percentOfList = m_percent->value(); break;
    case Quotes: {
        // A cell that is not a number is sent as -1 so the engine's message names the model.
        auto number = [this](int row, int column) {
            const QString text = m_quotes->item(row, column) ? m_quotes->item(row, column)->text().trimmed() : QString();
            bool ok = false;
            double v = QLocale().toDouble(text, &ok);
            if (!ok)
                v = text.toDouble(&ok);
            return ok ? v : -1.0;
        };
        QMap<QString, Api::ModelQuote> quotes;
        for (int row = 0; row < m_quotes->rowCount(); ++row) {
            const QString model = m_quotes->item(row, 0) ? m_quotes->item(row, 0)->text().trimmed() : QString();
            if (!model.isEmpty())
                quotes.insert(model, Api::ModelQuote{number(row, 1), number(row, 2)});
        }
        o.quotes = quotes;
        break;
    }
    }
    for (const QString &m : m_models->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!m.trimmed().isEmpty())
            o.models << m.trimmed();
    o.dataCollection = m_dataCollection->currentData().toString();
    const QString secret = m_secret->text().trimmed();
    if (secret.startsWith(QLatin1String("env:"))) {
        o.credential = secret; // a reference, not the secret
    } else if (!secret.isEmpty()) {
        o.secret = secret;
        if (m_fileSecret->isChecked())
            o.credential = QStringLiteral("file:");
    }
    return o;
}

QString SharerDialog::error() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void SharerDialog::submit()
{
    // No local rules: the engine's answer is the validation, word for word.
    if (m_busy)
        return;
    m_error->hide();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    m_busy = true;
    const QJsonObject custom = customProvider();
    if (custom.isEmpty())
        return sendSharer();
    // The provider first, as the configuration file would declare it; then the sharer.
    m_client->importConfig(QJsonObject{{QStringLiteral("providers"), QJsonArray{custom}}}, this, [this](const Reply<QJsonObject> &reply) {
        if (!reply.ok())
            return showError(reply.error);
        sendSharer();
    });
}

void SharerDialog::sendSharer()
{
    m_client->saveSharer(m_handle, body().toJson(), this, [this](const Reply<QJsonObject> &reply) {
        if (!reply.ok())
            return showError(reply.error);
        m_busy = false;
        m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
        Q_EMIT saved(reply.value.value(QLatin1String("handle")).toString(), reply.value.value(QLatin1String("name")).toString());
        QDialog::done(Accepted);
    });
}

void SharerDialog::showError(const QString &message)
{
    m_busy = false;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
    m_error->setText(message);
    m_error->show();
}

void SharerDialog::done(int result)
{
    // Enter or the OK button submit; the dialog closes itself once the engine said yes.
    if (result == Accepted)
        return submit();
    QDialog::done(result);
}

} // namespace Aile::Ui
