#pragma once

#include "api/values/KeyInfo.h"

#include <QtCore/QJsonObject>
#include <QtWidgets/QDialog>

#include <functional>

class QLabel;
class QLayout;
class QPushButton;

namespace Aile::Ui {

class ManagementClient;

/// What the dialogs that edit a key share (its Routing, one of its routes): the key read with
/// GET /keys/{id}, a title line, Save and Cancel, and the engine's own message in red when it
/// refuses a save. Save sends PUT /keys/{id} and closes only on the engine's yes; the window judges
/// nothing the engine judges. Every call is asynchronous.
class KeyEditDialog : public QDialog
{
    Q_OBJECT
public:
    QString keyId() const { return m_keyId; }
    QString keyName() const { return m_keyName; }
    /// The engine's message of the last refused call, or empty.
    QString errorText() const;
    /// What Save does.
    virtual void save() = 0;

Q_SIGNALS:
    void loaded();
    void saveFailed(const QString &message);

protected:
    /// objectName names the parts: <objectName>Title, <objectName>Error, save<ObjectName> and
    /// cancel<ObjectName> ("routing": routingTitle, routingError, saveRouting, cancelRouting).
    KeyEditDialog(ManagementClient *client, const QString &objectName, const QString &saveAccessibleName, const QString &errorAccessibleName,
                  QWidget *parent);

    /// Lays the dialog out: the title line, the fields, the engine's message, Save and Cancel.
    void setFields(QLayout *fields);
    /// GET /keys/{id}; fill gets the key, then Save is enabled and loaded() follows.
    void readKey(const QString &keyId, std::function<void(const Api::KeyInfo &key)> fill);
    /// PUT /keys/{id} with body; on the engine's yes done gets the key as stored and the dialog
    /// closes, otherwise its message shows and saveFailed() follows.
    void putKey(const Api::KeyChanges &changes, std::function<void(const Api::KeyInfo &key)> done);
    void showError(const QString &message);

    ManagementClient *client() const { return m_client; }
    QLabel *titleLabel() const { return m_title; }

private:
    ManagementClient *m_client;
    QString m_keyId;
    QString m_keyName;
    QLabel *m_title;
    QLabel *m_error;
    QPushButton *m_save;
    QPushButton *m_cancel;
};

} // namespace Aile::Ui
