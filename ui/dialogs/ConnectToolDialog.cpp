#include "ConnectToolDialog.h"

#include "ApplySettingsDialog.h"
#include "ToolPathTest.h"
#include "clients/ToolConfigFile.h"
#include "api/values/JsonFields.h"
#include "common/ManagementClient.h"
#include "keys/NewKeyDialog.h"

#include <QtCore/QFile>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtGui/QClipboard>
#include <QtGui/QFontDatabase>
#include <QtGui/QGuiApplication>
#include <QtGui/QTextDocument>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>

#include <memory>

namespace Aile::Ui {

ConnectToolDialog::ConnectToolDialog(QWidget *parent)
    : QDialog(parent), m_tools(new QListWidget(this)), m_keyName(new QComboBox(this)), m_key(new QLineEdit(this)), m_showKey(new QToolButton(this)),
      m_newKey(new QPushButton(tr("&New key…"), this)), m_model(new QComboBox(this)), m_note(new QLabel(this)),
      m_ownLogin(new QCheckBox(tr("Use this tool's own &login (Claude or ChatGPT plan)"), this)), m_keyNote(new QLabel(this)),
      m_modelNote(new QLabel(this)), m_applyNote(new QLabel(this)), m_apply(new QPushButton(tr("&Apply for me…"), this)),
      m_restore(new QPushButton(tr("R&estore previous settings…"), this)), m_test(new QPushButton(tr("&Test connection"), this)),
      m_showTrace(new QPushButton(tr("Show its t&race"), this)), m_result(new QLabel(this))
{
    setObjectName(QStringLiteral("connectToolDialog"));
    setWindowTitle(tr("Connect a tool"));
    setAccessibleName(tr("Connect a tool"));

    m_tools->setObjectName(QStringLiteral("toolList"));
    m_tools->setAccessibleName(tr("Tools"));
    for (ClientSnippets::Tool tool : ClientSnippets::tools()) {
        auto *item = new QListWidgetItem(ClientSnippets::name(tool), m_tools);
        item->setData(Qt::UserRole, int(tool));
    }
    m_tools->setMaximumWidth(m_tools->sizeHintForColumn(0) + 40);

    m_keyName->setObjectName(QStringLiteral("keyName"));
    m_keyName->setAccessibleName(tr("Key name"));
    m_key->setObjectName(QStringLiteral("keyText"));
    m_key->setAccessibleName(tr("Key"));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setPlaceholderText(tr("Paste the key (sk-aile-…)"));
    m_showKey->setObjectName(QStringLiteral("showKey"));
    m_showKey->setText(tr("Show"));
    m_showKey->setCheckable(true);
    m_showKey->setAccessibleName(tr("Show the key"));
    m_newKey->setObjectName(QStringLiteral("connectNewKey"));
    m_newKey->setAccessibleName(tr("Create a new key"));
    m_newKey->setEnabled(false);
    m_model->setObjectName(QStringLiteral("modelChoice"));
    m_model->setAccessibleName(tr("Model"));
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->lineEdit()->setAccessibleName(tr("Model name"));

    m_keyNote->setObjectName(QStringLiteral("keyNote"));
    m_keyNote->setWordWrap(true);
    m_keyNote->setText(tr("Aile keeps only a hash of each key, so it cannot show an existing key again. Make a new key "
                          "here (it is filled in), or paste the key you kept (keys[].key in the configuration file is "
                          "filled in for you)."));
    m_modelNote->setObjectName(QStringLiteral("modelNote"));
    m_modelNote->setWordWrap(true);
    m_modelNote->setAccessibleName(tr("About the model"));
    m_note->setObjectName(QStringLiteral("toolNote"));
    m_note->setWordWrap(true);
    m_note->setAccessibleName(tr("About this tool"));

    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_key, 1);
    keyRow->addWidget(m_showKey);
    auto *form = new QFormLayout;
    auto *keyNameRow = new QHBoxLayout;
    keyNameRow->addWidget(m_keyName, 1);
    keyNameRow->addWidget(m_newKey);
    form->addRow(tr("Key &name:"), keyNameRow);
    auto *keyLabel = new QLabel(tr("&Key:"), this);
    keyLabel->setBuddy(m_key);
    auto *keyColumn = new QVBoxLayout;
    keyColumn->addLayout(keyRow);
    keyColumn->addWidget(m_keyNote);
    form->addRow(keyLabel, keyColumn);
    auto *modelColumn = new QVBoxLayout;
    modelColumn->addWidget(m_model);
    modelColumn->addWidget(m_modelNote);
    form->addRow(tr("&Model:"), modelColumn);

    auto *right = new QVBoxLayout;
    right->addLayout(form);
    m_ownLogin->setObjectName(QStringLiteral("ownLogin"));
    m_ownLogin->setToolTip(tr("For a subscription sharer whose credential is \"client\": the tool keeps its own login and "
                              "Aile forwards it to that sharer only; your key goes in x-aile-key"));
    right->addWidget(m_ownLogin);
    right->addWidget(m_note);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (int i = 0; i < MaxBlocks; ++i) {
        m_captions[i] = new QLabel(this);
        m_codes[i] = new QPlainTextEdit(this);
        m_codes[i]->setObjectName(QStringLiteral("snippet%1").arg(i));
        m_codes[i]->setReadOnly(true);
        m_codes[i]->setFont(mono);
        m_codes[i]->setLineWrapMode(QPlainTextEdit::NoWrap);
        m_codes[i]->setTabChangesFocus(true);
        m_captions[i]->setBuddy(m_codes[i]);
        m_copies[i] = new QPushButton(tr("Copy"), this);
        m_copies[i]->setObjectName(QStringLiteral("copySnippet%1").arg(i));
        connect(m_copies[i], &QPushButton::clicked, this, [this, i] {
            QGuiApplication::clipboard()->setText(m_codes[i]->toPlainText());
            m_result->setText(tr("Copied “%1” to the clipboard.").arg(m_captions[i]->text()));
        });
        auto *head = new QHBoxLayout;
        head->addWidget(m_captions[i], 1);
        head->addWidget(m_copies[i]);
        right->addLayout(head);
        right->addWidget(m_codes[i]);
    }
    m_applyNote->setObjectName(QStringLiteral("applyNote"));
    m_applyNote->setWordWrap(true);
    m_apply->setObjectName(QStringLiteral("applyForMe"));
    m_apply->setAccessibleName(tr("Apply these settings to the tool's settings file"));
    m_restore->setObjectName(QStringLiteral("restoreSettings"));
    m_restore->setAccessibleName(tr("Restore the tool's previous settings"));
    auto *applyRow = new QHBoxLayout;
    applyRow->addWidget(m_applyNote, 1);
    applyRow->addWidget(m_apply);
    applyRow->addWidget(m_restore);
    right->addLayout(applyRow);
    right->addStretch(1);

    m_test->setObjectName(QStringLiteral("testConnection"));
    m_test->setAccessibleName(tr("Test connection"));
    m_showTrace->setObjectName(QStringLiteral("showTrace"));
    m_showTrace->setAccessibleName(tr("Show the test's trace"));
    m_showTrace->setEnabled(false);
    m_result->setObjectName(QStringLiteral("testResult"));
    m_result->setAccessibleName(tr("Test result"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    auto *testRow = new QHBoxLayout;
    testRow->addWidget(m_test);
    testRow->addWidget(m_result, 1);
    testRow->addWidget(m_showTrace);
    right->addLayout(testRow);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->setObjectName(QStringLiteral("connectButtons"));
    // Set here rather than left to Qt's own catalogue, which a system may not have installed.
    buttons->button(QDialogButtonBox::Close)->setText(tr("Close"));
    buttons->button(QDialogButtonBox::Close)->setAccessibleName(tr("Close"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *columns = new QHBoxLayout;
    columns->addWidget(m_tools);
    columns->addLayout(right, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(buttons);

    connect(m_tools, &QListWidget::currentRowChanged, this, &ConnectToolDialog::preselectModel);
    connect(m_keyName, &QComboBox::currentIndexChanged, this, &ConnectToolDialog::pickKeyName);
    connect(m_key, &QLineEdit::textChanged, this, &ConnectToolDialog::rebuild);
    connect(m_model, &QComboBox::currentTextChanged, this, &ConnectToolDialog::rebuild);
    connect(m_ownLogin, &QCheckBox::toggled, this, &ConnectToolDialog::rebuild);
    connect(m_showKey, &QToolButton::toggled, this, [this](bool on) { m_key->setEchoMode(on ? QLineEdit::Normal : QLineEdit::Password); });
    connect(m_test, &QPushButton::clicked, this, &ConnectToolDialog::testConnection);
    connect(m_newKey, &QPushButton::clicked, this, &ConnectToolDialog::newKey);
    connect(m_apply, &QPushButton::clicked, this, &ConnectToolDialog::applyForMe);
    connect(m_restore, &QPushButton::clicked, this, &ConnectToolDialog::restoreSettings);
    connect(m_showTrace, &QPushButton::clicked, this, [this] { Q_EMIT showTraceRequested(m_lastTraceId); });

    setKeys({}, {});
    m_tools->setCurrentRow(0);
    resize(900, 760);
}

void ConnectToolDialog::setBaseUrl(const QString &baseUrl)
{
    m_baseUrl = baseUrl;
    rebuild();
}

void ConnectToolDialog::setKeys(const QList<Api::KeyInfo> &keys, const QHash<QString, QString> &plainKeys)
{
    m_plainKeys = plainKeys;
    m_plainKeys.insert(m_createdKeys);
    const QString current = m_keyName->currentData().toString();
    {
        const QSignalBlocker block(m_keyName);
        m_keyName->clear();
        m_keyName->addItem(tr("(type or paste a key)"), QString());
        for (const Api::KeyInfo &k : keys)
            if (!k.revoked)
                m_keyName->addItem(tr("%1 (%2)").arg(k.name, k.prefix), k.name);
        int index = m_keyName->findData(current);
        // Offer a key whose plain text we have first: it makes the snippets complete at once.
        if (index <= 0 && m_key->text().isEmpty())
            for (int i = 1; i < m_keyName->count() && index <= 0; ++i)
                if (m_plainKeys.contains(m_keyName->itemData(i).toString()))
                    index = i;
        m_keyName->setCurrentIndex(qMax(0, index));
    }
    // A status arrives every few seconds: only a new choice may replace what the user typed.
    if (m_keyName->currentData().toString() != current || m_key->text().isEmpty())
        pickKeyName();
}

void ConnectToolDialog::setSharers(const QList<Api::SharerStatus> &sharers)
{
    // The snippets' model choice (ClientSnippets, a layer below the API's values) reads them as JSON.
    m_sharers = Api::Json::arrayOf(sharers);
    QStringList models;
    m_sharerNames.clear();
    for (const Api::SharerStatus &s : sharers) {
        m_sharerNames.insert(s.config.handle, s.config.name);
        for (const QString &m : s.config.models)
            models << s.config.provider + QLatin1Char('/') + m;
    }
    models.removeDuplicates();
    models.sort();
    const QString typed = m_model->currentText();
    const QSignalBlocker block(m_model);
    m_model->clear();
    m_model->addItems(models);
    m_model->setEditText(typed);
    preselectModel();
}

void ConnectToolDialog::setProviders(const QList<Api::ProviderStatus> &providers)
{
    m_providers = Api::Json::arrayOf(providers);
    preselectModel();
}

void ConnectToolDialog::preselectModel()
{
    // A model the user typed stays; the one the dialog chose follows the tool and the sharers.
    const QString typed = m_model->currentText().trimmed();
    if (typed.isEmpty() || typed == m_preselected) {
        m_preselected = ClientSnippets::preferredModel(tool(), m_sharers, m_providers);
        const QSignalBlocker block(m_model);
        m_model->setEditText(m_preselected);
    }
    rebuild();
}

void ConnectToolDialog::setClient(ManagementClient *client)
{
    m_client = client;
    m_newKey->setEnabled(m_client);
}

NewKeyDialog *ConnectToolDialog::newKey()
{
    if (!m_client)
        return nullptr;
    auto *dialog = new NewKeyDialog(m_client, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &NewKeyDialog::created, this, [this](const QString &id, const QString &name, const QString &plain) {
        // The plain key is kept for this dialog's snippets only, the way a provisioned one is.
        m_createdKeys.insert(name, plain);
        m_plainKeys.insert(name, plain);
        int index = m_keyName->findData(name);
        if (index < 0) {
            const QSignalBlocker block(m_keyName);
            m_keyName->addItem(name, name);
            index = m_keyName->count() - 1;
        }
        m_keyName->setCurrentIndex(index);
        m_key->setText(plain);
        rebuild();
        Q_EMIT keyCreated(id);
    });
    dialog->open();
    return dialog;
}

void ConnectToolDialog::pickKeyName()
{
    const QString name = m_keyName->currentData().toString();
    if (m_plainKeys.contains(name))
        m_key->setText(m_plainKeys.value(name));
    rebuild();
}

void ConnectToolDialog::selectTool(ClientSnippets::Tool tool)
{
    m_tools->setCurrentRow(int(ClientSnippets::tools().indexOf(tool)));
}

ClientSnippets::Tool ConnectToolDialog::tool() const
{
    const QListWidgetItem *item = m_tools->currentItem();
    return item ? ClientSnippets::Tool(item->data(Qt::UserRole).toInt()) : ClientSnippets::Tool::ClaudeCode;
}

QString ConnectToolDialog::key() const
{
    return m_key->text().trimmed();
}

QString ConnectToolDialog::model() const
{
    return m_model->currentText().trimmed();
}

QString ConnectToolDialog::modelNote() const
{
    return m_modelNote->text();
}

QString ConnectToolDialog::blockText(int index) const
{
    return index >= 0 && index < MaxBlocks && m_codes[index]->isVisibleTo(this) ? m_codes[index]->toPlainText() : QString();
}

QString ConnectToolDialog::testResult() const
{
    return m_result->text();
}

void ConnectToolDialog::rebuild()
{
    const ClientSnippets::Tool t = tool();
    m_ownLogin->setVisible(ClientSnippets::offersOwnLogin(t));
    m_note->setText(ownLogin() ? ClientSnippets::ownLoginNote(t) : ClientSnippets::note(t));
    m_model->lineEdit()->setPlaceholderText(tr("provider/model"));
    const QString picked = model();
    if (picked.isEmpty())
        m_modelNote->setText(ClientSnippets::noSharerMessage(t));
    else if (!ClientSnippets::hasSharerFor(t, picked, m_sharers, m_providers))
        m_modelNote->setText(tr("None of your sharers offers %1 on a provider that speaks the %2 wire: requests for it will fail.")
                                 .arg(picked, ClientSnippets::wireName(ClientSnippets::wire(t))));
    else if (picked == m_preselected)
        m_modelNote->setText(tr("Chosen because a sharer of yours offers it."));
    else
        m_modelNote->setText(QString());
    m_modelNote->setVisible(!m_modelNote->text().isEmpty());
    m_test->setEnabled(!m_baseUrl.isEmpty() && !picked.isEmpty());
    const QString base = m_baseUrl.isEmpty() ? QStringLiteral("http://127.0.0.1:2453") : m_baseUrl;
    // No model a sharer serves: no snippet, rather than one that ends in 503s.
    const QList<ClientSnippets::Block> blocks =
        picked.isEmpty() ? QList<ClientSnippets::Block>()
                         : (ownLogin() ? ClientSnippets::ownLoginBlocks(t, base, key(), picked) : ClientSnippets::blocks(t, base, key(), picked));
    for (int i = 0; i < MaxBlocks; ++i) {
        const bool used = i < blocks.size();
        m_captions[i]->setVisible(used);
        m_codes[i]->setVisible(used);
        m_copies[i]->setVisible(used);
        if (!used)
            continue;
        m_captions[i]->setText(blocks.at(i).caption);
        m_codes[i]->setPlainText(blocks.at(i).code);
        const int lines = qBound(1, int(blocks.at(i).code.trimmed().count(QLatin1Char('\n'))) + 1, 16);
        m_codes[i]->setFixedHeight(lines * m_codes[i]->fontMetrics().lineSpacing() + 2 * m_codes[i]->frameWidth()
                                   + 2 * int(m_codes[i]->document()->documentMargin()) + 8);
        m_codes[i]->setVerticalScrollBarPolicy(lines < 16 ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
        m_codes[i]->setAccessibleName(tr("%1 for %2").arg(blocks.at(i).caption, ClientSnippets::name(t)));
        m_copies[i]->setAccessibleName(tr("Copy %1").arg(blocks.at(i).caption));
    }
    const bool applies = Clients::ToolConfigEdit::supports(t);
    m_applyNote->setVisible(applies);
    m_apply->setVisible(applies);
    m_restore->setVisible(applies);
    if (applies) {
        m_applyNote->setText(tr("Apply for me writes these settings, your key included, into %1 (a backup is kept).").arg(toolFile()));
        m_apply->setEnabled(!m_baseUrl.isEmpty() && !picked.isEmpty() && !key().isEmpty());
        m_restore->setEnabled(Clients::ToolConfigFile::canUndo(toolFile()));
    }
}

QString ConnectToolDialog::toolFile() const
{
    return Clients::ToolConfigFile::path(tool());
}

ApplySettingsDialog *ConnectToolDialog::applyForMe()
{
    if (m_baseUrl.isEmpty() || key().isEmpty() || model().isEmpty()) {
        m_result->setText(m_baseUrl.isEmpty() ? tr("The proxy is not listening.")
                          : key().isEmpty()   ? tr("Paste a key first.")
                                              : ClientSnippets::noSharerMessage(tool()));
        return nullptr;
    }
    const Clients::ToolConfigFile::Preview p =
        Clients::ToolConfigFile::preview(Clients::ToolSetup{tool(), m_baseUrl, key(), model(), ownLogin()}, toolFile());
    if (!p.error.isEmpty()) {
        m_result->setText(tr("Nothing was written: %1").arg(p.error));
        return nullptr;
    }
    if (!p.changes()) {
        m_result->setText(tr("%1 already holds these settings.").arg(p.path));
        return nullptr;
    }
    return openApplyDialog(new ApplySettingsDialog(ApplySettingsDialog::Mode::Apply, p, ClientSnippets::name(tool()), this));
}

ApplySettingsDialog *ConnectToolDialog::restoreSettings()
{
    const Clients::ToolConfigFile::Preview p = Clients::ToolConfigFile::undoPreview(toolFile());
    if (!p.error.isEmpty()) {
        m_result->setText(p.error);
        return nullptr;
    }
    return openApplyDialog(new ApplySettingsDialog(ApplySettingsDialog::Mode::Restore, p, ClientSnippets::name(tool()), this));
}

ApplySettingsDialog *ConnectToolDialog::openApplyDialog(ApplySettingsDialog *dialog)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ApplySettingsDialog::written, this, [this](bool, const QString &message) {
        m_result->setText(message);
        rebuild();
    });
    dialog->open();
    return dialog;
}

void ConnectToolDialog::testConnection()
{
    if (m_baseUrl.isEmpty()) {
        m_result->setText(tr("The proxy is not listening."));
        return;
    }
    if (testAppliedPath())
        return;
    if (key().isEmpty()) {
        m_result->setText(tr("Paste a key first."));
        return;
    }
    if (model().isEmpty()) {
        m_result->setText(ClientSnippets::noSharerMessage(tool()));
        return;
    }
    m_test->setEnabled(false);
    m_showTrace->setEnabled(false);
    m_result->setText(tr("Sending a request to %1 through the proxy…").arg(model()));
    // Through the window's client when it has one; a dialog on its own (tests) makes its own,
    // which needs no engine: the request is an ordinary HTTP client of the proxy.
    if (!m_client && !m_ownClient)
        m_ownClient = new ManagementClient(static_cast<EngineHost *>(nullptr), this);
    ManagementClient *client = m_client ? m_client : m_ownClient;
    client->testTool(
        m_baseUrl, ClientSnippets::wire(tool()), key(), model(), this,
        [this](const ToolTestResult &r) {
            m_test->setEnabled(true);
            const QString ms = QString::number(r.elapsedMs);
            if (r.status == 0)
                m_result->setText(tr("Could not reach the proxy: %1").arg(r.error));
            else if (r.status < 400)
                m_result->setText(tr("HTTP %1 in %2 ms, served by %3 (trace %4).")
                                      .arg(QString::number(r.status), ms, m_sharerNames.value(r.sharer, r.sharer), r.traceId));
            else
                m_result->setText(tr("HTTP %1 in %2 ms: %3").arg(QString::number(r.status), ms, r.error));
            if (ownLogin())
                m_result->setText(m_result->text() + QLatin1Char(' ')
                                  + tr("Sent with your key in x-aile-key and no subscription login: a sharer using the tool's own "
                                       "login was passed over (\"no subscription login on this request\"); from the tool it serves."));
            m_lastTraceId = r.traceId;
            m_showTrace->setEnabled(!r.traceId.isEmpty());
            Q_EMIT testFinished(r.status, r.traceId);
        },
        ownLogin());
}

bool ConnectToolDialog::testAppliedPath()
{
    // Only once Apply for me wrote the tool's file for this proxy: the test then proves the file.
    const QString path = toolFile();
    if (!Clients::ToolConfigEdit::supports(tool()) || !Clients::ToolConfigFile::canUndo(path))
        return false;
    QFile file(path);
    Clients::ToolSetup applied{tool(), {}, {}, {}, false};
    QString error;
    if (!file.open(QIODevice::ReadOnly) || !Clients::ToolRequestPath::readApplied(file.readAll(), model(), &applied, &error)
        || applied.baseUrl != m_baseUrl)
        return false;
    if (!m_pathTest)
        m_pathTest = new ToolPathTest(this);
    m_test->setEnabled(false);
    m_showTrace->setEnabled(false);
    m_result->setText(tr("Sending what %1 sends at start, with the settings in %2…").arg(ClientSnippets::name(tool()), path));
    m_pathTest->run(Clients::ToolRequestPath::steps(applied), [this, path](const QList<ToolPathStepResult> &steps) {
        m_test->setEnabled(true);
        QStringList parts;
        for (const ToolPathStepResult &r : steps)
            parts << (r.status == 0 ? tr("%1: no answer (%2)").arg(r.label, r.error) : tr("%1 → %2").arg(r.label).arg(r.status));
        const ToolPathStepResult last = steps.isEmpty() ? ToolPathStepResult() : steps.last();
        QString outcome;
        if (last.status >= 200 && last.status < 400)
            outcome = tr("answered in %1 ms, served by %2 (trace %3).")
                          .arg(QString::number(last.elapsedMs), m_sharerNames.value(last.sharer, last.sharer), last.traceId);
        else if (last.status >= 400)
            outcome = tr("refused: %1").arg(last.error);
        m_result->setText(tr("The tool's own path, with the settings in %1: %2; %3").arg(path, parts.join(QStringLiteral(" · ")), outcome));
        m_lastTraceId = last.traceId;
        m_showTrace->setEnabled(!last.traceId.isEmpty());
        Q_EMIT testFinished(last.status, last.traceId);
    });
    return true;
}

bool ConnectToolDialog::ownLogin() const
{
    return m_ownLogin->isChecked() && ClientSnippets::offersOwnLogin(tool());
}

void ConnectToolDialog::setOwnLogin(bool on)
{
    m_ownLogin->setChecked(on);
}

} // namespace Aile::Ui
