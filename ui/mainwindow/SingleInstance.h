#pragma once

#include <QtCore/QObject>
#include <QtCore/QStringList>

#include <memory>

class QLocalServer;
class QLockFile;

namespace Aile::Ui {

/// One window per user and data folder (docs/gui.md, "One window"). The first launch holds a lock
/// file and a local socket in the user's runtime folder, both named after the data folder; a
/// second launch finds them, hands its arguments over and exits, and the first raises its window.
/// `aile-desktop --new-instance` skips all of this (tests, or two windows on purpose).
class SingleInstance : public QObject
{
    Q_OBJECT
public:
    enum class Role {
        Primary,    // this process is the window for the data folder
        HandedOver, // another process is, and has taken this launch's arguments
        NoAnswer,   // another process holds the folder but did not answer in time
    };

    explicit SingleInstance(const QString &dataDir, QObject *parent = nullptr);
    ~SingleInstance() override;

    /// Becomes the window for the data folder, or hands `arguments` to the one that is.
    Role claim(const QStringList &arguments, int timeoutMs = 2000);
    /// The local socket a second launch talks to: <runtime folder>/aile-desktop-<hash of the data folder>.
    QString socketPath() const { return m_socketPath; }

Q_SIGNALS:
    /// The application was launched again for this data folder, with these arguments.
    void launchedAgain(const QStringList &arguments);

private:
    bool handOver(const QStringList &arguments, int timeoutMs);
    void serve();

    QString m_socketPath;
    std::unique_ptr<QLockFile> m_lock;
    QLocalServer *m_server = nullptr;
};

} // namespace Aile::Ui
