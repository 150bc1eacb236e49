#include "CommandLine.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QStandardPaths>

namespace Aile::Ui {

QString CommandLine::defaultDataDir()
{
    return Aile::defaultDataDir();
}

bool CommandLine::parseListen(const QString &value, QHostAddress *address, quint16 *port)
{
    return parseListenAddress(value, address, port); // the same reading as aile serve's
}

std::optional<EngineOptions> CommandLine::parse(const QStringList &arguments, QString *error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(tr("Aile: a local LLM router, with its window."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption({QStringLiteral("data-dir"), tr("Where the database lives (default: %1).").arg(defaultDataDir()), QStringLiteral("DIR")});
    parser.addOption(
        {QStringLiteral("listen"), tr("Address and port (default 127.0.0.1:2453; port 0 picks a free one)."), QStringLiteral("HOST:PORT")});
    parser.addOption({QStringLiteral("config"), tr("A JSON configuration file applied at start."), QStringLiteral("FILE")});
    parser.addOption(
        {QStringLiteral("secrets-file"), tr("Opt in to a plain-text secrets file (mode 0600) where no keychain answers."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("new-instance"), tr("Start a window of its own even when Aile is already open for this data folder.")});
    parser.process(arguments);

    EngineOptions options;
    options.dataDir = parser.isSet(QStringLiteral("data-dir")) ? parser.value(QStringLiteral("data-dir")) : defaultDataDir();
    options.configPath = parser.value(QStringLiteral("config"));
    options.fileSecretsPath = parser.value(QStringLiteral("secrets-file"));
    if (parser.isSet(QStringLiteral("listen")) && !parseListen(parser.value(QStringLiteral("listen")), &options.listenAddress, &options.port)) {
        *error = tr("--listen takes HOST:PORT, for example 127.0.0.1:2453");
        return std::nullopt;
    }
    return options;
}

bool CommandLine::wantsNewInstance(const QStringList &arguments)
{
    return arguments.contains(QLatin1String("--new-instance"));
}

} // namespace Aile::Ui
