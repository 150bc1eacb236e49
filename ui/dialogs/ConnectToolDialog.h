#pragma once

#include "api/values/EngineStatus.h"
#include "clients/ClientSnippets.h"

#include <QtCore/QJsonArray>
#include <QtWidgets/QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QToolButton;

namespace Aile::Ui {

// The snippets live in the engine library, so that `aile connect` prints the same ones.
using ClientSnippets = Clients::ClientSnippets;

class ApplySettingsDialog;
class ToolPathTest;
class ManagementClient;
class NewKeyDialog;

/// "Connect a tool": pick a tool, a key and a model, and copy the settings that point the tool
/// at the proxy; "Test connection" sends one real request through the proxy with that key and
/// shows what came back and the trace it left.
///
/// Keys: the engine stores only a hash and never hands a key out again, so the key is created here
/// (New key…, shown once and filled in), typed or pasted by the user, or taken from the
/// configuration file when the file provisions it in plain text (keys[].key).
class ConnectToolDialog : public QDialog
{
    Q_OBJECT
public:
    static constexpr int MaxBlocks = 3;

    explicit ConnectToolDialog(QWidget *parent = nullptr);

    /// The proxy's root URL ("http://127.0.0.1:2453"); empty while it is not listening.
    void setBaseUrl(const QString &baseUrl);
    /// Keys as EngineStatus carries them, and the plain keys a configuration file provisions
    /// (name → key).
    void setKeys(const QList<Api::KeyInfo> &keys, const QHash<QString, QString> &plainKeys);
    void setSharers(const QList<Api::SharerStatus> &sharers);
    /// The catalogue's providers (EngineStatus::providers): which wires each speaks, so the
    /// preselected model is one the tool can reach (Codex: a provider on the Responses wire).
    void setProviders(const QList<Api::ProviderStatus> &providers);
    /// Where New key… creates a key; without it the button is off.
    void setClient(ManagementClient *client);
    /// Opens the New key dialog; the key it creates is selected and filled in.
    NewKeyDialog *newKey();
    void selectTool(ClientSnippets::Tool tool);

    ClientSnippets::Tool tool() const;
    QString key() const;
    /// The model the snippets name: the one typed or picked, else the preselected one; empty when
    /// no sharer can serve the tool (the dialog then says so and writes no snippet).
    QString model() const;
    /// What the dialog says about the model (the preselection, or that no sharer serves the tool).
    QString modelNote() const;
    /// The code of the block at index (for tests and copy).
    QString blockText(int index) const;
    QString testResult() const;
    /// "Use this tool's own login" (Claude Code and Codex): the snippets keep the tool's
    /// subscription login and send the key in x-aile-key (docs/subscriptions.md).
    bool ownLogin() const;
    void setOwnLogin(bool on);

    /// Sends one small request through the proxy as the chosen tool's wire would; once Apply for
    /// me wrote the tool's file, the tool's own start-up requests with what the file holds.
    void testConnection();

    /// "Apply for me" (Claude Code, Codex, OpenCode): opens the preview of the change to the
    /// tool's own settings file; the file is written when the user confirms there. Null when
    /// there is nothing to write (the dialog says why).
    ApplySettingsDialog *applyForMe();
    /// "Restore previous settings": the preview of putting the file back as it was before Aile.
    ApplySettingsDialog *restoreSettings();
    /// The file Apply for me writes for the chosen tool (empty for the SDKs).
    QString toolFile() const;

Q_SIGNALS:
    /// The test left this trace; the window shows it in the Traces view.
    void showTraceRequested(const QString &traceId);
    void testFinished(int status, const QString &traceId);
    /// New key… made a key (the window re-reads the keys).
    void keyCreated(const QString &keyId);

private:
    void rebuild();
    void pickKeyName();
    void preselectModel();
    ApplySettingsDialog *openApplyDialog(ApplySettingsDialog *dialog);
    /// Test connection once Apply for me wrote the tool's file for this proxy: the tool's own
    /// start-up requests with what the file holds. False when that is not the case.
    bool testAppliedPath();

    QListWidget *m_tools;
    QComboBox *m_keyName;
    QLineEdit *m_key;
    QToolButton *m_showKey;
    QPushButton *m_newKey;
    ManagementClient *m_client = nullptr;
    QComboBox *m_model;
    QLabel *m_note;
    QCheckBox *m_ownLogin;
    QLabel *m_keyNote;
    QLabel *m_modelNote;
    QLabel *m_captions[MaxBlocks];
    QPlainTextEdit *m_codes[MaxBlocks];
    QPushButton *m_copies[MaxBlocks];
    QLabel *m_applyNote;
    QPushButton *m_apply;
    QPushButton *m_restore;
    QPushButton *m_test;
    QPushButton *m_showTrace;
    QLabel *m_result;
    ManagementClient *m_ownClient = nullptr;
    ToolPathTest *m_pathTest = nullptr; // for a dialog without the window's client
    QString m_baseUrl;
    QString m_lastTraceId;
    QHash<QString, QString> m_plainKeys;
    QHash<QString, QString> m_createdKeys; // made with New key… while this dialog lives
    QHash<QString, QString> m_sharerNames; // handle → name, for the test's answer
    QJsonArray m_sharers;
    QJsonArray m_providers;
    QString m_preselected; // the model the dialog chose; replaced while the user has not typed another
};

} // namespace Aile::Ui
