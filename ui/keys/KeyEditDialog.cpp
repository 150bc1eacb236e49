#include "KeyEditDialog.h"

#include "common/ManagementClient.h"

#include <QtCore/QJsonDocument>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

KeyEditDialog::KeyEditDialog(ManagementClient *client, const QString &objectName, const QString &saveAccessibleName,
                             const QString &errorAccessibleName, QWidget *parent)
    : QDialog(parent), m_client(client), m_title(new QLabel(this)), m_error(new QLabel(this)), m_save(new QPushButton(tr("&Save"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this))
{
    const QString capitalised = objectName.left(1).toUpper() + objectName.mid(1);
    m_title->setObjectName(QString(objectName + QStringLiteral("Title")));
    m_title->setWordWrap(true);
    m_error->setObjectName(QString(objectName + QStringLiteral("Error")));
    m_error->setAccessibleName(errorAccessibleName);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold;"));
    m_error->hide();
    m_save->setObjectName(QString(QStringLiteral("save") + capitalised));
    m_save->setAccessibleName(saveAccessibleName);
    m_save->setDefault(true);
    m_save->setEnabled(false);
    m_cancel->setObjectName(QString(QStringLiteral("cancel") + capitalised));
    m_cancel->setAccessibleName(tr("Cancel"));
    connect(m_save, &QPushButton::clicked, this, [this] { save(); });
    connect(m_cancel, &QPushButton::clicked, this, &QDialog::reject);
}

void KeyEditDialog::setFields(QLayout *fields)
{
    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_save, QDialogButtonBox::AcceptRole);
    buttons->addButton(m_cancel, QDialogButtonBox::RejectRole);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(fields, 1);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

QString KeyEditDialog::errorText() const
{
    return m_error->text();
}

void KeyEditDialog::showError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

void KeyEditDialog::readKey(const QString &keyId, std::function<void(const Api::KeyInfo &key)> fill)
{
    m_keyId = keyId;
    m_save->setEnabled(false);
    m_title->setText(tr("Reading the key…"));
    m_client->key(keyId, this, [this, fill = std::move(fill)](const Reply<Api::KeyInfo> &reply) {
        if (!reply.ok()) {
            showError(reply.error);
            return;
        }
        m_keyName = reply.value.name;
        fill(reply.value);
        m_save->setEnabled(true);
        Q_EMIT loaded();
    });
}

void KeyEditDialog::putKey(const Api::KeyChanges &changes, std::function<void(const Api::KeyInfo &key)> done)
{
    if (m_keyId.isEmpty())
        return;
    m_save->setEnabled(false);
    showError(QString());
    m_client->updateKey(m_keyId, changes.toJson(), this, [this, done = std::move(done)](const Reply<Api::KeyInfo> &reply) {
        m_save->setEnabled(true);
        if (!reply.ok()) {
            showError(reply.error);
            Q_EMIT saveFailed(reply.error);
            return;
        }
        done(reply.value);
        accept();
    });
}

} // namespace Aile::Ui
