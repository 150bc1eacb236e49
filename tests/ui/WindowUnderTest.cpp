#include "WindowUnderTest.h"

#include "host/EngineHost.h"
#include "keys/KeysModel.h"
#include "keys/KeysView.h"
#include "mainwindow/MainWindow.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <QtWidgets/QTableView>

namespace Aile::Test {

WindowUnderTest::WindowUnderTest() = default;

WindowUnderTest::~WindowUnderTest()
{
    // The window first: closing it stops the engine it shows.
    m_window.reset();
    m_host.reset();
}

bool WindowUnderTest::start(const QJsonObject &config, const std::function<void()> &beforeEngine)
{
    if (!m_dir.isValid()) {
        qWarning("no temporary folder for the engine's data");
        return false;
    }
    const QString configPath = m_dir.filePath(QStringLiteral("config.json"));
    QFile file(configPath);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(config).toJson()) < 0) {
        qWarning("cannot write the configuration");
        return false;
    }
    file.close();

    EngineOptions options;
    options.dataDir = m_dir.filePath(QStringLiteral("data"));
    options.port = 0;
    options.configPath = configPath;
    m_host = std::make_unique<EngineHost>(options);
    Ui::MainWindow::Options windowOptions;
    windowOptions.dataDir = options.dataDir;
    windowOptions.settingsPath = m_dir.filePath(QStringLiteral("settings.ini"));
    windowOptions.showTrayIcon = false;
    m_window = std::make_unique<Ui::MainWindow>(m_host.get(), windowOptions);
    m_window->show();
    if (!QTest::qWaitForWindowExposed(m_window.get())) {
        qWarning("the window was not shown");
        return false;
    }
    if (beforeEngine)
        beforeEngine();
    QSignalSpy started(m_host.get(), &EngineHost::started);
    m_host->start();
    if (!started.wait(10000)) {
        qWarning("the engine did not start");
        return false;
    }
    return true;
}

bool WindowUnderTest::openKeysPage()
{
    Ui::KeysView *keys = m_window->keysView();
    m_window->tabs()->setCurrentWidget(keys);
    keys->refresh();
    if (!QTest::qWaitFor([keys] { return keys->model()->rowCount() > 0; }, 5000)) {
        qWarning("the Keys page lists no key");
        return false;
    }
    m_host->requestStatus();
    auto *sharers = m_window->findChild<QTableView *>(QStringLiteral("sharersTable"));
    if (!sharers || !QTest::qWaitFor([sharers] { return sharers->model()->rowCount() > 0; }, 5000)) {
        qWarning("the engine's status brought no sharer");
        return false;
    }
    return true;
}

QString WindowUnderTest::baseUrl() const
{
    return m_window->baseUrl();
}

Reply WindowUnderTest::admin(const QString &method, const QString &path, const QJsonObject &body) const
{
    return send(method, baseUrl() + path, body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(),
                {{"authorization", QByteArray("Bearer ") + AdminToken}, {"content-type", "application/json"}});
}

Reply WindowUnderTest::chat(const QString &key, const QString &model) const
{
    const QJsonObject body{{QStringLiteral("model"), model},
                           {QStringLiteral("max_tokens"), 50},
                           {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                               {QStringLiteral("content"), QStringLiteral("hi")}}}}};
    return send(QStringLiteral("POST"), baseUrl() + QStringLiteral("/v1/chat/completions"), QJsonDocument(body).toJson(QJsonDocument::Compact),
                {{"authorization", QByteArray("Bearer ") + key.toLatin1()}});
}

} // namespace Aile::Test
