#include "SharerDialog.h"

#include "core/EngineHost.h"

#include <QtCore/QJsonArray>
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

template<typename W>
W *named(W *w, const char *objectName, const QString &accessible)
{
    w->setObjectName(QLatin1String(objectName));
    w->setAccessibleName(accessible);
    return w;
}

} // namespace

SharerDialog::SharerDialog(EngineHost *host, const QStringList &providers, const QJsonObject &sharer, QWidget *parent)
    : QDialog(parent),
      m_host(host),
      m_handle(sharer.value(QLatin1String("handle")).toString()),
      m_name(named(new QLineEdit(this), "sharerName", tr("Name"))),
      m_provider(named(new QComboBox(this), "sharerProvider", tr("Provider"))),
      m_baseUrl(named(new QLineEdit(this), "sharerBaseUrl", tr("Base URL"))),
      m_kind(named(new QComboBox(this), "sharerKind", tr("Kind"))),
      m_priceMode(named(new QComboBox(this), "sharerPriceMode", tr("Price"))),
      m_percent(named(new QDoubleSpinBox(this), "sharerPercent", tr("Percent of list price"))),
      m_quotes(named(new QTableWidget(0, 3, this), "sharerQuotes", tr("Per-model quotes"))),
      m_quoteButtons(new QWidget(this)),
      m_models(named(new QLineEdit(this), "sharerModels", tr("Models offered"))),
      m_slots(named(new QSpinBox(this), "sharerSlots", tr("Concurrency slots"))),
      m_secret(named(new QLineEdit(this), "sharerSecret", tr("Credential"))),
      m_fileSecret(named(new QCheckBox(tr("Keep it in the plain-text secrets file (mode 0600) instead of the keychain"), this),
                         "sharerFileSecret", tr("Keep the credential in the plain-text secrets file"))),
      m_error(named(new QLabel(this), "sharerError", tr("Error"))),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("sharerDialog"));
    setWindowTitle(m_handle.isEmpty() ? tr("Add sharer") : tr("Edit sharer %1").arg(m_handle));

    m_provider->setEditable(true);   // user-defined providers are added by name
    m_provider->addItems(providers);
    m_baseUrl->setPlaceholderText(tr("provider default"));
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
    auto *addQuote = named(new QPushButton(tr("Add &quote"), m_quoteButtons), "sharerAddQuote", tr("Add quote"));
    auto *removeQuote = named(new QPushButton(tr("Remove q&uote"), m_quoteButtons), "sharerRemoveQuote", tr("Remove quote"));
    auto *quoteLayout = new QHBoxLayout(m_quoteButtons);
    quoteLayout->setContentsMargins(0, 0, 0, 0);
    quoteLayout->addWidget(addQuote);
    quoteLayout->addWidget(removeQuote);
    quoteLayout->addStretch(1);
    m_models->setPlaceholderText(tr("comma-separated; empty: the whole catalogue"));
    m_slots->setRange(0, 1000);
    m_slots->setSpecialValueText(tr("unbounded"));
    m_secret->setEchoMode(QLineEdit::Password);
    m_secret->setPlaceholderText(m_handle.isEmpty() ? tr("API key or token") : tr("unchanged (use Re-link to replace it)"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    m_buttons->button(QDialogButtonBox::Ok)->setAccessibleName(tr("Save sharer"));
    m_buttons->button(QDialogButtonBox::Cancel)->setAccessibleName(tr("Cancel"));
    m_buttons->setObjectName(QStringLiteral("sharerButtons"));

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Provider:"), m_provider);
    form->addRow(tr("&Base URL:"), m_baseUrl);
    form->addRow(tr("&Kind:"), m_kind);
    form->addRow(tr("P&rice:"), m_priceMode);
    form->addRow(tr("Percen&t of list:"), m_percent);
    form->addRow(tr("Quotes:"), m_quotes);
    form->addRow(QString(), m_quoteButtons);
    form->addRow(tr("&Models offered:"), m_models);
    form->addRow(tr("&Slots:"), m_slots);
    form->addRow(tr("&Credential:"), m_secret);
    form->addRow(QString(), m_fileSecret);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    // Editing starts from what the engine holds.
    if (!sharer.isEmpty()) {
        m_name->setText(sharer.value(QLatin1String("name")).toString());
        m_provider->setCurrentText(sharer.value(QLatin1String("provider")).toString());
        m_baseUrl->setText(sharer.value(QLatin1String("baseUrl")).toString());
        m_kind->setCurrentIndex(qMax(0, m_kind->findData(sharer.value(QLatin1String("kind")).toString(QStringLiteral("api-key")))));
        const QJsonObject price = sharer.value(QLatin1String("price")).toObject();
        if (price.contains(QLatin1String("models"))) {
            m_priceMode->setCurrentIndex(Quotes);
            const QJsonObject models = price.value(QLatin1String("models")).toObject();
            for (auto it = models.begin(); it != models.end(); ++it)
                addQuoteRow(it.key(), it.value().toObject().value(QLatin1String("input")).toDouble(),
                            it.value().toObject().value(QLatin1String("output")).toDouble());
        } else if (price.contains(QLatin1String("percentOfList")) && price.value(QLatin1String("percentOfList")).toDouble() != 100) {
            m_priceMode->setCurrentIndex(Percent);
            m_percent->setValue(price.value(QLatin1String("percentOfList")).toDouble());
        }
        QStringList models;
        for (const QJsonValue &v : sharer.value(QLatin1String("models")).toArray())
            models << v.toString();
        m_models->setText(models.join(QStringLiteral(", ")));
        m_slots->setValue(sharer.value(QLatin1String("slots")).toInt());
        m_fileSecret->setChecked(sharer.value(QLatin1String("credential")).toString().startsWith(QLatin1String("file:")));
    }

    connect(m_priceMode, &QComboBox::currentIndexChanged, this, &SharerDialog::updatePriceMode);
    connect(addQuote, &QPushButton::clicked, this, [this] { addQuoteRow(); });
    connect(removeQuote, &QPushButton::clicked, this, [this] {
        if (m_quotes->currentRow() >= 0)
            m_quotes->removeRow(m_quotes->currentRow());
    });
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SharerDialog::submit);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SharerDialog::reject);
    connect(m_host, &EngineHost::managementReplied, this, &SharerDialog::handleReply);
    updatePriceMode();
}

void SharerDialog::addQuoteRow(const QString &model, double input, double output)
{
    const int row = m_quotes->rowCount();
    m_quotes->insertRow(row);
    m_quotes->setItem(row, 0, new QTableWidgetItem(model));
    m_quotes->setItem(row, 1, new QTableWidgetItem(QString::number(input)));
    m_quotes->setItem(row, 2, new QTableWidgetItem(QString::number(output)));
}

void SharerDialog::updatePriceMode()
{
    const int mode = m_priceMode->currentData().toInt();
    m_percent->setEnabled(mode == Percent);
    m_quotes->setEnabled(mode == Quotes);
    m_quoteButtons->setEnabled(mode == Quotes);
}

QJsonObject SharerDialog::body() const
{
    QJsonObject o{{QStringLiteral("name"), m_name->text().trimmed()},
                  {QStringLiteral("provider"), m_provider->currentText().trimmed()},
                  {QStringLiteral("baseUrl"), m_baseUrl->text().trimmed()},
                  {QStringLiteral("kind"), m_kind->currentData().toString()},
                  {QStringLiteral("slots"), m_slots->value()}};
    switch (m_priceMode->currentData().toInt()) {
    case List: o.insert(QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 100}}); break;
    case Percent: o.insert(QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), m_percent->value()}}); break;
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
        QJsonObject models;
        for (int row = 0; row < m_quotes->rowCount(); ++row) {
            const QString model = m_quotes->item(row, 0) ? m_quotes->item(row, 0)->text().trimmed() : QString();
            if (!model.isEmpty())
                models.insert(model, QJsonObject{{QStringLiteral("input"), number(row, 1)}, {QStringLiteral("output"), number(row, 2)}});
        }
        o.insert(QStringLiteral("price"), QJsonObject{{QStringLiteral("models"), models}});
        break;
    }
    }
    QJsonArray models;
    for (const QString &m : m_models->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!m.trimmed().isEmpty())
            models.append(m.trimmed());
    o.insert(QStringLiteral("models"), models);
    if (!m_secret->text().isEmpty()) {
        o.insert(QStringLiteral("secret"), m_secret->text());
        if (m_fileSecret->isChecked())
            o.insert(QStringLiteral("credential"), QStringLiteral("file:"));
    }
    return o;
}

QString SharerDialog::error() const
{
    return m_error->isVisible() ? m_error->text() : QString();
}

void SharerDialog::submit()
{
    // No local rules: the engine's answer is the validation, word for word.
    if (m_call != 0)
        return;
    m_error->hide();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    const QByteArray payload = QJsonDocument(body()).toJson(QJsonDocument::Compact);
    m_call = m_handle.isEmpty() ? m_host->manage(QStringLiteral("POST"), QStringLiteral("/sharers"), payload)
                                : m_host->manage(QStringLiteral("PUT"), QStringLiteral("/sharers/") + m_handle, payload);
}

void SharerDialog::handleReply(quint64 id, int status, const QByteArray &body)
{
    if (id != m_call || m_call == 0)
        return;
    m_call = 0;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (status == 200) {
        Q_EMIT saved(o.value(QLatin1String("handle")).toString(), o.value(QLatin1String("name")).toString());
        QDialog::done(Accepted);
        return;
    }
    const QString message = o.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
    m_error->setText(message.isEmpty() ? tr("The engine answered HTTP %1").arg(status) : message);
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
