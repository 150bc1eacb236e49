#include "StopCommand.h"

#include "ManagementCall.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QTextStream>

namespace Aile::Cli {

int runStop(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Stop a running engine: it answers, closes its port and exits (aile serve exits 0)."));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.process(arguments);
    const Connection connection = connectionFrom(parser);
    QByteArray body;
    QString error;
    const int status = call(connection, "POST", QStringLiteral("/admin/shutdown"), {}, &body, &error);
    if (status != 202) {
        QTextStream(stderr) << "aile stop: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    QTextStream(stdout) << "the engine at " << connection.base << " is stopping" << Qt::endl;
    return 0;
}

} // namespace Aile::Cli
