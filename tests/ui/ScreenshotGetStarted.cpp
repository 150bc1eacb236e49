#include "ScreenshotGetStarted.h"

#include "host/EngineHost.h"
#include "dialogs/ConnectToolDialog.h"
#include "keys/NewKeyDialog.h"
#include "mainwindow/GetStartedPanel.h"
#include "mainwindow/MainWindow.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtCore/QTextStream>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>

namespace Aile::Test {

namespace {

bool saveWindow(QWidget *w, const QString &dir, const QString &name)
{
    QTest::qWait(400);
    const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
    const bool ok = w->grab().save(path);
    QTextStream(stdout) << (ok ? "wrote " : "FAILED ") << path << '\n';
    return ok;
}

QJsonObject manage(EngineHost &host, const QString &method, const QString &path, const QJsonObject &body = {})
{
    QSignalSpy replied(&host, &EngineHost::managementReplied);
    host.manage(method, path, body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact));
    replied.wait(5000);
    return QJsonDocument::fromJson(replied.value(0).value(2).toByteArray()).object();
}

} // namespace

int renderGetStarted(const QString &outDir, const QString &suffix)
{
    QTemporaryDir dir;
    FakeUpstream upstream;
    if (!upstream.listen())
        return 1;
    EngineOptions options;
    options.dataDir = dir.filePath(QStringLiteral("data"));
    options.port = 0;
    options.fileSecretsPath = dir.filePath(QStringLiteral("secrets.json"));
    EngineHost host(options);
    Ui::MainWindow::Options windowOptions;
    windowOptions.dataDir = options.dataDir;
    windowOptions.settingsPath = dir.filePath(QStringLiteral("settings.ini"));
    windowOptions.showTrayIcon = false;
    Ui::MainWindow window(&host, windowOptions);
    window.resize(1360, 860);
    window.show();
    QSignalSpy started(&host, &EngineHost::started);
    host.start();
    if (!started.wait(10000))
        return 1;
    bool ok = saveWindow(&window, outDir, QStringLiteral("get-started") + suffix);

    // A sharer (its key in the opted-in file) with a passing model test, and a key made through
    // the checklist's own button.
    const QJsonObject sharer{{QStringLiteral("name"), QStringLiteral("My OpenAI key")},
                             {QStringLiteral("provider"), QStringLiteral("openai")},
                             {QStringLiteral("baseUrl"), upstream.baseUrl()},
                             {QStringLiteral("models"), QJsonArray{QStringLiteral("gpt-5.2")}},
                             {QStringLiteral("secret"), QStringLiteral("upstream-secret")},
                             {QStringLiteral("credential"), QStringLiteral("file:")}};
    const QString handle = manage(host, QStringLiteral("POST"), QStringLiteral("/sharers"), sharer).value(QLatin1String("handle")).toString();
    manage(host, QStringLiteral("POST"), QStringLiteral("/sharers/%1/test").arg(handle), {{QStringLiteral("model"), QStringLiteral("gpt-5.2")}});
    Ui::NewKeyDialog *newKey = window.connectToolDialog()->newKey();
    newKey->setKeyName(QStringLiteral("laptop"));
    QSignalSpy created(newKey, &Ui::NewKeyDialog::created);
    newKey->create();
    created.wait(5000);
    const QString plain = created.value(0).value(2).toString();
    newKey->close();
    host.requestStatus();
    QTest::qWait(300);
    ok = saveWindow(&window, outDir, QStringLiteral("get-started-progress") + suffix) && ok;

    // The test request from the checklist: every step ticked.
    Ui::ConnectToolDialog *connect = window.connectToolDialog();
    connect->selectTool(Ui::ClientSnippets::Tool::OpenAiSdk);
    QSignalSpy tested(connect, &Ui::ConnectToolDialog::testFinished);
    connect->testConnection();
    tested.wait(10000);
    connect->hide();
    QTest::qWait(300);
    ok = window.getStartedPanel()->allDone() && !plain.isEmpty() && ok;
    ok = saveWindow(&window, outDir, QStringLiteral("get-started-done") + suffix) && ok;

    QSignalSpy stopped(&host, &EngineHost::stopped);
    window.close();
    stopped.wait(5000);
    return ok ? 0 : 1;
}

} // namespace Aile::Test
