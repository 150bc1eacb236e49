// aile: the headless proxy (aile serve) and a CLI for a running engine.
#include "ClientCommands.h"
#include "ServeCommand.h"
#include "StopCommand.h"

#include "core/EpollDispatcher.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QLoggingCategory>
#include <QtCore/QTextStream>

namespace {

void printUsage()
{
    QTextStream(stdout) << "usage: aile <command> [options]\n\n"
                           "commands:\n"
                           "  serve     run the proxy engine without a window\n"
                           "  sharers   the sharers in routing order; add one, test a model, probe a credential\n"
                           "  keys      list, create or revoke API keys; a key's routing settings and routes\n"
                           "  connect   the settings that point a tool (claude-code, codex, ...) at the proxy\n"
                           "  config    export or import the configuration (JSON, no secrets)\n"
                           "  catalog   the price table: list, override an entry, re-import, add a provider\n"
                           "  dry-run   what a request would do, without sending it\n"
                           "  replay    what a key's last days would have cost with an edited route\n"
                           "  traces    recent requests of a running engine; traces action: clear a cooldown, mark a key fixed, re-test\n"
                           "  usage     money spent and subscription usage at list price, per day and per sharer\n"
                           "  stop      stop a running engine (it closes its port and exits)\n\n"
                           "aile <command> --help shows a command's options.\n";
}

} // namespace

int main(int argc, char **argv)
{
    // `aile serve` runs the engine on this thread, its loop on epoll unless AILE_EVENT_LOOP=qt
    // (core/EpollDispatcher.h), installed before the application exists, as it must be.
    if (argc > 1 && qstrcmp(argv[1], "serve") == 0)
        if (auto *dispatcher = Aile::EpollDispatcher::makeIfWanted())
            QCoreApplication::setEventDispatcher(dispatcher);
    QCoreApplication app(argc, argv);
    // Per-request debug lines cost time on the hot path; AILE_DEBUG=1 turns them on.
    if (!qEnvironmentVariableIsSet("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(qEnvironmentVariableIntValue("AILE_DEBUG") ? QStringLiteral("aile.*.debug=true")
                                                                                    : QStringLiteral("aile.*.debug=false"));
    QCoreApplication::setApplicationName(QStringLiteral("aile"));
    QCoreApplication::setApplicationVersion(QStringLiteral(AILE_VERSION));
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args.at(1) == QLatin1String("--help") || args.at(1) == QLatin1String("-h")) {
        printUsage();
        return args.size() < 2 ? 2 : 0;
    }
    if (args.at(1) == QLatin1String("--version")) {
        QTextStream(stdout) << "aile " << AILE_VERSION << '\n';
        return 0;
    }
    QStringList rest = args;
    const QString command = rest.takeAt(1);
    rest[0] = QStringLiteral("aile ") + command;
    if (command == QLatin1String("serve"))
        return Aile::Cli::runServe(rest);
    if (command == QLatin1String("stop"))
        return Aile::Cli::runStop(rest);
    return Aile::Cli::runClientCommand(command, rest);
}
