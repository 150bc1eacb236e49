#pragma once

#include "api/values/EngineStatus.h"
#include "core/Clock.h"
#include "EngineContext.h"
#include "store/TraceRecord.h"

#include <QtCore/QJsonArray>
#include <QtCore/QObject>
#include <QtNetwork/QHostAddress>

#include <memory>

namespace Aile {

namespace Http {
class HttpServer;
}
namespace Api {
class ApiRouter;
class ManagementApi;
class TraceStream;
struct AdminCalls;
} // namespace Api
namespace Secrets {
class SecretStore;
}
namespace Log {
class AccessLogQueue;
}
namespace Store {
class StoreReader;
class StoreWriter;
}
namespace Routing {
class PinBook;
class RequestPlanner;
} // namespace Routing
namespace Config {
struct ConfigFile;
}
namespace Health {
class HealthBook;
class NodeBook;
} // namespace Health
namespace Dispatch {
class Verifier;
}
class SharedHealth;
class NodePinger;

/// How to start an engine.
struct EngineOptions
{
    QString dataDir; // the store lives here (aile.db)
    // A postgresql:// URL: the store is that database instead, shared with the other instances on
    // it (team mode, docs/team.md); the ledger journal and admin token file stay in dataDir.
    // Empty: the configuration's "store", else <dataDir>/aile.db.
    QString store;
    QHostAddress listenAddress = QHostAddress::LocalHost;
    quint16 port = 2453; // 0: any free port
    QString configPath;  // applied at start when set
    QString secretService = QStringLiteral("Aile Desktop");
    QString fileSecretsPath; // the opted-in plain-text secrets file, or empty
    // aile serve and the desktop app: when neither the configuration nor $AILE_ADMIN_TOKEN gives an
    // admin token, it is read from this file, made there (0600) on the first start (AdminToken.h).
    QString adminTokenFile;
    Clock *clock = nullptr;          // not owned; the system clock when null
    std::optional<quint64> drawSeed; // a fixed seed for the tie draw (tests)
};

/// Reads "HOST:PORT" as --listen takes it ("localhost" and "[::1]" included).
bool parseListenAddress(const QString &value, QHostAddress *address, quint16 *port);
/// The data folder both executables use when none is given (XDG data home, application "aile").
QString defaultDataDir();

/// The engine worker: lives on the engine thread (EngineHost moves it there). start() creates the
/// store connection, the listener and the upstream client on that thread.
class Engine : public QObject
{
    Q_OBJECT
public:
    explicit Engine(EngineOptions options, QObject *parent = nullptr);
    ~Engine() override;

    /// For tests running the engine on their own thread.
    EngineContext &context() { return m_ctx; }
    quint16 port() const;
    /// Before start(): the port to listen on (0: any free one).
    void setListenPort(quint16 port) { m_options.port = port; }

public Q_SLOTS:
    void start();
    void stop();
    /// Emits statusChanged with the current state.
    void requestStatus();
    /// The management API in-process (the GUI's way in): the same calls as over HTTP, answered
    /// by managementReplied with the same id. path may carry a query ("/sharers?model=…").
    void manage(quint64 id, const QString &method, const QString &path, const QByteArray &body);

Q_SIGNALS:
    void started(const QString &address, quint16 port);
    void startFailed(const QString &error);
    void stopped();
    void statusChanged(const Aile::Api::EngineStatus &status);
    void tracesRecorded(const QList<Aile::Store::TraceRecord> &traces);
    void managementReplied(quint64 id, int status, const QByteArray &body);

private:
    bool openStore(QString *error);
    void buildManagement();
    bool applyConfig(const Config::ConfigFile *config, QString *error);
    void loadState();
    void resolveSecrets();
    void listen();
    void provideAdminToken();
    void watchSharedStore();
    Api::EngineStatus status() const;

    EngineOptions m_options;
    QString m_storeLocation; // the file or URL opened (options, then the configuration, then dataDir)
    std::unique_ptr<SystemClock> m_systemClock;
    std::unique_ptr<Store::Store> m_store;
    std::unique_ptr<Store::StoreWriter> m_writer;
    std::unique_ptr<Store::StoreReader> m_historyReader; // the usage calls' reads (Api::History)
    std::unique_ptr<Health::HealthBook> m_health;
    std::unique_ptr<Routing::PinBook> m_pins;
    std::unique_ptr<SharedHealth> m_sharedHealth; // team mode only
    std::unique_ptr<Health::NodeBook> m_nodes;    // node-backed sharers (docs/team.md), in memory only
    NodePinger *m_nodePinger = nullptr;
    Dispatch::Verifier *m_verifier = nullptr;
    EngineContext m_ctx;
    std::unique_ptr<Routing::RequestPlanner> m_planner; // over m_ctx: requests, dry runs and the listing plan here
    Http::HttpServer *m_server = nullptr;
    std::unique_ptr<Api::ManagementApi> m_management;
    std::unique_ptr<Api::ApiRouter> m_router;
    Api::TraceStream *m_traceStream = nullptr;
    Log::AccessLogQueue *m_accessLog = nullptr; // a child of the trace sink
    std::unique_ptr<Api::AdminCalls> m_adminCalls;
    Secrets::SecretStore *m_secrets = nullptr;
    QString m_adminTokenRef;
    QString m_madeAdminToken; // made at this start: copied to the keychain once one answers
    int m_pendingSecrets = 0;
    bool m_running = false;
    bool m_reloadQueued = false;
    bool m_keychainProbed = false;
    bool m_keychainAvailable = false;
    QString m_keychainError;
    int m_keychainErrorKind = 0;
};

} // namespace Aile
