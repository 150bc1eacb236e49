#include "Engine.h"

#include "core/AdminToken.h"
#include "core/Allocator.h"
#include "store/TraceSink.h"
#include "log/AccessLogQueue.h"
#include "api/ApiRouter.h"
#include "api/TraceStream.h"
#include "api/AdminCalls.h"
#include "api/CatalogApi.h"
#include "api/ConfigApi.h"
#include "api/DryRun.h"
#include "api/ManagementApi.h"
#include "api/ManagementKeys.h"
#include "api/RouteReplay.h"
#include "api/RouteTemplate.h"
#include "api/SharerEditApi.h"
#include "api/SharerListApi.h"
#include "api/TraceActions.h"
#include "api/UsageApi.h"
#include "config/ConfigApply.h"
#include "config/ConfigFile.h"
#include "config/ConfigValidation.h"
#include "health/HealthBook.h"
#include "health/NodeBook.h"
#include "NodePinger.h"
#include "StoreWatch.h"
#include "routing/Affinity.h"
#include "routing/RequestPlanner.h"
#include "dispatch/Verifier.h"
#include "http/HttpServer.h"
#include "http/UpstreamClient.h"
#include "secrets/SecretStore.h"
#include "SharedHealth.h"
#include "SharedPins.h"
#include "store/ChangeFeed.h"
#include "store/SqlDialect.h"
#include "store/Store.h"
#include "store/StoreFiles.h"
#include "store/StoreReader.h"
#include "store/StoreWriter.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QLoggingCategory>
#include <QtCore/QStandardPaths>
#include <QtCore/QTimer>

#include <utility>

Q_LOGGING_CATEGORY(lcEngine, "aile.engine")

namespace Aile {

bool parseListenAddress(const QString &value, QHostAddress *address, quint16 *port)
{
    const qsizetype colon = value.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return false;
    QString host = value.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    if (host == QLatin1String("localhost"))
        host = QStringLiteral("127.0.0.1");
    bool ok = false;
    const uint p = value.mid(colon + 1).toUInt(&ok);
    if (!ok || p > 65535 || !address->setAddress(host))
        return false;
    *port = quint16(p);
    return true;
}

namespace {

// The configuration file checked whole against the store in dataDir as it will be once applied,
// reading that store without writing; nullopt and every problem in error when refused.
std::optional<Config::ConfigFile> checkedConfig(const EngineOptions &options, QString *error)
{
    QFile file(options.configPath);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the configuration file %1: %2").arg(options.configPath, file.errorString());
        return std::nullopt;
    }
    Config::ConfigFile config = Config::ConfigFile::read(file.readAll());
    const QString store = !options.store.isEmpty() ? options.store : config.store;
    const std::optional<Config::Baseline> baseline =
        store.isEmpty() ? Config::Baseline::ofDataDir(options.dataDir, error) : Config::Baseline::ofStore(store, error);
    if (!baseline)
        return std::nullopt;
    const Config::Problems problems = Config::validate(config, *baseline, Config::UnknownKey::Problem, nullptr);
    if (!problems.isEmpty()) {
        *error = config.refusal(problems, options.configPath);
        return std::nullopt;
    }
    return config;
}

} // namespace

QString defaultDataDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

Engine::Engine(EngineOptions options, QObject *parent) : QObject(parent), m_options(std::move(options))
{
    qRegisterMetaType<Aile::Api::EngineStatus>();
    qRegisterMetaType<Aile::Store::TraceRecord>();
    qRegisterMetaType<QList<Aile::Store::TraceRecord>>();
}

Engine::~Engine()
{
    // Connections and requests in flight refer to the context and the router: end them first.
    delete m_nodePinger;
    m_nodePinger = nullptr;
    delete m_server;
    m_server = nullptr;
    delete m_ctx.upstream;
    m_ctx.upstream = nullptr;
    delete m_ctx.traces;
    m_ctx.traces = nullptr;
    m_writer.reset(); // commits what is queued
}

quint16 Engine::port() const
{
    return m_server ? m_server->port() : 0;
}

void Engine::start()
{
    if (m_running)
        return;
    if (!m_options.clock) {
        m_systemClock = std::make_unique<SystemClock>();
        m_ctx.clock = m_systemClock.get();
    } else {
        m_ctx.clock = m_options.clock;
    }
    m_ctx.draw = m_options.drawSeed ? QRandomGenerator(quint32(*m_options.drawSeed)) : QRandomGenerator(QRandomGenerator::system()->generate());

    qCInfo(lcEngine).noquote() << "starting; data in" << m_options.dataDir;
    qCInfo(lcEngine).noquote() << "memory allocator:" << mallocName();
    QString error;
    // The file is checked whole, against the store as it will be, before the store is opened for
    // writing: a refused file leaves the store (or the lack of one) exactly as it was.
    std::optional<Config::ConfigFile> config;
    if (!m_options.configPath.isEmpty())
        config = checkedConfig(m_options, &error);
    m_storeLocation = !m_options.store.isEmpty() ? m_options.store : config ? config->store : QString();
    if (!error.isEmpty() || !openStore(&error) || !applyConfig(config ? &*config : nullptr, &error)) {
        // A refused configuration's lines go out with startFailed; the log keeps its summary.
        qCWarning(lcEngine).noquote() << error.section(QLatin1Char('\n'), -1);
        Q_EMIT startFailed(error);
        return;
    }
    if (!m_options.adminTokenFile.isEmpty())
        provideAdminToken();
    loadState();
    // Health lives in memory only: a restart reads every sharer as neutral.
    m_health = std::make_unique<Health::HealthBook>(m_ctx.clock);
    m_health->setJitterSource(&m_ctx.draw);
    m_ctx.health = m_health.get();
    // Session pins too: a restart starts every conversation fresh.
    m_pins = std::make_unique<Routing::PinBook>(m_ctx.clock);
    m_ctx.pins = m_pins.get();
    // And what is known of node-backed sharers: each is silent until its first ping answer.
    m_nodes = std::make_unique<Health::NodeBook>();
    m_ctx.nodes = m_nodes.get();
    m_ctx.upstream = new Http::UpstreamClient(m_ctx.clock, this);
    m_ctx.traces = new Store::TraceSink(m_writer.get(), this);
    connect(m_ctx.traces, &Store::TraceSink::tracesRecorded, this, &Engine::tracesRecorded);
    // The access log is formatted from the batches the sink publishes, off the request's path.
    // A slice of lines per event-loop turn, so no request waits behind a whole batch's lines.
    m_accessLog = new Log::AccessLogQueue(m_ctx.traces);
    connect(m_ctx.traces, &Store::TraceSink::tracesRecorded, m_accessLog, &Log::AccessLogQueue::append);
    m_secrets = new Secrets::SecretStore(m_options.secretService, m_options.fileSecretsPath, this);
    m_ctx.secrets = m_secrets;
    m_verifier = new Dispatch::Verifier(*m_ctx.clock, m_ctx.settings, m_ctx, *m_ctx.upstream, m_ctx.health, m_ctx.store, this);
    m_ctx.verifier = m_verifier;
    // Each component is handed the parts of the state it uses (docs/architecture.md, "Services").
    m_planner =
        std::make_unique<Routing::RequestPlanner>(Routing::RoutingServices::of(m_ctx, *m_ctx.clock, m_ctx.settings, m_ctx.routing, m_ctx.health,
                                                                               m_ctx.quota, m_ctx.failing, m_ctx.spend, m_ctx.draw, m_ctx.nodes),
                                                  m_ctx.routeTurns, m_ctx.pins, m_ctx.clock);
    const Dispatch::DispatchServices dispatch{*m_ctx.clock,    m_ctx.settings, m_ctx.catalog, m_ctx.sharers, m_ctx.credentials,
                                              *m_ctx.upstream, m_ctx.health,   m_ctx.quota,   m_ctx.failing, m_ctx.pins,
                                              m_ctx.spend,     m_ctx.traces,   m_ctx.store,   m_ctx.nodes};
    buildManagement();
    m_router = std::make_unique<Api::ApiRouter>(m_ctx, m_ctx.adminToken, *m_planner, dispatch, m_management.get());
    m_traceStream = new Api::TraceStream(m_ctx.traces, this); // windows attached over HTTP
    m_router->setTraceStream(m_traceStream);
    m_adminCalls = std::make_unique<Api::AdminCalls>();
    m_adminCalls->status = [this] { return status().toJson(); };
    // Queued, and a moment later: the 202 leaves before the listener closes and aile serve exits.
    m_adminCalls->shutdown = [this] { QTimer::singleShot(100, this, &Engine::stop); };
    m_router->setAdminCalls(m_adminCalls.get());
    m_ctx.adminTokenRef = m_adminTokenRef;
    m_ctx.reloadState = [this] {
        // After an import: read the store again and look up credentials that are new. A secret in
        // memory stays only with the reference it was read for, and never with a sharer that
        // moved to another provider or base URL without a new credential (needsKey).
        const QList<Catalog::Sharer> before = m_ctx.sharers;
        loadState();
        for (const Catalog::Sharer &sh : m_ctx.sharers) {
            const auto old = std::find_if(before.begin(), before.end(), [&](const Catalog::Sharer &b) { return b.handle == sh.handle; });
            if (old == before.end() || old->credentialRef != sh.credentialRef)
                m_ctx.credentials.remove(sh.handle);
            m_ctx.noteCredentialBinding(sh);
            if (m_ctx.credentials.contains(sh.handle) || sh.credentialRef.isEmpty() || sh.needsKey() || sh.usesClientLogin())
                continue;
            const QString handle = sh.handle;
            m_secrets->read(sh.credentialRef, [this, handle](const QString &secret, const QString &err) {
                if (!secret.isEmpty())
                    m_ctx.credentials.insert(handle, secret);
                else
                    m_ctx.credentialErrors.insert(handle, err);
            });
        }
        Q_EMIT statusChanged(status());
    };
    watchSharedStore();
    connect(m_verifier, &Dispatch::Verifier::sharerChanged, this, [this] { Q_EMIT statusChanged(status()); });
    // Whether a keychain answers, for the GUI to say so plainly; read-only, so it never prompts.
    m_secrets->probeKeychain(
        [this](const Secrets::KeychainStatus &k) {
            m_keychainProbed = true;
            m_keychainAvailable = k.available;
            m_keychainError = k.error.message();
            m_keychainErrorKind = k.error.kind();
            if (k.available && !m_madeAdminToken.isEmpty())
                m_secrets->write(AdminToken::keychainReference(), m_madeAdminToken, [](const QString &writeError) {
                    if (!writeError.isEmpty())
                        qCInfo(lcEngine).noquote() << "the admin token was not copied to the keychain:" << writeError;
                });
            m_madeAdminToken.clear();
            Q_EMIT statusChanged(status());
        },
        Secrets::SecretStore::ProbeMode::ReadOnly);
    resolveSecrets();
    // Pinged now (credentials read from the environment or a file are known by here), then every 30 s.
    m_nodePinger = new NodePinger(m_ctx, this);
    m_nodePinger->start();
}

void Engine::buildManagement()
{
    // Each management component with what it uses, asked in this order (the first that takes a
    // call answers it); docs/architecture.md, "What a component depends on".
    const State::SharerBook &sharers = m_ctx;
    const State::KeyBook &keys = m_ctx;
    const Clock &clock = *m_ctx.clock;
    m_management = std::make_unique<Api::ManagementApi>();
    m_management->add(
        std::make_unique<Api::ConfigApi>(sharers, keys, m_ctx.routing, m_ctx.settings, m_ctx.store, clock, m_ctx.adminTokenRef, m_ctx.reloadState));
    m_management->add(std::make_unique<Api::DryRunApi>(Api::DryRunServices{*m_planner, keys, m_ctx.routing, m_ctx.settings, clock, m_ctx.spend}));
    m_management->add(
        std::make_unique<Api::RouteReplayApi>(Replay::LiveState{sharers, keys, m_ctx.settings, m_ctx.routing, clock}, m_ctx.store, m_ctx.traces));
    m_management->add(std::make_unique<Api::RouteTemplateApi>(keys, sharers));
    m_management->add(std::make_unique<Api::CatalogApi>(sharers, *m_ctx.store, m_ctx.reloadState));
    m_management->add(
        std::make_unique<Api::TraceActions>(Api::TraceActions::Services{clock, sharers, m_ctx.store, m_ctx.traces, m_ctx.health, m_ctx.verifier}));
    m_management->add(std::make_unique<Api::UsageApi>(clock, keys, Api::History{m_ctx.store, m_ctx.traces, m_ctx.history}));
    m_management->add(std::make_unique<Api::SharerListApi>(clock, sharers, *m_planner, m_ctx.quota, m_ctx.health));
    m_management->add(std::make_unique<Api::ManagementKeys>(m_ctx, sharers, m_ctx.store, m_ctx.spend, clock));
    m_management->add(std::make_unique<Api::SharerEditApi>(m_ctx, m_ctx.store, m_ctx.health, m_ctx.verifier, m_ctx.secrets, m_ctx.adminTokenRef));
}

bool Engine::openStore(QString *error)
{
    if (m_options.dataDir.isEmpty()) {
        *error = QStringLiteral("no data directory was given");
        return false;
    }
    if (!Store::prepareDataFolder(m_options.dataDir, error)) // 0700 whatever the umask; tightened if it was not
        return false;
    if (m_storeLocation.isEmpty())
        m_storeLocation = QDir(m_options.dataDir).filePath(QStringLiteral("aile.db"));
    m_store = std::make_unique<Store::Store>(m_storeLocation);
    if (!m_store->open(error))
        return false;
    if (m_store->isShared())
        qCInfo(lcEngine).noquote() << "store: shared database" << Store::SqlDialect::redacted(m_storeLocation);
    m_ctx.store = m_store.get();
    m_ctx.spend.attach(m_store.get(), m_ctx.clock);
    m_ctx.spend.prime(Store::utcDay(m_ctx.clock->nowMs()));
    // The usage calls' history (a day's ledger, pages of traces) is read on a thread and connection
    // of its own, never on this one (Api::History).
    m_historyReader = std::make_unique<Store::StoreReader>(m_storeLocation);
    m_ctx.history = m_historyReader.get();
    m_writer = std::make_unique<Store::StoreWriter>(m_storeLocation);
    m_writer->setJournalFolder(m_options.dataDir);
    return m_writer->start(error);
}

void Engine::watchSharedStore()
{
    if (!m_store->isShared())
        return;
    m_sharedHealth = std::make_unique<SharedHealth>(*m_store, *m_health, m_ctx.quota, m_ctx.clock);
    m_sharedHealth->start();
    auto *pins = new SharedPins(*m_store, *m_pins, this);
    pins->start();
    // Another instance changed keys, sharers, routes or settings: read the store again, once per
    // burst of announcements (an import announces many rows in one commit). It learnt something
    // of an account: honour it now.
    auto *feed = new Store::ChangeFeed(m_storeLocation, this);
    QString error;
    if (!feed->start({QLatin1String(Store::ChangeFeed::StateChannel), QLatin1String(Store::ChangeFeed::HealthChannel),
                      QLatin1String(Store::ChangeFeed::PinsChannel)},
                     &error)) {
        qCWarning(lcEngine).noquote() << error << "- what other instances change or learn shows here after a restart";
        delete feed;
        return;
    }
    connect(feed, &Store::ChangeFeed::changed, this, [this, pins](const QString &channel, const QString &payload) {
        if (channel == QLatin1String(Store::ChangeFeed::PinsChannel)) {
            pins->apply(payload);
            return;
        }
        if (channel == QLatin1String(Store::ChangeFeed::HealthChannel)) {
            m_sharedHealth->apply(payload);
            return;
        }
        if (channel != QLatin1String(Store::ChangeFeed::StateChannel) || std::exchange(m_reloadQueued, true))
            return;
        QTimer::singleShot(0, this, [this] {
            m_reloadQueued = false;
            if (m_ctx.reloadState)
                m_ctx.reloadState();
        });
    });
    // A dropped database connection: reconnected with a bounded backoff, the feed listening again;
    // the notices missed meanwhile are made up by reading the shared state again.
    auto *watch = new StoreWatch(*m_store, *feed, this);
    connect(watch, &StoreWatch::reconnected, this, [this] {
        if (m_ctx.reloadState)
            m_ctx.reloadState();
        if (m_sharedHealth)
            m_sharedHealth->start();
    });
    watch->start();
}

bool Engine::applyConfig(const Config::ConfigFile *config, QString *error)
{
    const QJsonValue storedAdmin = m_store->setting(QStringLiteral("adminTokenRef"));
    m_adminTokenRef = storedAdmin.toString();
    if (!config)
        return true;
    // checkedConfig() has accepted it; written in one transaction.
    QString adminRef;
    if (!Config::applyToStore(*config, *m_store, m_ctx.clock->nowMs(), &adminRef, error))
        return false;
    if (!adminRef.isEmpty())
        m_adminTokenRef = adminRef;
    qCInfo(lcEngine).noquote() << QStringLiteral("configuration applied from %1 (%2 sharers, %3 keys)")
                                      .arg(m_options.configPath)
                                      .arg(config->sharers.size())
                                      .arg(config->keys.size());
    return true;
}

void Engine::provideAdminToken()
{
    // A token the configuration names (now or at an earlier start) or the environment gives wins.
    if (!m_adminTokenRef.isEmpty()) {
        qCInfo(lcEngine).noquote() << "admin token: the one the configuration names";
        return;
    }
    if (!qEnvironmentVariableIsEmpty(AdminToken::EnvironmentVariable)) {
        m_adminTokenRef = QStringLiteral("env:") + QLatin1String(AdminToken::EnvironmentVariable);
        qCInfo(lcEngine).noquote() << QStringLiteral("admin token: from $%1").arg(QLatin1String(AdminToken::EnvironmentVariable));
        return;
    }
    const QString path = m_options.adminTokenFile;
    QString error;
    bool tightened = false;
    QString token = AdminToken::readFile(path, &error, &tightened);
    if (tightened)
        qCWarning(lcEngine).noquote() << path << "could be read by others; it is now readable only by you (mode 0600)";
    if (!token.isEmpty()) {
        qCInfo(lcEngine).noquote() << "admin token: in" << path << "(aile commands run by you on this machine read it there)";
    } else {
        token = AdminToken::generate();
        if (!AdminToken::writeFile(path, token, &error)) {
            // Another engine may have made it between our read and our write.
            token = AdminToken::readFile(path, &error);
            if (token.isEmpty()) {
                qCWarning(lcEngine).noquote() << "no admin token, so the management API stays closed:" << error;
                return;
            }
        } else {
            m_madeAdminToken = token;
        }
        qCInfo(lcEngine).noquote() << "admin token: created in" << path
                                   << "(mode 0600: readable only by you; aile commands run by you on this machine read it there)";
    }
    m_adminTokenRef = token; // a literal: used for this start, never stored or exported
}

void Engine::loadState()
{
    m_ctx.catalog = Catalog::Catalog::builtIn();
    for (const Catalog::ProviderInfo &p : m_store->customProviders())
        m_ctx.catalog.upsertProvider(p);
    for (const Catalog::ModelInfo &m : m_store->modelOverrides())
        m_ctx.catalog.upsertModel(m);
    m_ctx.sharers = m_store->sharers();
    m_ctx.keys = m_store->keys();
    m_ctx.settings = EngineSettings();
    m_ctx.settings.apply(m_store->setting(QStringLiteral("settings")).toObject());
    m_ctx.routing = m_store->setting(QStringLiteral("routing")).toObject();
}

void Engine::resolveSecrets()
{
    // Credentials are read once into memory so the request path never waits on a keychain.
    m_pendingSecrets = 1;
    auto done = [this] {
        if (--m_pendingSecrets == 0)
            listen();
    };
    for (const Catalog::Sharer &s : m_ctx.sharers) {
        m_ctx.noteCredentialBinding(s);
        if (s.credentialRef.isEmpty() || s.needsKey() || s.usesClientLogin()) { // a client login is the request's
            if (s.needsKey())
                qCWarning(lcEngine).noquote() << "sharer" << s.handle << Catalog::needsKeyMessage();
            continue;
        }
        ++m_pendingSecrets;
        const QString handle = s.handle;
        m_secrets->read(s.credentialRef, [this, handle, done](const QString &secret, const QString &error) {
            if (!secret.isEmpty()) {
                m_ctx.credentials.insert(handle, secret);
                m_ctx.credentialErrors.remove(handle);
            } else {
                m_ctx.credentialErrors.insert(handle, error);
                qCWarning(lcEngine).noquote() << "sharer" << handle << "has no credential:" << error;
            }
            done();
        });
    }
    if (!m_adminTokenRef.isEmpty()) {
        const bool isRef = Secrets::Reference::parse(m_adminTokenRef).has_value();
        if (!isRef) {
            m_ctx.adminToken = m_adminTokenRef;
        } else {
            ++m_pendingSecrets;
            m_secrets->read(m_adminTokenRef, [this, done](const QString &secret, const QString &error) {
                m_ctx.adminToken = secret;
                if (secret.isEmpty())
                    qCWarning(lcEngine).noquote() << "the admin token is unavailable:" << error;
                done();
            });
        }
    }
    done();
}

void Engine::listen()
{
    if (!m_options.listenAddress.isLoopback() && !m_ctx.settings.allowRemote) {
        const QString error = QStringLiteral("refusing to listen on %1: the proxy listens on loopback only unless "
                                             "settings.allowRemote is true")
                                  .arg(m_options.listenAddress.toString());
        Q_EMIT startFailed(error);
        return;
    }
    m_server = new Http::HttpServer(m_ctx.clock, m_router.get(), this);
    QString error;
    if (!m_server->listen(m_options.listenAddress, m_options.port, &error)) {
        error = QStringLiteral("cannot listen on %1:%2: %3").arg(m_options.listenAddress.toString()).arg(m_options.port).arg(error);
        qCWarning(lcEngine).noquote() << error;
        Q_EMIT startFailed(error);
        return;
    }
    m_router->setListenPort(m_server->port());
    m_verifier->startProbing(m_ctx.settings.probeIntervalMs);
    m_running = true;
    qCInfo(lcEngine).noquote() << QStringLiteral("listening on %1:%2 (%3 sharers, %4 keys)")
                                      .arg(m_server->address().toString())
                                      .arg(m_server->port())
                                      .arg(m_ctx.sharers.size())
                                      .arg(m_ctx.keys.size());
    Q_EMIT started(m_server->address().toString(), m_server->port());
    Q_EMIT statusChanged(status());
}

void Engine::stop()
{
    if (m_server)
        m_server->close();
    delete m_nodePinger; // a stopped engine pings nobody; start() makes a new one
    m_nodePinger = nullptr;
    if (m_ctx.traces)
        m_ctx.traces->publishNow(); // the last requests reach the window and the access log
    if (m_accessLog)
        m_accessLog->flush(); // every access line is written before we say stopped
    if (m_traceStream)
        m_traceStream->finishAll(); // and the windows attached over HTTP, whose streams end here
    if (m_writer)
        m_writer->flush(); // every trace and ledger entry so far is on disk before we say stopped
    if (m_running)
        qCInfo(lcEngine).noquote() << "stopped";
    m_running = false;
    Q_EMIT stopped();
}

void Engine::manage(quint64 id, const QString &method, const QString &path, const QByteArray &body)
{
    if (!m_management) {
        Q_EMIT managementReplied(id, 503, QByteArray("{\"error\":{\"message\":\"the engine is not running\"}}"));
        return;
    }
    const qsizetype q = path.indexOf(QLatin1Char('?'));
    Api::ManagementRequest request{method.toLatin1(), (q < 0 ? path : path.left(q)).toUtf8(), q < 0 ? QByteArray() : path.mid(q + 1).toUtf8(), body};
    if (m_adminCalls && Api::AdminCalls::handles(request.path)) {
        m_adminCalls->handle(request, [this, id](int code, const QJsonObject &reply) {
            Q_EMIT managementReplied(id, code, QJsonDocument(reply).toJson(QJsonDocument::Compact));
        });
        return;
    }
    if (!m_management->handles(request.path)) {
        Q_EMIT managementReplied(id, 404, QByteArray("{\"error\":{\"message\":\"no such management endpoint\"}}"));
        return;
    }
    m_management->handle(request, this, [this, id, request](int code, const QJsonObject &reply) {
        Q_EMIT managementReplied(id, code, QJsonDocument(reply).toJson(QJsonDocument::Compact));
        if (code == 200 && request.method != "GET")
            Q_EMIT statusChanged(status());
    });
}

void Engine::requestStatus()
{
    Q_EMIT statusChanged(status());
}

Api::EngineStatus Engine::status() const
{
    Api::EngineStatus s;
    s.listening = m_running;
    if (m_server) {
        s.address = m_server->address().toString();
        s.port = m_server->port();
    }
    for (const Catalog::Sharer &sh : m_ctx.sharers) {
        QJsonObject o = sh.toJson();
        Api::SharerStatus row = Api::SharerStatus::fromJson(o);
        row.credentialAvailable = m_ctx.credentials.contains(sh.handle) || sh.usesClientLogin();
        row.credentialError = m_ctx.credentialErrors.value(sh.handle);
        row.needsKey = sh.needsKey();
        s.sharers.append(row);
    }
    for (const Keys::ApiKey &k : m_ctx.keys)
        s.keys.append(Api::KeyInfo::fromJson(k.toJson())); // KeyInfo has no field for the hash
    for (const Catalog::ProviderInfo &p : m_ctx.catalog.providers())
        s.providers.append(Api::ProviderStatus::fromJson(p.toJson()));
    s.keychainProbed = m_keychainProbed;
    s.keychainAvailable = m_keychainAvailable;
    s.keychainError = m_keychainError;
    s.keychainErrorKind = m_keychainErrorKind;
    s.secretsFile = m_options.fileSecretsPath;
    s.pid = QCoreApplication::applicationPid();
    s.program = QFileInfo(QCoreApplication::applicationFilePath()).fileName();
    s.version = QCoreApplication::applicationVersion();
    return s;
}

} // namespace Aile
