// aile-desktop: the window, with the proxy engine on its own thread.
#include "core/AdminToken.h"
#include "host/EngineHost.h"
#include "log/Logging.h"
#include "mainwindow/CommandLine.h"
#include "mainwindow/EngineLink.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/SingleInstance.h"
#include "mainwindow/Translations.h"

#include <QtCore/QDir>
#include <QtCore/QLoggingCategory>
#include <QtCore/QTextStream>
#include <QtCore/QTimer>
#include <QtWidgets/QApplication>

#include <memory>

Q_LOGGING_CATEGORY(lcDesktop, "aile.desktop")

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    // Per-request debug lines cost time on the hot path; AILE_DEBUG=1 turns them on.
    if (!qEnvironmentVariableIsSet("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(qEnvironmentVariableIntValue("AILE_DEBUG") ? QStringLiteral("aile.*.debug=true")
                                                                                    : QStringLiteral("aile.*.debug=false"));
    // The same application name as the CLI, so both find the same data directory. No
    // organisation name: it would add a folder level the CLI does not have.
    QCoreApplication::setApplicationName(QStringLiteral("aile"));
    QCoreApplication::setApplicationVersion(QStringLiteral(AILE_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Aile"));
    QGuiApplication::setDesktopFileName(QStringLiteral("aile-desktop"));
    Aile::Ui::installTranslations(&app, QLocale::system());

    QString error;
    const std::optional<Aile::EngineOptions> options = Aile::Ui::CommandLine::parse(QCoreApplication::arguments(), &error);
    if (!options) {
        QTextStream(stderr) << "aile-desktop: " << error << '\n';
        return 2;
    }

    // One window per user and data folder (docs/gui.md, "One window"): a second launch hands its
    // arguments to the first, which comes to the front, and exits before it starts anything.
    std::unique_ptr<Aile::Ui::SingleInstance> instance;
    if (!Aile::Ui::CommandLine::wantsNewInstance(QCoreApplication::arguments())) {
        instance = std::make_unique<Aile::Ui::SingleInstance>(options->dataDir);
        switch (instance->claim(QCoreApplication::arguments())) {
        case Aile::Ui::SingleInstance::Role::Primary: break;
        case Aile::Ui::SingleInstance::Role::HandedOver:
            QTextStream(stdout) << "aile-desktop: Aile is already open for " << options->dataDir << "; its window comes to the front\n";
            return 0;
        case Aile::Ui::SingleInstance::Role::NoAnswer:
            QTextStream(stderr) << "aile-desktop: another Aile Desktop holds " << options->dataDir
                                << " but does not answer; close it (or end its process), or start this one with --new-instance\n";
            return 1;
        }
    }

    // The same lines aile serve writes to stderr go to a rotating file here (Help ▸ Open log folder).
    Aile::Log::Options log;
    log.level = qEnvironmentVariableIntValue("AILE_DEBUG") ? Aile::Log::Level::Debug : Aile::Log::Level::Info;
    log.filePath = QDir(Aile::Log::defaultLogDir()).filePath(QStringLiteral("aile.log"));
    QString logError;
    if (!Aile::Log::install(log, &logError))
        QTextStream(stderr) << "aile-desktop: " << logError << " (logging to stderr)\n";

    // As aile serve: without a configured admin token, one is made in the data folder, so the
    // aile commands of this user reach the engine behind the window too.
    Aile::EngineOptions engineOptions = *options;
    engineOptions.adminTokenFile = Aile::AdminToken::filePath(engineOptions.dataDir);
    Aile::EngineHost host(engineOptions);
    Aile::Ui::MainWindow::Options windowOptions;
    windowOptions.dataDir = options->dataDir;
    windowOptions.configPath = options->configPath;
    windowOptions.logDir = Aile::Log::defaultLogDir();
    Aile::Ui::MainWindow window(&host, windowOptions);

    // Closing the window hides it and stops the engine; quit once the engine says it stopped,
    // or after a few seconds if it does not (a stuck stop must not leave an invisible process).
    QApplication::setQuitOnLastWindowClosed(false);
    QObject::connect(&host, &Aile::EngineHost::stopped, &app, &QCoreApplication::quit);
    QObject::connect(&window, &Aile::Ui::MainWindow::quitRequested, &app, [&app] { QTimer::singleShot(5000, &app, &QCoreApplication::quit); });

    if (instance)
        QObject::connect(instance.get(), &Aile::Ui::SingleInstance::launchedAgain, &window, [&window] {
            qCInfo(lcDesktop) << "launched again for this data folder: the window comes to the front";
            window.showNormal();
            window.raise();
            window.activateWindow();
        });

    window.show();
    // When an Aile engine of this user (the systemd unit's aile serve) already serves the address,
    // the window attaches to it instead of failing to listen (docs/gui.md, "Which engine the
    // window drives"); otherwise the embedded engine starts.
    window.engineLink()->setLocal(engineOptions.listenAddress, engineOptions.port, engineOptions.dataDir);
    window.engineLink()->start();
    return app.exec();
}
