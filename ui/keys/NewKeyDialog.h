#pragma once

#include <QtWidgets/QDialog>

#include <chrono>

class QLabel;
class QLineEdit;
class QPushButton;

namespace Aile::Ui {

class ManagementClient;

/// Creates a key (POST /keys) and shows it once: the plain key sits in a read-only field with a
/// Copy button until the dialog closes, and then it is gone. The engine keeps only its hash, so
/// nothing can show it again; created() hands it to whoever asked for it (the Connect a tool
/// dialog fills it into the settings) before the dialog forgets it.
class NewKeyDialog : public QDialog
{
    Q_OBJECT
public:
    NewKeyDialog(ManagementClient *client, QWidget *parent = nullptr);
    ~NewKeyDialog() override;

    void setKeyName(const QString &name);
    /// Sends POST /keys with the name typed.
    void create();
    /// The plain key while the dialog shows it; empty before the engine answered and after close.
    QString plainKey() const;
    QString message() const;
    /// How long a copied key stays on the clipboard if nothing else is copied (30 s; tests shorten it).
    void setClipboardClearAfter(std::chrono::milliseconds after) { m_clipboardClearAfter = after; }

Q_SIGNALS:
    /// The engine made the key: its id, name and plain text (said once).
    void created(const QString &keyId, const QString &name, const QString &plainKey);
    void failed(const QString &message);

protected:
    void done(int result) override;

private:
    void forget();

    ManagementClient *m_client;
    QLineEdit *m_name;
    QLineEdit *m_key;
    QPushButton *m_create;
    QPushButton *m_copy;
    QPushButton *m_close;
    QLabel *m_message;
    QLabel *m_once;
    std::chrono::milliseconds m_clipboardClearAfter{30'000};
};

} // namespace Aile::Ui
