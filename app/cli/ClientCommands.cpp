#include "ClientCommands.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTextStream>
#include <QtCore/QUrlQuery>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

namespace Aile::Cli {

namespace {

struct Connection
{
    QString base;
    QString token;
};

void addConnectionOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("url"), QStringLiteral("The engine (default http://127.0.0.1:2453, or $AILE_URL)."), QStringLiteral("URL")});
    parser.addOption({QStringLiteral("admin-token"), QStringLiteral("The admin token (default $AILE_ADMIN_TOKEN)."), QStringLiteral("TOKEN")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print the engine's JSON answer as is.")});
}

Connection connectionFrom(const QCommandLineParser &parser)
{
    Connection c;
    c.base = parser.value(QStringLiteral("url"));
    if (c.base.isEmpty())
        c.base = qEnvironmentVariable("AILE_URL", QStringLiteral("http://127.0.0.1:2453"));
    c.token = parser.value(QStringLiteral("admin-token"));
    if (c.token.isEmpty())
        c.token = qEnvironmentVariable("AILE_ADMIN_TOKEN");
    return c;
}

// One GET against the management API; returns the status and the body.
int get(const Connection &c, const QString &path, const QUrlQuery &query, QByteArray *body, QString *error)
{
    QNetworkAccessManager nam;
    QUrl url(c.base + path);
    url.setQuery(query);
    QNetworkRequest request(url);
    request.setRawHeader("Authorization", "Bearer " + c.token.toUtf8());
    request.setTransferTimeout(30000);
    QNetworkReply *reply = nam.get(request);
    QObject::connect(reply, &QNetworkReply::finished, qApp, &QCoreApplication::quit);
    QCoreApplication::exec();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    *body = reply->readAll();
    if (status == 0)
        *error = QStringLiteral("cannot reach the engine at %1: %2 (is `aile serve` or Aile Desktop running?)").arg(c.base, reply->errorString());
    reply->deleteLater();
    return status;
}

QString errorMessageOf(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object().value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString(
        QString::fromUtf8(body));
}

int runTraces(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Recent requests, newest first."));
    parser.addHelpOption();
    addConnectionOptions(parser);
    parser.addOption({QStringLiteral("limit"), QStringLiteral("How many (default 20)."), QStringLiteral("N"), QStringLiteral("20")});
    parser.addOption({QStringLiteral("model"), QStringLiteral("Only this model."), QStringLiteral("MODEL")});
    parser.addOption({QStringLiteral("key"), QStringLiteral("Only this key (name or id)."), QStringLiteral("KEY")});
    parser.process(arguments);
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("limit"), parser.value(QStringLiteral("limit")));
    if (parser.isSet(QStringLiteral("model")))
        q.addQueryItem(QStringLiteral("model"), parser.value(QStringLiteral("model")));
    if (parser.isSet(QStringLiteral("key")))
        q.addQueryItem(QStringLiteral("key"), parser.value(QStringLiteral("key")));
    QByteArray body;
    QString error;
    QTextStream out(stdout), err(stderr);
    const int status = get(connectionFrom(parser), QStringLiteral("/keys/usage/requests"), q, &body, &error);
    if (status != 200) {
        err << "aile traces: " << (error.isEmpty() ? errorMessageOf(body) : error) << Qt::endl;
        return 1;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        out << body << Qt::endl;
        return 0;
    }
    const QJsonArray data = QJsonDocument::fromJson(body).object().value(QLatin1String("data")).toArray();
    out << QStringLiteral("%1  %2  %3  %4  %5  %6  %7\n")
               .arg(QStringLiteral("time"), -19).arg(QStringLiteral("status"), 6).arg(QStringLiteral("model"), -32)
               .arg(QStringLiteral("sharer"), -18).arg(QStringLiteral("tries"), 5).arg(QStringLiteral("tokens in/out"), 14)
               .arg(QStringLiteral("cost $"));
    for (const QJsonValue &v : data) {
        const QJsonObject t = v.toObject();
        const QString when = QDateTime::fromMSecsSinceEpoch(qint64(t.value(QLatin1String("startedMs")).toDouble()))
                                 .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        const QString served = t.value(QLatin1String("modelServed")).toString();
        out << QStringLiteral("%1  %2  %3  %4  %5  %6  %7\n")
                   .arg(when, -19)
                   .arg(t.value(QLatin1String("status")).toInt(), 6)
                   .arg(served.isEmpty() ? t.value(QLatin1String("modelAsked")).toString() : served, -32)
                   .arg(t.value(QLatin1String("sharerName")).toString(), -18)
                   .arg(t.value(QLatin1String("attempts")).toInt(), 5)
                   .arg(QStringLiteral("%1/%2").arg(qint64(t.value(QLatin1String("inputTokens")).toDouble()))
                            .arg(qint64(t.value(QLatin1String("outputTokens")).toDouble())), 14)
                   .arg(t.value(QLatin1String("costUsd")).toDouble(), 0, 'f', 6);
    }
    return 0;
}

} // namespace

int runClientCommand(const QString &command, const QStringList &arguments)
{
    if (command == QLatin1String("traces"))
        return runTraces(arguments);
    QTextStream(stderr) << "aile: unknown command \"" << command << "\"; try aile --help\n";
    return 2;
}

} // namespace Aile::Cli
