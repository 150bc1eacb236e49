#pragma once

#include "host/Engine.h"

#include <QtCore/QCoreApplication>

#include <optional>

namespace Aile::Ui {

/// aile-desktop's arguments, the same as `aile serve`'s: --data-dir, --listen HOST:PORT,
/// --config FILE, --secrets-file FILE; and --new-instance (docs/gui.md, "One window"). Here rather than in DesktopMain.cpp so the help text is
/// translated with the rest of the window.
class CommandLine
{
    Q_DECLARE_TR_FUNCTIONS(Aile::Ui::CommandLine)
public:
    /// Handles --help and --version itself (prints and exits, as QCommandLineParser does).
    /// Returns no options, with error set, on a malformed argument.
    static std::optional<EngineOptions> parse(const QStringList &arguments, QString *error);
    /// The platform's data folder for the application named "aile" (the CLI's default too).
    static QString defaultDataDir();
    static bool parseListen(const QString &value, QHostAddress *address, quint16 *port);
    /// --new-instance: a window of its own even when one is open for the data folder.
    static bool wantsNewInstance(const QStringList &arguments);
};

} // namespace Aile::Ui
