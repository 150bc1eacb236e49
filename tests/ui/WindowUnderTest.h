#pragma once

#include "testsupport/TestEngine.h"

#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>

#include <functional>
#include <memory>

namespace Aile {
class EngineHost;
namespace Ui {
class MainWindow;
}
} // namespace Aile

namespace Aile::Test {

/// The desktop window over a real engine on port 0, the engine on its own thread as in the app,
/// both from one configuration object: for GUI tests that also go through the proxy.
class WindowUnderTest
{
public:
    WindowUnderTest();
    ~WindowUnderTest();

    /// Writes the configuration, shows the window and starts the engine; false (with a warning
    /// saying why) when either does not come up. beforeEngine runs once the window shows, before
    /// the engine starts (what a user does before the engine's first status).
    bool start(const QJsonObject &config, const std::function<void()> &beforeEngine = {});
    /// Shows the Keys page once it lists the keys and the engine's status brought the sharers
    /// (what the key dialogs offer).
    bool openKeysPage();

    EngineHost *host() const { return m_host.get(); }
    Ui::MainWindow *window() const { return m_window.get(); }
    QString baseUrl() const;
    /// The window's layout settings (INI), where it also remembers the Get started checklist.
    QString settingsPath() const { return m_dir.filePath(QStringLiteral("settings.ini")); }
    /// A management call over HTTP with the admin token, as a script would make it.
    Reply admin(const QString &method, const QString &path, const QJsonObject &body = {}) const;
    /// A one-line chat completion through the proxy with an API key, as a tool would send it.
    Reply chat(const QString &key, const QString &model) const;

private:
    QTemporaryDir m_dir;
    std::unique_ptr<EngineHost> m_host;
    std::unique_ptr<Ui::MainWindow> m_window;
};

} // namespace Aile::Test
