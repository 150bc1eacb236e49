#include "NewKeyDialog.h"

#include "SecretClipboard.h"
#include "common/ManagementClient.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QJsonObject>
#include <QtGui/QFontDatabase>
#include <QtGui/QGuiApplication>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

NewKeyDialog::NewKeyDialog(ManagementClient *client, QWidget *parent)
    : QDialog(parent), m_client(client), m_name(new QLineEdit(this)), m_key(new QLineEdit(this)), m_create(new QPushButton(tr("C&reate"), this)),
      m_copy(new QPushButton(tr("&Copy"), this)), m_close(new QPushButton(tr("Close"), this)), m_message(new QLabel(this)), m_once(new QLabel(this))
{
    setObjectName(QStringLiteral("newKeyDialog"));
    setWindowTitle(tr("New key"));
    setAccessibleName(tr("New key"));

    m_name->setObjectName(QStringLiteral("newKeyName"));
    m_name->setAccessibleName(tr("Key name"));
    m_name->setPlaceholderText(tr("laptop, ci, claude-code…"));
    m_name->setMaxLength(64);
    m_key->setObjectName(QStringLiteral("newKeyText"));
    m_key->setAccessibleName(tr("The new key"));
    m_key->setReadOnly(true);
    m_key->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_key->setPlaceholderText(tr("The key appears here once it is created"));
    m_create->setObjectName(QStringLiteral("createKey"));
    m_create->setAccessibleName(tr("Create the key"));
    m_create->setDefault(true);
    m_copy->setObjectName(QStringLiteral("copyNewKey"));
    m_copy->setAccessibleName(tr("Copy the key"));
    m_copy->setEnabled(false);
    m_close->setObjectName(QStringLiteral("closeNewKey"));
    m_close->setAccessibleName(tr("Close"));
    m_message->setObjectName(QStringLiteral("newKeyMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_once->setObjectName(QStringLiteral("newKeyOnce"));
    m_once->setWordWrap(true);
    m_once->setText(tr("The key is shown here once. Aile keeps only a hash of it, so copy it now: "
                       "after this dialog closes nothing can show it again (revoke it and make a new one if it is lost)."));

    auto *nameLabel = new QLabel(tr("&Name:"), this);
    nameLabel->setBuddy(m_name);
    auto *keyLabel = new QLabel(tr("&Key:"), this);
    keyLabel->setBuddy(m_key);
    auto *nameRow = new QHBoxLayout;
    nameRow->addWidget(m_name, 1);
    nameRow->addWidget(m_create);
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_key, 1);
    keyRow->addWidget(m_copy);
    auto *form = new QFormLayout;
    form->addRow(nameLabel, nameRow);
    form->addRow(keyLabel, keyRow);

    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_close, QDialogButtonBox::RejectRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_once);
    layout->addWidget(m_message);
    layout->addStretch(1);
    layout->addWidget(buttons);

    connect(m_create, &QPushButton::clicked, this, &NewKeyDialog::create);
    connect(m_name, &QLineEdit::returnPressed, this, &NewKeyDialog::create);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        // Taken off the clipboard again after a while, even if the dialog is closed by then.
        new SecretClipboard(m_key->text(), m_clipboardClearAfter, QCoreApplication::instance());
        m_message->setText(tr("Copied to the clipboard; it is cleared from there in %n seconds unless you copy something else.", nullptr,
                              int(std::chrono::duration_cast<std::chrono::seconds>(m_clipboardClearAfter).count())));
    });
    resize(560, 220);
}

NewKeyDialog::~NewKeyDialog()
{
    forget();
}

void NewKeyDialog::setKeyName(const QString &name)
{
    m_name->setText(name);
}

QString NewKeyDialog::plainKey() const
{
    return m_key->text();
}

QString NewKeyDialog::message() const
{
    return m_message->text();
}

void NewKeyDialog::create()
{
    const QString name = m_name->text().trimmed();
    if (name.isEmpty()) {
        m_message->setText(tr("Give the key a name first."));
        m_name->setFocus();
        return;
    }
    if (!m_key->text().isEmpty())
        return; // one key per dialog
    m_create->setEnabled(false);
    m_message->setText(tr("Creating…"));
    m_client->createKey(name, this, [this, name](const Reply<Api::CreatedKey> &reply) {
        const Api::KeyInfo &key = reply.value.key;
        const QString plain = reply.value.plain;
        if (!reply.ok() || plain.isEmpty()) {
            m_create->setEnabled(true);
            const QString error = reply.ok() ? ManagementClient::errorMessage(reply.status, {}) : reply.error;
            m_message->setText(error);
            Q_EMIT failed(error);
            return;
        }
        m_name->setReadOnly(true);
        m_key->setText(plain);
        m_copy->setEnabled(true);
        m_copy->setFocus();
        m_message->setText(tr("Key %1 created.").arg(name));
        Q_EMIT created(key.id, key.name.isEmpty() ? name : key.name, plain);
    });
}

void NewKeyDialog::forget()
{
    // QLineEdit keeps its text (and an undo history) in memory: overwrite rather than only clear.
    if (!m_key->text().isEmpty()) {
        m_key->setText(QString(m_key->text().size(), QLatin1Char('x')));
        m_key->clear();
    }
}

void NewKeyDialog::done(int result)
{
    forget();
    QDialog::done(result);
}

} // namespace Aile::Ui
