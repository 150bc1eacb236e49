#include "TraceActionCommand.h"

#include "ManagementCall.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTextStream>
#include <QtCore/QUrl>
#include <QtCore/QUrlQuery>

namespace Aile::Cli {

int runTraceAction(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Act on one sharer of a request's attempt rows, as its outcome suggests; the engine records the action as a trace.\n"
                       "  aile traces action TRACE_ID clear-cooldown|mark-fixed|retest --sharer HANDLE [--model MODEL]\n"
                       "clear-cooldown: back in selection now. mark-fixed: a dead key restored, then probed. retest: one minimal\n"
                       "request of the model (the attempt's own by default)."));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("action"));
    parser.addPositionalArgument(QStringLiteral("trace"), QStringLiteral("the request's id (req_…), as aile traces --json shows it"));
    parser.addPositionalArgument(QStringLiteral("what"), QStringLiteral("clear-cooldown, mark-fixed or retest"));
    parser.addOption({QStringLiteral("sharer"), QStringLiteral("The sharer of the attempt row (its handle)."), QStringLiteral("HANDLE")});
    parser.addOption({QStringLiteral("model"), QStringLiteral("retest: the model (default: the attempt's)."), QStringLiteral("MODEL")});
    parser.process(arguments);
    QTextStream out(stdout), err(stderr);
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 3 || !parser.isSet(QStringLiteral("sharer"))) {
        err << "aile traces action: name the trace, the action and the sharer, e.g. "
               "aile traces action req_0123456789abcdef clear-cooldown --sharer L0123456789abcdef\n";
        return 2;
    }
    QJsonObject body{{QStringLiteral("action"), pos.at(2)}, {QStringLiteral("sharer"), parser.value(QStringLiteral("sharer"))}};
    if (parser.isSet(QStringLiteral("model")))
        body.insert(QStringLiteral("model"), parser.value(QStringLiteral("model")));
    QByteArray reply;
    QString error;
    const QString path = QStringLiteral("/traces/") + QString::fromLatin1(QUrl::toPercentEncoding(pos.at(1))) + QStringLiteral("/actions");
    const int status = call(connectionFrom(parser), "POST", path, {}, &reply, &error, QJsonDocument(body).toJson(QJsonDocument::Compact));
    if (status != 200) {
        err << "aile traces action: " << (error.isEmpty() ? errorMessageOf(reply) : error) << Qt::endl;
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        out << reply << Qt::endl;
        return 0;
    }
    const QJsonObject r = QJsonDocument::fromJson(reply).object();
    out << r.value(QLatin1String("message")).toString() << Qt::endl;
    return r.value(QLatin1String("ok")).toBool() ? 0 : 1;
}

} // namespace Aile::Cli
