#include "ScreenshotAttached.h"

#include "ScreenshotData.h"
#include "charts/ChartsView.h"
#include "core/AdminToken.h"
#include "host/EngineHost.h"
#include "mainwindow/EngineLink.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/TeamServerDialog.h"
#include "sharers/SharerOrderModel.h"
#include "sharers/SharersView.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QJsonDocument>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTextStream>
#include <QtNetwork/QTcpServer>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QTabWidget>

namespace Aile::Test {

namespace {

bool saveShot(QWidget *w, const QString &dir, const QString &name)
{
    QTest::qWait(400);
    const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
    const bool ok = w->grab().save(path);
    QTextStream(stdout) << (ok ? "wrote " : "FAILED ") << path << '\n';
    return ok;
}

} // namespace

int renderAttached(const QString &outDir, const QString &aileProgram)
{
    QTemporaryDir dir;
    FakeUpstream upstream;
    if (!upstream.listen())
        return 1;
    const QString configPath = dir.filePath(QStringLiteral("config.json"));
    QFile config(configPath);
    if (!config.open(QIODevice::WriteOnly))
        return 1;
    config.write(QJsonDocument(ScreenshotData::config(upstream.baseUrl())).toJson());
    config.close();
    const QString dataDir = dir.filePath(QStringLiteral("data"));
    QString error;
    if (!ScreenshotData::seedStore(dataDir, QDateTime::currentMSecsSinceEpoch(), &error)
        || !AdminToken::writeFile(AdminToken::filePath(dataDir), QStringLiteral("screenshot-admin-token"), &error)) {
        qCritical("cannot prepare the data folder: %s", qPrintable(error));
        return 1;
    }
    // A free port for aile serve, as the systemd unit's would be 2453.
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost);
    const quint16 port = probe.serverPort();
    probe.close();

    QProcess serve;
    serve.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    serve.start(aileProgram, {QStringLiteral("serve"), QStringLiteral("--data-dir"), dataDir, QStringLiteral("--config"), configPath,
                              QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port)});
    const bool listening = QTest::qWaitFor(
        [port] { return Test::send(QStringLiteral("GET"), QStringLiteral("http://127.0.0.1:%1/health").arg(port), {}, {}, 500).status == 200; },
        10000);
    int status = 1;
    if (listening) {
        EngineOptions options;
        options.dataDir = dataDir;
        options.port = port;
        EngineHost host(options);
        Ui::MainWindow::Options windowOptions;
        windowOptions.dataDir = dataDir;
        windowOptions.settingsPath = dir.filePath(QStringLiteral("settings.ini"));
        windowOptions.showTrayIcon = false;
        Ui::MainWindow window(&host, windowOptions);
        window.resize(1360, 860);
        window.show();
        window.engineLink()->setLocal(QHostAddress::LocalHost, port, dataDir);
        window.engineLink()->start();
        window.tabs()->setCurrentIndex(0);
        const bool attached = QTest::qWaitFor(
            [&] {
                return window.engineLink()->kind() == Ui::EngineLink::Kind::Service && window.engineLink()->pid() > 0
                       && window.sharersView()->model()->rowCount() > 0;
            },
            10000);
        bool ok = attached && saveShot(&window, outDir, QStringLiteral("attached"));

        window.showTeamServerDialog();
        if (auto *dialog = window.findChild<Ui::TeamServerDialog *>()) {
            dialog->urlEdit()->setText(QStringLiteral("https://aile.team.example.org"));
            dialog->tokenEdit()->setText(QStringLiteral("team-admin-token-not-real"));
            ok = saveShot(dialog, outDir, QStringLiteral("team-server")) && ok;
            dialog->reject();
        } else {
            ok = false;
        }

        // The Charts page of the attached window: aile serve sums them (GET /keys/usage/charts).
        QSignalSpy drawn(window.chartsView(), &Ui::ChartsView::drawn);
        window.tabs()->setCurrentWidget(window.chartsView());
        window.chartsView()->refresh();
        ok = drawn.wait(10000) && saveShot(&window, outDir, QStringLiteral("attached-charts")) && ok;
        status = ok ? 0 : 1;
    } else {
        qCritical("aile serve did not listen on port %u", port);
    }
    serve.terminate();
    serve.waitForFinished(5000);
    return status;
}

} // namespace Aile::Test
