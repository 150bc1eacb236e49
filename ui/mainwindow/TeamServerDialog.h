#pragma once

#include <QtCore/QUrl>
#include <QtWidgets/QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace Aile::Secrets {
class SecretStore;
}

namespace Aile::Ui {

class ManagementClient;

/// File ▸ Connect to a team server…: the address of a shared Aile engine and its admin token.
/// Connect checks both with one authenticated call (GET /admin/status) before the window switches
/// to it; a refusal shows the engine's own words. The address is remembered in the settings, the
/// token only in the keychain (entry keychainEntry), never in a settings file or a log line.
class TeamServerDialog : public QDialog
{
    Q_OBJECT
public:
    static QString keychainEntry() { return QStringLiteral("keychain:aile-team-server-token"); }

    /// settingsPath: the window's INI file, or empty for the platform's place.
    TeamServerDialog(const QString &settingsPath, QWidget *parent = nullptr);

    /// Fills the remembered address and reads the token from the keychain, then shows the dialog.
    void open() override;
    /// Checks the address and token, and on success emits connectRequested and closes.
    void tryConnect();

    QLineEdit *urlEdit() const { return m_url; }
    QLineEdit *tokenEdit() const { return m_token; }
    QString message() const;

    /// Where a plain http:// address is refused: the token would cross the network unencrypted.
    static QString refusal(const QUrl &url);

Q_SIGNALS:
    void connectRequested(const QUrl &url, const QString &token);
    /// The check answered (either way): a test hook.
    void checked(bool ok);

private:
    void showMessage(const QString &text, bool error);

    QString m_settingsPath;
    Secrets::SecretStore *m_secrets;
    QLineEdit *m_url;
    QLineEdit *m_token;
    QLabel *m_message;
    QPushButton *m_connect;
    ManagementClient *m_probe = nullptr;
};

} // namespace Aile::Ui
