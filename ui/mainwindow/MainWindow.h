#pragma once

#include "host/Engine.h"
#include "store/StoreReader.h"

#include <QtWidgets/QMainWindow>

#include <memory>

class QAction;
class QTabWidget;
class QTimer;

namespace Aile {
class EngineHost;
}

namespace Aile::Ui {

class ChartsView;
class ConnectToolDialog;
class EngineLink;
class GetStartedPanel;
class KeysView;
class ManagementClient;
class Notifications;
class SharersView;
class StatusBanner;
class TracesView;
class TrayIcon;

/// The main window: proxy status and address, then the Sharers, Traces and Charts pages.
/// It talks to the engine only through ManagementClient and EngineHost's queued signals, and reads
/// the store's history through a StoreReader (its own read-only connection on its own thread), so
/// no SQL runs on the GUI thread. Closing it stops the engine; the application quits once the
/// engine says it stopped.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    struct Options
    {
        QString dataDir;      // where aile.db lives; the window opens it read-only once the engine started
        QString configPath;   // the --config file, read for plain keys the Connect dialog can offer
        QString settingsPath; // an INI file for the layout; empty: the platform's usual place
        bool showTrayIcon = true;
        QString logDir; // where the app writes aile.log (Help ▸ Open log folder); empty: the menu item is off
    };

    MainWindow(EngineHost *host, Options options, QWidget *parent = nullptr);
    ~MainWindow() override;

    StatusBanner *banner() const { return m_banner; }
    SharersView *sharersView() const { return m_sharers; }
    TracesView *tracesView() const { return m_traces; }
    ChartsView *chartsView() const { return m_charts; }
    KeysView *keysView() const { return m_keys; }
    Notifications *notifications() const { return m_notifications; }
    ManagementClient *managementClient() const { return m_management; }
    QTabWidget *tabs() const { return m_tabs; }
    TrayIcon *trayIcon() const { return m_tray; }
    GetStartedPanel *getStartedPanel() const { return m_getStarted; }
    /// Which engine the window drives (embedded, an attached aile serve, a team server).
    EngineLink *engineLink() const { return m_link; }
    /// The dialog, created on first use.
    ConnectToolDialog *connectToolDialog();
    /// The store reader, once the engine started (null before).
    Store::StoreReader *storeReader() const { return m_reader.get(); }
    double spentToday() const { return m_spentToday; }
    /// http://address:port while listening, else empty.
    QString baseUrl() const;

    void showConnectTool();
    /// File ▸ Connect to a team server…
    void showTeamServerDialog();
    /// Help ▸ Get started: shows the checklist again.
    void showGetStarted();
    /// Stops the engine and hides the window; closing does the same.
    void requestQuit();

Q_SIGNALS:
    /// The window closed and asked the engine to stop; EngineHost::stopped follows.
    void quitRequested();

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void buildMenus();
    void wireGetStarted();
    void handleStarted(const QString &address, quint16 port);
    void handleStartFailed(const QString &error);
    void handleStatus(const Aile::Api::EngineStatus &status);
    void handleTraces(const QList<Aile::Store::TraceRecord> &traces);
    void handleStopped();
    /// Shows the Sharers page and presses one of its buttons (from Get started); a button the
    /// engine's first status has not enabled yet is pressed as soon as that status comes.
    void pressSharersButton(const QString &name);
    /// Minimised or hidden: the Traces table stops taking live rows until it can be seen again
    /// (the tray, notifications and spend still take every batch).
    void updateLiveDeferral();
    void applyLink();
    void openStore();
    void refreshSpend();
    void applySpend();
    void saveLayout() const;
    void restoreLayout();
    QHash<QString, QString> plainKeysFromConfig() const;

    EngineHost *m_host;
    Options m_options;
    EngineLink *m_link;
    QAction *m_disconnect = nullptr;
    void settleGetStarted();

    std::unique_ptr<Store::StoreReader> m_reader;
    StatusBanner *m_banner;
    QTabWidget *m_tabs;
    SharersView *m_sharers;
    TracesView *m_traces;
    ChartsView *m_charts;
    ManagementClient *m_management;
    KeysView *m_keys;
    Notifications *m_notifications;
    TrayIcon *m_tray;
    GetStartedPanel *m_getStarted;
    ConnectToolDialog *m_connect = nullptr;
    QTimer *m_spendTimer;
    QTimer *m_statusTimer;
    Api::EngineStatus m_lastStatus;
    QString m_address;
    QString m_localHost; // where the embedded engine listens, kept while the window shows another
    quint16 m_localPort = 0;
    QString m_startError; // why the embedded engine did not start
    double m_spentToday = 0;
    bool m_quitting = false;
    bool m_firstStatus = true;
    bool m_statusSeen = false;
    bool m_historyKnown = false;
    QString m_pendingSharersButton; // pressed before the engine's status enabled it
};

} // namespace Aile::Ui
