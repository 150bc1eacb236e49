#pragma once

#include "host/Engine.h"

#include <QtCore/QObject>
#include <QtCore/QUrl>
#include <QtNetwork/QHostAddress>

namespace Aile {
class EngineHost;
}

namespace Aile::Ui {

class ManagementClient;

/// Which engine the window drives, and the way to it (docs/gui.md, "Which engine the window
/// drives"): the embedded one; the `aile serve` of this user already listening on the window's
/// address (found with the data folder's admin token and one authenticated call), attached over
/// HTTP; or a team server the user connected to. Only the client's transport changes: the pages
/// keep calling the same ManagementClient and never know which it is.
///
/// At start() the address is probed without blocking: nothing there, the embedded engine starts;
/// an Aile engine of this user, the window attaches to it; anything else, heldBy() names it (as
/// far as it can be known) and the embedded engine waits for useAnotherPort().
class EngineLink : public QObject
{
    Q_OBJECT
public:
    enum class Kind { Embedded, Service, TeamServer };
    static constexpr int ProbeTimeoutMs = 3000;
    static constexpr int TakeOverTimeoutMs = 10000;

    /// client talks to host in-process when the link is made.
    EngineLink(EngineHost *host, ManagementClient *client, QObject *parent = nullptr);

    /// Where the embedded engine would listen, and the data folder whose admin token finds an
    /// `aile serve` of this user there.
    void setLocal(const QHostAddress &address, quint16 port, const QString &dataDir);
    /// Probes the address, then attaches or starts the embedded engine (see the class comment).
    void start();
    /// Drives the engine at url with its admin token over HTTP.
    void attach(const QUrl &url, const QString &token, Kind kind);
    /// Stops the attached `aile serve` (POST /admin/shutdown), waits until its port is free, and
    /// starts the embedded engine there.
    void takeOver();
    /// The embedded engine on another port (any free one) when the address is held by something else.
    void useAnotherPort();
    /// Back from a team server to the local engine (the embedded one, or the attached service).
    void backToLocal();

    Kind kind() const { return m_kind; }
    QUrl url() const { return m_url; }
    /// Who runs the attached engine, from its GET /admin/status.
    qint64 pid() const { return m_pid; }
    QString program() const { return m_program; }
    /// Something that is not an Aile engine of this user holds the address: what it is, in words.
    QString heldBy() const { return m_heldBy; }
    bool takingOver() const { return m_takingOver; }
    /// host:port of the address the embedded engine listens on.
    QString localAuthority() const { return QStringLiteral("%1:%2").arg(m_address.toString()).arg(m_port); }

Q_SIGNALS:
    /// kind, url, pid or heldBy changed: the banner and the title follow.
    void changed();
    /// Taking over did not work (the service did not stop, or the call was refused).
    void failed(const QString &message);

private:
    void handleProbe(int status, const QByteArray &body, const QString &networkError, const QByteArray &server);
    void startEmbedded();
    void readWhoRuns();
    void waitForFreePort(int triesLeft);

    EngineHost *m_host;
    ManagementClient *m_client;
    QHostAddress m_address = QHostAddress::LocalHost;
    quint16 m_port = 0;
    QString m_dataDir;
    Kind m_kind = Kind::Embedded;
    Kind m_localKind = Kind::Embedded; // what backToLocal() returns to
    QUrl m_url;
    QUrl m_localUrl;
    QString m_localToken;
    qint64 m_pid = 0;
    QString m_program;
    QString m_heldBy;
    bool m_takingOver = false;
    bool m_embeddedStarted = false;
    bool m_inProcess = true; // the client's transport is the embedded engine's
};

} // namespace Aile::Ui
