#include "MainWindow.h"

#include "EngineLink.h"
#include "GetStartedPanel.h"
#include "Notifications.h"
#include "SubscriptionWatch.h"
#include "StatusBanner.h"
#include "TeamServerDialog.h"
#include "TrayIcon.h"
#include "charts/ChartsView.h"
#include "common/ManagementClient.h"
#include "config/ConfigFile.h"
#include "host/EngineHost.h"
#include "dialogs/ConnectToolDialog.h"
#include "keys/KeysModel.h"
#include "keys/KeysView.h"
#include "sharers/SharersView.h"
#include "store/Store.h"
#include "traces/TraceTableModel.h"
#include "traces/TracesView.h"

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QLocale>
#include <QtCore/QLoggingCategory>
#include <QtCore/QSettings>
#include <QtCore/QTimer>
#include <QtGui/QCloseEvent>
#include <QtGui/QDesktopServices>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QVBoxLayout>

#include <utility>

Q_LOGGING_CATEGORY(lcUi, "aile.ui")

namespace Aile::Ui {

namespace {

std::unique_ptr<QSettings> openSettings(const QString &path)
{
    if (path.isEmpty())
        return std::make_unique<QSettings>(QStringLiteral("aile"), QStringLiteral("aile-desktop"));
    return std::make_unique<QSettings>(path, QSettings::IniFormat);
}

} // namespace

MainWindow::MainWindow(EngineHost *host, Options options, QWidget *parent)
    : QMainWindow(parent), m_host(host), m_options(std::move(options)), m_banner(new StatusBanner(this)), m_tabs(new QTabWidget(this)),
      m_sharers(new SharersView(this)), m_traces(new TracesView(this)), m_charts(new ChartsView(this)),
      m_management(new ManagementClient(host, this)), m_keys(new KeysView(this)), m_notifications(new Notifications(this)),
      m_tray(new TrayIcon(this)), m_getStarted(new GetStartedPanel(this)), m_spendTimer(new QTimer(this)), m_statusTimer(new QTimer(this))
{
    m_link = new EngineLink(m_host, m_management, this);
    // Without a store file of its own (attached to another engine) the Charts page asks the engine.
    m_charts->setClient(m_management);
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Aile"));
    setWindowIcon(statusIcon(ProxyState::Listening));
    m_tabs->setObjectName(QStringLiteral("mainTabs"));
    m_tabs->setAccessibleName(tr("Pages"));
    m_tabs->addTab(m_sharers, tr("&Sharers"));
    m_tabs->addTab(m_traces, tr("&Traces"));
    m_tabs->addTab(m_charts, tr("C&harts"));
    m_tabs->addTab(m_keys, tr("&Keys"));
    m_keys->setClient(m_management);
    // A key made, changed or revoked: the other views read the keys from the next status.
    connect(m_keys, &KeysView::keysChanged, m_management, &ManagementClient::requestStatus);
    connect(m_keys, &KeysView::listed, this, &MainWindow::applySpend);
    m_notifications->setNotifier([this](const QString &title, const QString &message) {
        if (m_tray->isVisible() && QSystemTrayIcon::supportsMessages())
            m_tray->showMessage(title, message, QSystemTrayIcon::Warning);
    });

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->addWidget(m_banner);
    layout->addWidget(m_getStarted);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);
    buildMenus();
    wireGetStarted();

    m_sharers->setClient(m_management);
    connect(m_host, &EngineHost::started, this, &MainWindow::handleStarted);
    connect(m_host, &EngineHost::startFailed, this, &MainWindow::handleStartFailed);
    connect(m_management, &ManagementClient::statusChanged, this, &MainWindow::handleStatus);
    connect(m_link, &EngineLink::changed, this, &MainWindow::applyLink);
    connect(m_link, &EngineLink::failed, this, [this](const QString &message) { QMessageBox::warning(this, tr("Take over"), message); });
    connect(m_banner, &StatusBanner::actionTriggered, this, [this] {
        switch (m_link->kind()) {
        case EngineLink::Kind::Service: return m_link->takeOver();
        case EngineLink::Kind::TeamServer: return m_link->backToLocal();
        case EngineLink::Kind::Embedded: return m_link->useAnotherPort();
        }
    });
    // Finished requests come through the client, as they would from an engine over HTTP.
    connect(m_management, &ManagementClient::tracesRecorded, this, &MainWindow::handleTraces);
    m_management->watchTraces();
    // Without a store file (an engine over HTTP) the Traces page pages through the API; batches
    // lost on the way (a cut stream) read the page again.
    m_traces->model()->setClient(m_management);
    connect(m_management, &ManagementClient::tracesMissed, m_traces->model(), &TraceTableModel::reload);
    connect(m_management, &ManagementClient::transportChanged, m_traces->model(), &TraceTableModel::forgetLive);
    m_traces->setClient(m_management); // a trace's attempt rows act through the management API
    connect(m_host, &EngineHost::stopped, this, &MainWindow::handleStopped);

    connect(m_tray, &TrayIcon::showWindowRequested, this, [this] {
        showNormal();
        raise();
        activateWindow();
    });
    connect(m_tray, &TrayIcon::connectToolRequested, this, &MainWindow::showConnectTool);
    connect(m_tray, &TrayIcon::quitRequested, this, &MainWindow::requestQuit);
    if (m_options.showTrayIcon && QSystemTrayIcon::isSystemTrayAvailable())
        m_tray->show();
    // Subscriptions' quota windows: the tray's lines and their notifications (docs/subscriptions.md).
    auto *subscriptions = new SubscriptionWatch(this);
    subscriptions->setObjectName(QStringLiteral("subscriptionWatch"));
    subscriptions->setNotifier([this](const QString &title, const QString &message) {
        if (m_tray->isVisible() && QSystemTrayIcon::supportsMessages())
            m_tray->showMessage(title, message, QSystemTrayIcon::Information);
    });
    connect(subscriptions, &SubscriptionWatch::linesChanged, m_tray, &TrayIcon::setSubscriptionLines);
    subscriptions->setClient(m_management);
    auto *afterTraces = new QTimer(this); // one listing per burst of traces, not one per batch
    afterTraces->setSingleShot(true);
    afterTraces->setInterval(2000);
    connect(afterTraces, &QTimer::timeout, subscriptions, &SubscriptionWatch::refresh);
    connect(m_management, &ManagementClient::tracesRecorded, afterTraces, qOverload<>(&QTimer::start));

    connect(m_traces, &TracesView::exportFinished, this, [this](int count, const QString &error) {
        if (count < 0)
            QMessageBox::warning(this, tr("Export failed"), error);
        else
            statusBar()->showMessage(tr("Traces exported: %1").arg(QLocale().toString(count)), 8000);
    });

    // Spend is re-read after each batch (coalesced) and every minute, for the day's rollover.
    m_spendTimer->setSingleShot(true);
    m_spendTimer->setInterval(1000);
    connect(m_spendTimer, &QTimer::timeout, this, &MainWindow::refreshSpend);
    auto *minute = new QTimer(this);
    minute->start(60 * 1000);
    connect(minute, &QTimer::timeout, this, &MainWindow::refreshSpend);
    // Credentials and sharers can change inside the engine; a status is cheap and queued.
    m_statusTimer->setInterval(15 * 1000);
    connect(m_statusTimer, &QTimer::timeout, m_management, &ManagementClient::requestStatus);

    restoreLayout();
}

MainWindow::~MainWindow()
{
    // The reader is a member and goes before QMainWindow deletes the views that read through it.
    m_traces->setReader(nullptr, {});
    m_charts->setReader(nullptr);
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *exportAction = file->addAction(tr("&Export traces…"), m_traces, &TracesView::chooseExportFile);
    exportAction->setObjectName(QStringLiteral("actionExport"));
    exportAction->setShortcut(Qt::CTRL | Qt::Key_E);
    file->addSeparator();
    QAction *team = file->addAction(tr("Connect to a &team server…"), this, &MainWindow::showTeamServerDialog);
    team->setObjectName(QStringLiteral("actionConnectTeamServer"));
    m_disconnect = file->addAction(tr("&Disconnect"), m_link, &EngineLink::backToLocal);
    m_disconnect->setObjectName(QStringLiteral("actionDisconnect"));
    m_disconnect->setEnabled(false);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &MainWindow::requestQuit);
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    const QString pages[] = {tr("&Sharers"), tr("&Traces"), tr("&Charts"), tr("&Keys")};
    for (int i = 0; i < 4; ++i) {
        QAction *page = view->addAction(pages[i], this, [this, i] { m_tabs->setCurrentIndex(i); });
        page->setObjectName(QStringLiteral("actionPage%1").arg(i + 1));
        page->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }
    view->addSeparator();
    QAction *find = view->addAction(tr("&Find in traces"), this, [this] {
        m_tabs->setCurrentWidget(m_traces);
        m_traces->focusSearch();
    });
    find->setObjectName(QStringLiteral("actionFind"));
    find->setShortcut(QKeySequence::Find);

    QMenu *tools = menuBar()->addMenu(tr("T&ools"));
    QAction *connectTool = tools->addAction(tr("&Connect a tool…"), this, &MainWindow::showConnectTool);
    connectTool->setObjectName(QStringLiteral("actionConnectTool"));
    connectTool->setShortcut(Qt::CTRL | Qt::Key_K);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *getStarted = help->addAction(tr("&Get started"), this, &MainWindow::showGetStarted);
    getStarted->setObjectName(QStringLiteral("actionGetStarted"));
    QAction *logs = help->addAction(tr("Open &log folder"), this, [this] {
        QDir().mkpath(m_options.logDir);
        QDesktopServices::openUrl(QUrl::fromLocalFile(m_options.logDir));
    });
    logs->setObjectName(QStringLiteral("actionOpenLogFolder"));
    logs->setEnabled(!m_options.logDir.isEmpty());
    logs->setToolTip(m_options.logDir);
}

void MainWindow::wireGetStarted()
{
    // Shown until the user got through it once or hid it; the engine's state ticks the steps.
    {
        const std::unique_ptr<QSettings> settings = openSettings(m_options.settingsPath);
        m_getStarted->setVisible(!settings->value(QStringLiteral("getStarted/dismissed")).toBool()
                                 && !settings->value(QStringLiteral("getStarted/done")).toBool());
    }
    connect(m_getStarted, &GetStartedPanel::dismissed, this,
            [this] { openSettings(m_options.settingsPath)->setValue(QStringLiteral("getStarted/dismissed"), true); });
    connect(m_getStarted, &GetStartedPanel::progressed, this, [this] {
        if (m_getStarted->allDone())
            openSettings(m_options.settingsPath)->setValue(QStringLiteral("getStarted/done"), true);
    });
    connect(m_getStarted, &GetStartedPanel::addSharerRequested, this, [this] { pressSharersButton(QStringLiteral("addSharerButton")); });
    connect(m_getStarted, &GetStartedPanel::testModelRequested, this, [this] { pressSharersButton(QStringLiteral("testModelButton")); });
    // The key is made through the Connect a tool dialog, which then fills it into the settings.
    connect(m_getStarted, &GetStartedPanel::createKeyRequested, this, [this] { connectToolDialog()->newKey(); });
    connect(m_getStarted, &GetStartedPanel::connectToolRequested, this, &MainWindow::showConnectTool);
    connect(m_getStarted, &GetStartedPanel::testRequestRequested, this, [this] {
        showConnectTool();
        m_connect->testConnection();
    });
    connect(m_getStarted, &GetStartedPanel::showTracesRequested, this, [this] { m_tabs->setCurrentWidget(m_traces); });
}

void MainWindow::showGetStarted()
{
    openSettings(m_options.settingsPath)->setValue(QStringLiteral("getStarted/dismissed"), false);
    m_getStarted->show();
}

QString MainWindow::baseUrl() const
{
    return m_address.isEmpty() ? QString() : QStringLiteral("http://") + m_address;
}

void MainWindow::handleStarted(const QString &address, quint16 port)
{
    m_localHost = address;
    m_localPort = port;
    m_startError.clear();
    if (m_link->kind() != EngineLink::Kind::Embedded)
        return; // the embedded engine serves the user's tools; the window shows another
    m_address = QStringLiteral("%1:%2").arg(address).arg(port);
    m_banner->setListening(address, port);
    m_tray->setProxyState(ProxyState::Listening, m_banner->stateText());
    openStore();
    m_statusTimer->start();
    if (m_connect)
        m_connect->setBaseUrl(baseUrl());
}

void MainWindow::handleStartFailed(const QString &error)
{
    m_startError = error;
    if (m_link->kind() != EngineLink::Kind::Embedded)
        return;
    m_address.clear();
    m_banner->setFailed(error);
    m_tray->setProxyState(ProxyState::Failed, m_banner->stateText());
    // The database may exist from an earlier run even though this one could not listen.
    openStore();
}

void MainWindow::applyLink()
{
    // The pages never ask which engine this is; the banner, the title and the store reader do.
    const EngineLink::Kind kind = m_link->kind();
    m_disconnect->setEnabled(kind == EngineLink::Kind::TeamServer);
    if (kind == EngineLink::Kind::Embedded) {
        setWindowTitle(tr("Aile"));
        m_banner->setAction({});
        if (!m_link->heldBy().isEmpty()) {
            m_banner->setFailed(tr("%1 is held by %2").arg(m_link->localAuthority(), m_link->heldBy()));
            m_banner->setAction(tr("Use another port"), QStringLiteral("useAnotherPortButton"));
        } else if (!m_startError.isEmpty()) {
            m_banner->setFailed(m_startError);
        } else if (m_localPort != 0 && m_host->isRunning()) {
            // Back from another engine: the embedded one has been listening all along.
            handleStarted(m_localHost, m_localPort);
            return;
        } else {
            m_banner->setStarting();
        }
        m_tray->setProxyState(m_banner->state(), m_banner->stateText());
        return;
    }
    // Another engine: this store's rows leave the pages; that engine's come through its API.
    m_traces->setReader(nullptr, {});
    m_charts->setReader(nullptr);
    m_reader.reset();
    // The Get started checklist's history, from that engine's API as the store would have said.
    Store::TraceQuery any;
    any.limit = 1;
    m_management->tracePage(any, this, [this](const Reply<TracePage> &all) {
        Store::TraceQuery served;
        served.limit = 1;
        served.status = 200;
        m_management->tracePage(served, this, [this, seen = all.value.total > 0](const Reply<TracePage> &answered) {
            m_getStarted->noteHistory(seen, answered.value.total > 0);
            m_historyKnown = true;
            settleGetStarted();
        });
    });
    m_address = m_link->url().authority();
    if (m_connect)
        m_connect->setBaseUrl(baseUrl());
    m_statusTimer->start();
    const QString pid = m_link->pid() > 0 ? QString::number(m_link->pid()) : QStringLiteral("…");
    if (kind == EngineLink::Kind::Service) {
        const QString who =
            m_link->program().isEmpty() || m_link->program() == QLatin1String("aile") ? QStringLiteral("aile serve") : m_link->program();
        setWindowTitle(tr("Aile — %1 (pid %2)").arg(who, pid));
        m_banner->setAttached(tr("Attached to %1 (pid %2) on %3").arg(who, pid, m_address));
        m_banner->setAction(m_link->takingOver() ? tr("Taking over…") : tr("Take over"), QStringLiteral("takeOverButton"));
        m_banner->actionButton()->setEnabled(!m_link->takingOver());
        m_banner->actionButton()->setToolTip(tr("Stop %1 and run the proxy inside this window instead").arg(who));
    } else {
        const QString url = m_link->url().toDisplayString(QUrl::RemoveUserInfo);
        setWindowTitle(tr("Aile — team server %1").arg(url));
        m_banner->setAttached(tr("Connected to the team server %1").arg(url));
        m_banner->setAction(tr("Disconnect"), QStringLiteral("disconnectButton"));
        m_banner->actionButton()->setToolTip(tr("Back to the engine on this computer"));
    }
    m_tray->setProxyState(ProxyState::Listening, m_banner->stateText());
}

void MainWindow::showTeamServerDialog()
{
    auto *dialog = findChild<TeamServerDialog *>();
    if (!dialog) {
        dialog = new TeamServerDialog(m_options.settingsPath, this);
        connect(dialog, &TeamServerDialog::connectRequested, this,
                [this](const QUrl &url, const QString &token) { m_link->attach(url, token, EngineLink::Kind::TeamServer); });
    }
    dialog->open();
}

void MainWindow::pressSharersButton(const QString &name)
{
    m_tabs->setCurrentWidget(m_sharers);
    if (m_sharers->selectedHandle().isEmpty() && !m_lastStatus.sharers.isEmpty())
        m_sharers->selectHandle(m_lastStatus.sharers.first().config.handle);
    m_pendingSharersButton.clear();
    if (auto *b = m_sharers->findChild<QPushButton *>(name); b && b->isEnabled())
        b->click();
    else if (!m_statusSeen)
        m_pendingSharersButton = name;
}

void MainWindow::handleStatus(const Aile::Api::EngineStatus &status)
{
    m_lastStatus = status;
    m_sharers->setStatus(status);
    m_traces->setKeys(status.keys);
    m_traces->setSharers(status.sharers);
    m_charts->setKeys(status.keys);
    m_keys->setSharers(status.sharers);
    m_keys->refresh();
    m_notifications->noteStatus(status);
    m_getStarted->setStatus(status);
    // A user who got through before (the store's history says so) opens on the pages; one who
    // finishes now sees every step ticked until they hide the list.
    m_statusSeen = true;
    settleGetStarted();
    if (!m_pendingSharersButton.isEmpty())
        pressSharersButton(std::exchange(m_pendingSharersButton, {}));
    if (m_connect) {
        m_connect->setKeys(status.keys, plainKeysFromConfig());
        m_connect->setProviders(status.providers);
        m_connect->setSharers(status.sharers);
    }
}

void MainWindow::handleTraces(const QList<Aile::Store::TraceRecord> &traces)
{
    m_traces->addLive(traces);
    m_charts->noteLive(traces);
    m_notifications->noteTraces(traces);
    m_getStarted->noteTraces(traces);
    if (!m_spendTimer->isActive())
        m_spendTimer->start();
}

void MainWindow::openStore()
{
    // The local store is read only while the window drives the embedded engine: another engine's
    // history comes through its API, and nothing of this store is mixed in.
    if (m_reader || m_options.dataDir.isEmpty() || m_link->kind() != EngineLink::Kind::Embedded)
        return;
    const QString path = QDir(m_options.dataDir).filePath(QStringLiteral("aile.db"));
    if (!QFile::exists(path))
        return;
    // A reader that cannot open the file logs why; live rows still show, only history is missing.
    m_reader = std::make_unique<Store::StoreReader>(path);
    m_traces->setReader(m_reader.get(), path);
    m_charts->setReader(m_reader.get());
    m_reader->read<std::pair<bool, bool>>(
        "history",
        [](const Store::Store &store) {
            Store::TraceQuery served;
            served.status = 200;
            return std::pair{store.traceCount(Store::TraceQuery()) > 0, store.traceCount(served) > 0};
        },
        this,
        [this](std::pair<bool, bool> history) {
            m_getStarted->noteHistory(history.first, history.second);
            m_historyKnown = true;
            settleGetStarted();
        });
    refreshSpend();
}

void MainWindow::settleGetStarted()
{
    // A user who got through before (the store's history says so) opens on the pages; one who
    // finishes now sees every step ticked until they hide the list.
    if (!m_firstStatus || !m_statusSeen || !m_historyKnown)
        return;
    if (m_getStarted->allDone())
        m_getStarted->hide();
    m_firstStatus = false;
}

void MainWindow::refreshSpend()
{
    // Each key's spend today, and each of its routes', come with the list (GET /keys): the
    // engine's own running sums, the ones its budgets are checked against. applySpend follows.
    m_keys->refresh();
}

void MainWindow::applySpend()
{
    // Reading the day's ledger instead would scan every request of the day, once a second under
    // load; the engine already holds the sums. As ledger lines for the notifications: each route's
    // spend, and the rest of the key's under no route.
    const QString day = Store::utcDay(QDateTime::currentMSecsSinceEpoch());
    QList<Store::LedgerEntry> sums;
    double total = 0;
    for (int row = 0; row < m_keys->model()->rowCount(); ++row) {
        const Api::KeyInfo key = m_keys->model()->key(row);
        total += key.spentTodayUsd;
        double routed = 0;
        for (const Api::RouteSpend &route : key.routeSpend) {
            Store::LedgerEntry e;
            e.day = day;
            e.keyId = key.id;
            e.route = route.name;
            e.costUsd = route.spentUsd;
            routed += route.spentUsd;
            sums.append(e);
        }
        Store::LedgerEntry rest;
        rest.day = day;
        rest.keyId = key.id;
        rest.costUsd = key.spentTodayUsd - routed;
        sums.append(rest);
    }
    m_notifications->noteLedger(day, sums);
    m_spentToday = total;
    m_banner->setSpentToday(total);
    m_tray->setSpentToday(total);
}

ConnectToolDialog *MainWindow::connectToolDialog()
{
    if (!m_connect) {
        m_connect = new ConnectToolDialog(this);
        m_connect->setBaseUrl(baseUrl());
        m_connect->setKeys(m_lastStatus.keys, plainKeysFromConfig());
        m_connect->setProviders(m_lastStatus.providers);
        m_connect->setSharers(m_lastStatus.sharers);
        m_connect->setClient(m_management);
        connect(m_connect, &ConnectToolDialog::keyCreated, m_management, &ManagementClient::requestStatus);
        connect(m_connect, &ConnectToolDialog::showTraceRequested, this, [this](const QString &id) {
            m_tabs->setCurrentWidget(m_traces);
            m_traces->revealTrace(id);
            showNormal();
            raise();
        });
    }
    return m_connect;
}

void MainWindow::showConnectTool()
{
    ConnectToolDialog *dialog = connectToolDialog();
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

QHash<QString, QString> MainWindow::plainKeysFromConfig() const
{
    QHash<QString, QString> keys;
    if (m_options.configPath.isEmpty())
        return keys;
    QString error;
    if (const auto config = Config::ConfigFile::load(m_options.configPath, &error))
        for (const Config::ProvisionedKey &k : config->keys)
            if (!k.plainKey.isEmpty())
                keys.insert(k.name, k.plainKey);
    return keys;
}

void MainWindow::requestQuit()
{
    close();
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    updateLiveDeferral();
}

void MainWindow::hideEvent(QHideEvent *event)
{
    QMainWindow::hideEvent(event);
    updateLiveDeferral();
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::WindowStateChange)
        updateLiveDeferral();
}

void MainWindow::updateLiveDeferral()
{
    m_traces->setLiveDeferred(!isVisible() || isMinimized());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_quitting) {
        m_quitting = true;
        saveLayout();
        m_banner->setStopping();
        m_tray->setProxyState(ProxyState::Stopping, m_banner->stateText());
        m_statusTimer->stop();
        if (m_connect)
            m_connect->hide();
        hide();
        Q_EMIT quitRequested();
        m_host->stop();
    }
    event->accept();
}

void MainWindow::handleStopped()
{
    m_tray->hide();
    m_address.clear();
}

void MainWindow::saveLayout() const
{
    const std::unique_ptr<QSettings> settings = openSettings(m_options.settingsPath);
    settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings->setValue(QStringLiteral("window/state"), saveState());
    settings->setValue(QStringLiteral("window/page"), m_tabs->currentIndex());
    m_traces->saveLayout(*settings);
}

void MainWindow::restoreLayout()
{
    const std::unique_ptr<QSettings> settings = openSettings(m_options.settingsPath);
    if (!restoreGeometry(settings->value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1200, 760);
    restoreState(settings->value(QStringLiteral("window/state")).toByteArray());
    m_tabs->setCurrentIndex(settings->value(QStringLiteral("window/page"), 1).toInt());
    m_traces->restoreLayout(*settings);
}

} // namespace Aile::Ui
