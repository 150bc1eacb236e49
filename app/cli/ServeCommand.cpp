#include "ServeCommand.h"

#include "core/AdminToken.h"
#include "host/Engine.h"
#include "log/Logging.h"
#include "store/SqlDialect.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QSocketNotifier>
#include <QtCore/QStandardPaths>
#include <QtCore/QTextStream>

#include <csignal>
#include <sys/socket.h>
#include <unistd.h>

namespace Aile::Cli {

namespace {

int g_signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char c = 1;
    [[maybe_unused]] auto n = ::write(g_signalPipe[1], &c, 1);
}

} // namespace

QString defaultDataDir()
{
    return Aile::defaultDataDir();
}

int runServe(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Run the Aile proxy engine without a window."));
    parser.addHelpOption();
    parser.addOption(
        {QStringLiteral("data-dir"), QStringLiteral("Where the database lives (default: %1).").arg(defaultDataDir()), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("listen"), QStringLiteral("Address and port (default 127.0.0.1:2453; port 0 picks a free one)."),
                      QStringLiteral("HOST:PORT")});
    parser.addOption({QStringLiteral("store"),
                      QStringLiteral("A PostgreSQL database shared with other instances (team mode, docs/team.md) instead of "
                                     "the data directory's SQLite."),
                      QStringLiteral("postgresql://USER@HOST:PORT/DB")});
    parser.addOption(
        {QStringLiteral("config"), QStringLiteral("A JSON configuration file applied at start (docs/configuration.md)."), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("secrets-file"), QStringLiteral("Opt in to a plain-text secrets file (mode 0600) where no keychain answers."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("log-level"), QStringLiteral("debug, info (default), warning or error."), QStringLiteral("LEVEL")});
    parser.addOption(
        {QStringLiteral("log-format"), QStringLiteral("text (default) or json: one line per message on stderr."), QStringLiteral("FORMAT")});
    parser.process(arguments);

    QTextStream out(stdout);
    QTextStream err(stderr);
    Log::Options log;
    if (qEnvironmentVariableIntValue("AILE_DEBUG"))
        log.level = Log::Level::Debug;
    if (parser.isSet(QStringLiteral("log-level"))) {
        const auto level = Log::parseLevel(parser.value(QStringLiteral("log-level")));
        if (!level) {
            err << "aile serve: --log-level takes debug, info, warning or error\n";
            return 2;
        }
        log.level = *level;
    }
    if (parser.isSet(QStringLiteral("log-format"))) {
        const auto format = Log::parseFormat(parser.value(QStringLiteral("log-format")));
        if (!format) {
            err << "aile serve: --log-format takes text or json\n";
            return 2;
        }
        log.format = *format;
    }
    Log::install(log, nullptr);
    EngineOptions options;
    options.dataDir = parser.isSet(QStringLiteral("data-dir")) ? parser.value(QStringLiteral("data-dir")) : defaultDataDir();
    options.configPath = parser.value(QStringLiteral("config"));
    options.store = parser.value(QStringLiteral("store"));
    if (!options.store.isEmpty() && !Store::SqlDialect::isServerLocation(options.store)) {
        err << "aile serve: --store takes a postgresql://USER@HOST:PORT/DATABASE URL; leave it out for the data directory's SQLite\n";
        return 2;
    }
    options.fileSecretsPath = parser.value(QStringLiteral("secrets-file"));
    options.adminTokenFile = AdminToken::filePath(options.dataDir);
    if (parser.isSet(QStringLiteral("listen"))
        && !parseListenAddress(parser.value(QStringLiteral("listen")), &options.listenAddress, &options.port)) {
        err << "aile serve: --listen takes HOST:PORT, for example 127.0.0.1:2453\n";
        return 2;
    }

    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) == 0) {
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
    }
    std::signal(SIGPIPE, SIG_IGN);

    Engine engine(options);
    QSocketNotifier notifier(g_signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &engine, [&engine] {
        char c;
        [[maybe_unused]] auto n = ::read(g_signalPipe[0], &c, 1);
        engine.stop();
    });
    int exitCode = 0;
    QObject::connect(&engine, &Engine::started, [&out, &options](const QString &address, quint16 port) {
        out << "listening on " << address << ':' << port << Qt::endl;
        out << "data in " << options.dataDir << Qt::endl;
        if (!options.store.isEmpty())
            out << "store " << Store::SqlDialect::redacted(options.store) << Qt::endl;
    });
    QObject::connect(&engine, &Engine::startFailed, [&err, &exitCode](const QString &error) {
        err << "aile serve: " << error << Qt::endl;
        exitCode = 1;
        QCoreApplication::exit(1);
    });
    QObject::connect(&engine, &Engine::stopped, [] { QCoreApplication::exit(0); });
    QMetaObject::invokeMethod(&engine, &Engine::start, Qt::QueuedConnection);
    const int rc = QCoreApplication::exec();
    return exitCode ? exitCode : rc;
}

} // namespace Aile::Cli
