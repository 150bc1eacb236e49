#include "TeamServerDialog.h"

#include "common/HttpTransport.h"
#include "common/ManagementClient.h"
#include "secrets/SecretStore.h"

#include <QtCore/QPointer>
#include <QtCore/QSettings>
#include <QtNetwork/QHostAddress>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

namespace {

std::unique_ptr<QSettings> settingsAt(const QString &path)
{
    if (path.isEmpty())
        return std::make_unique<QSettings>(QStringLiteral("aile"), QStringLiteral("aile-desktop"));
    return std::make_unique<QSettings>(path, QSettings::IniFormat);
}

} // namespace

TeamServerDialog::TeamServerDialog(const QString &settingsPath, QWidget *parent)
    : QDialog(parent), m_settingsPath(settingsPath), m_secrets(new Secrets::SecretStore(Secrets::defaultServiceName(), {}, this)),
      m_url(new QLineEdit(this)), m_token(new QLineEdit(this)), m_message(new QLabel(this))
{
    setObjectName(QStringLiteral("teamServerDialog"));
    setWindowTitle(tr("Connect to a team server"));
    m_url->setObjectName(QStringLiteral("teamServerUrl"));
    m_url->setPlaceholderText(QStringLiteral("https://aile.example.org"));
    m_token->setObjectName(QStringLiteral("teamServerToken"));
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(tr("the server's admin token"));
    m_message->setObjectName(QStringLiteral("teamServerMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *intro = new QLabel(tr("The window shows the team server's sharers, keys, routes and traces instead of this "
                                "computer's. The token is kept in your keychain."),
                             this);
    intro->setWordWrap(true);
    auto *form = new QFormLayout;
    form->addRow(tr("&Address:"), m_url);
    form->addRow(tr("Admin &token:"), m_token);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_connect = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
    m_connect->setObjectName(QStringLiteral("teamServerConnect"));
    m_connect->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &TeamServerDialog::tryConnect);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    resize(520, sizeHint().height());
}

void TeamServerDialog::open()
{
    m_message->clear();
    m_url->setText(settingsAt(m_settingsPath)->value(QStringLiteral("teamServer/url")).toString());
    if (m_token->text().isEmpty())
        m_secrets->read(keychainEntry(), [guard = QPointer<QLineEdit>(m_token)](const QString &secret, const Secrets::SecretError &) {
            if (guard && guard->text().isEmpty())
                guard->setText(secret);
        });
    QDialog::open();
}

QString TeamServerDialog::message() const
{
    return m_message->text();
}

QString TeamServerDialog::refusal(const QUrl &url)
{
    if (!url.isValid() || url.host().isEmpty() || (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")))
        return tr("Give the server's address as https://host[:port].");
    const QHostAddress address(url.host());
    const bool loopback = url.host() == QLatin1String("localhost") || (!address.isNull() && address.isLoopback());
    if (url.scheme() == QLatin1String("http") && !loopback)
        return tr("%1 is plain http://, which would send the admin token unencrypted; use https:// (TLS in front of the team "
                  "server).")
            .arg(url.host());
    return {};
}

void TeamServerDialog::showMessage(const QString &text, bool error)
{
    m_message->setText(text);
    m_message->setProperty("error", error);
}

void TeamServerDialog::tryConnect()
{
    const QUrl url = QUrl::fromUserInput(m_url->text().trimmed()).adjusted(QUrl::StripTrailingSlash | QUrl::RemovePath | QUrl::RemoveQuery);
    const QString token = m_token->text().trimmed();
    QString bad = refusal(url);
    if (bad.isEmpty() && token.isEmpty())
        bad = tr("Paste the server's admin token (its administrator has it).");
    if (!bad.isEmpty()) {
        showMessage(bad, true);
        Q_EMIT checked(false);
        return;
    }
    m_connect->setEnabled(false);
    showMessage(tr("Checking %1…").arg(url.toDisplayString()), false);
    delete m_probe;
    m_probe = new ManagementClient(std::make_unique<HttpTransport>(url, token), this);
    m_probe->status(this, [this, url, token](const Reply<Api::EngineStatus> &reply) {
        m_connect->setEnabled(true);
        if (!reply.ok()) {
            showMessage(reply.status == 401 ? tr("The server refused the token: %1").arg(reply.error) : reply.error, true);
            Q_EMIT checked(false);
            return;
        }
        settingsAt(m_settingsPath)->setValue(QStringLiteral("teamServer/url"), url.toString());
        m_secrets->write(keychainEntry(), token, [](const Secrets::SecretError &) {
            // Without a keychain the token is asked again next time; it is never written elsewhere.
        });
        Q_EMIT checked(true);
        Q_EMIT connectRequested(url, token);
        accept();
    });
}

} // namespace Aile::Ui
