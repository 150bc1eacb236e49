#pragma once

#include "api/values/EngineStatus.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtWidgets/QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace Aile::Ui {

class ManagementClient;

/// Where the engine can keep a credential, from its status.
struct SecretStorage
{
    bool probed = false;       // the keychain probe answered
    bool keychain = false;     // a keychain answers
    QString keychainError;     // why not, in the engine's words
    int keychainErrorKind = 0; // why not, as a code: Secrets::SecretError::Kind (NoKeychain, AccessDenied, …)
    QString file;              // the opted-in plain-text secrets file, or empty
};

/// Add or edit one sharer. OK sends `POST /sharers` (or `PUT /sharers/{handle}`) in-process and
/// closes only when the engine accepted it; otherwise the engine's own error message is shown,
/// so the dialog validates exactly as the API does. The credential goes as "secret" to the
/// engine, which keeps it in the OS keychain (or, when the user opted in, the 0600 file); an
/// "env:NAME" credential is sent as a reference. A custom OpenAI- or Anthropic-compatible
/// provider is added first (`POST /admin/config` with a providers entry), then the sharer.
class SharerDialog : public QDialog
{
    Q_OBJECT
public:
    /// providers: the catalogue's (EngineStatus::providers). A sharer without a handle means Add;
    /// otherwise its fields are edited.
    SharerDialog(ManagementClient *client, const QList<Api::ProviderStatus> &providers, const SecretStorage &storage, const Api::SharerEdit &sharer,
                 QWidget *parent = nullptr);

    /// Picks a provider by id (a catalogue provider), or "custom:openai" / "custom:anthropic".
    void selectProvider(const QString &id);
    /// What OK sends to /sharers.
    Api::SharerEdit body() const;
    /// The provider entry sent to /admin/config first, when a custom provider is picked; else empty.
    QJsonObject customProvider() const;
    QString error() const;

Q_SIGNALS:
    void saved(const QString &handle, const QString &name);

protected:
    void done(int result) override;

private:
    void submit();
    void sendSharer();
    void showError(const QString &message);
    void updatePriceMode();
    void updateProvider();
    void addQuoteRow(const QString &model = {}, double input = 0, double output = 0);

    ManagementClient *m_client;
    QList<Api::ProviderStatus> m_providers;
    QString m_handle;
    bool m_busy = false; // a save is on its way: Enter does not send it twice
    QLineEdit *m_handleEdit;
    QLineEdit *m_name;
    QComboBox *m_provider;
    QLineEdit *m_customId;
    QLineEdit *m_baseUrl;
    QComboBox *m_kind;
    QComboBox *m_priceMode;
    QDoubleSpinBox *m_percent;
    QTableWidget *m_quotes;
    QWidget *m_quoteButtons;
    QLineEdit *m_models;
    QSpinBox *m_slots;
    QComboBox *m_dataCollection;
    QLineEdit *m_secret;
    QCheckBox *m_fileSecret;
    QLabel *m_secretNote;
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
};

} // namespace Aile::Ui
