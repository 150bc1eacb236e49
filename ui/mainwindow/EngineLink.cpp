#include "EngineLink.h"

#include "PortHolder.h"
#include "common/HttpTransport.h"
#include "common/InProcessTransport.h"
#include "common/ManagementClient.h"
#include "core/AdminToken.h"
#include "host/EngineHost.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QLoggingCategory>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QTcpSocket>

Q_LOGGING_CATEGORY(lcLink, "aile.ui.link")

namespace Aile::Ui {

namespace {

QString hostOf(const QHostAddress &address)
{
    return address.protocol() == QAbstractSocket::IPv6Protocol ? QStringLiteral("[%1]").arg(address.toString()) : address.toString();
}

} // namespace

EngineLink::EngineLink(EngineHost *host, ManagementClient *client, QObject *parent) : QObject(parent), m_host(host), m_client(client)
{
    connect(m_client, &ManagementClient::statusChanged, this, [this](const Api::EngineStatus &status) {
        if (m_kind == Kind::Embedded || (status.pid == m_pid && status.program == m_program))
            return;
        m_pid = status.pid;
        m_program = status.program;
        Q_EMIT changed();
    });
}

void EngineLink::setLocal(const QHostAddress &address, quint16 port, const QString &dataDir)
{
    m_address = address;
    m_port = port;
    m_dataDir = dataDir;
}

void EngineLink::start()
{
    if (m_port == 0)
        return startEmbedded(); // any free port: nothing can be there already
    // The same token the aile commands of this user read: $AILE_ADMIN_TOKEN, else the data folder's file.
    QString token = qEnvironmentVariable(AdminToken::EnvironmentVariable).trimmed();
    if (token.isEmpty() && !m_dataDir.isEmpty()) {
        QString error;
        token = AdminToken::readFile(AdminToken::filePath(m_dataDir), &error);
    }
    m_localToken = token;
    m_localUrl = QUrl(QStringLiteral("http://%1:%2").arg(hostOf(m_address)).arg(m_port));
    auto *network = new QNetworkAccessManager(this);
    QNetworkRequest request(m_localUrl.resolved(QUrl(QStringLiteral("/admin/status"))));
    if (!token.isEmpty())
        request.setRawHeader("authorization", "Bearer " + token.toUtf8());
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setTransferTimeout(ProbeTimeoutMs);
    QNetworkReply *reply = network->get(request);
    connect(reply, &QNetworkReply::finished, this, [this, reply, network] {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QString error = reply->error() == QNetworkReply::ConnectionRefusedError ? QString() : reply->errorString();
        handleProbe(status, reply->readAll(), status == 0 ? error : QString(), reply->rawHeader("server"));
        network->deleteLater();
    });
}

void EngineLink::handleProbe(int status, const QByteArray &body, const QString &networkError, const QByteArray &server)
{
    const QJsonObject json = QJsonDocument::fromJson(body).object();
    if (status == 0 && networkError.isEmpty()) {
        qCInfo(lcLink).noquote() << "nothing listens on" << m_localUrl.authority() << "- starting the embedded engine";
        return startEmbedded();
    }
    if (status == 200 && json.contains(QLatin1String("pid"))) {
        qCInfo(lcLink).noquote() << "an Aile engine of this user serves" << m_localUrl.authority() << "(pid"
                                 << json.value(QLatin1String("pid")).toInteger() << ") - attaching to it";
        m_localKind = Kind::Service;
        return attach(m_localUrl, m_localToken, Kind::Service);
    }
    // Something else: say what, as far as it can be known, and wait for the user's choice.
    QString what;
    if (status == 401
        && json.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString().contains(QLatin1String("admin token")))
        what = tr("an Aile engine that does not take this data folder's admin token (another user's, or one started with "
                  "another data folder)");
    else if (status != 0)
        what = server.isEmpty() ? tr("a web server that is not Aile (it answered HTTP %1)").arg(status)
                                : tr("a web server that is not Aile (%1)").arg(QString::fromLatin1(server));
    else
        what = tr("a program that does not answer HTTP (%1)").arg(networkError);
    if (const QString process = processHoldingPort(m_port); !process.isEmpty())
        what += QStringLiteral(": ") + process;
    m_heldBy = what;
    qCWarning(lcLink).noquote() << m_localUrl.authority() << "is held by" << what;
    Q_EMIT changed();
}

void EngineLink::attach(const QUrl &url, const QString &token, Kind kind)
{
    m_kind = kind;
    m_url = url;
    m_pid = 0;
    m_program.clear();
    m_heldBy.clear();
    m_client->setTransport(std::make_unique<HttpTransport>(url, token));
    m_inProcess = false;
    Q_EMIT changed(); // the status that follows names who runs it
}

void EngineLink::startEmbedded()
{
    m_kind = Kind::Embedded;
    m_localKind = Kind::Embedded;
    m_url.clear();
    m_pid = 0;
    m_program.clear();
    m_heldBy.clear();
    // The client starts in-process (MainWindow); a new transport only when coming back from HTTP,
    // so the pages' first calls are not dropped.
    if (!m_inProcess)
        m_client->setTransport(std::make_unique<InProcessTransport>(m_host));
    m_inProcess = true;
    Q_EMIT changed();
    if (!m_embeddedStarted) {
        m_embeddedStarted = true;
        m_host->start();
    }
}

void EngineLink::useAnotherPort()
{
    m_host->setListenPort(0);
    m_port = 0;
    startEmbedded();
}

void EngineLink::takeOver()
{
    if (m_kind != Kind::Service || m_takingOver)
        return;
    m_takingOver = true;
    Q_EMIT changed();
    m_client->shutdown(this, [this](const Reply<QJsonObject> &reply) {
        if (!reply.ok()) {
            m_takingOver = false;
            Q_EMIT changed();
            Q_EMIT failed(tr("aile serve did not stop: %1").arg(reply.error));
            return;
        }
        waitForFreePort(TakeOverTimeoutMs / 100);
    });
}

void EngineLink::waitForFreePort(int triesLeft)
{
    // The service answers 202, then closes its port and exits; the embedded engine starts once
    // a connection there is refused.
    auto *socket = new QTcpSocket(this);
    connect(socket, &QTcpSocket::connected, this, [this, socket, triesLeft] {
        socket->abort();
        socket->deleteLater();
        if (triesLeft <= 0) {
            m_takingOver = false;
            Q_EMIT changed();
            Q_EMIT failed(
                tr("aile serve said it stops, but %1 is still held after %2 seconds").arg(m_localUrl.authority()).arg(TakeOverTimeoutMs / 1000));
            return;
        }
        QTimer::singleShot(100, this, [this, triesLeft] { waitForFreePort(triesLeft - 1); });
    });
    connect(socket, &QTcpSocket::errorOccurred, this, [this, socket] {
        socket->deleteLater();
        m_takingOver = false;
        qCInfo(lcLink).noquote() << "aile serve stopped; the embedded engine takes" << m_localUrl.authority();
        startEmbedded();
    });
    socket->connectToHost(m_address, m_port);
}

void EngineLink::backToLocal()
{
    if (m_kind != Kind::TeamServer)
        return;
    if (m_localKind == Kind::Service)
        return attach(m_localUrl, m_localToken, Kind::Service);
    startEmbedded();
}

} // namespace Aile::Ui
