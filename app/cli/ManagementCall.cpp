#include "ManagementCall.h"

#include "core/AdminToken.h"
#include "host/Engine.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QFile>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTextStream>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

#include <cstdio>
#include <cstdlib>

namespace Aile::Cli {

void addConnectionOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("url"), QStringLiteral("The engine (default http://127.0.0.1:2453, or $AILE_URL)."), QStringLiteral("URL")});
    parser.addOption({QStringLiteral("admin-token-file"),
                      QStringLiteral("Read the admin token from FILE (- for stdin). Default: $AILE_ADMIN_TOKEN, else the token "
                                     "aile serve made in the data folder."),
                      QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("data-dir"),
                      QStringLiteral("The data folder whose admin-token file to read (default: %1).").arg(defaultDataDir()), QStringLiteral("DIR")});
    QCommandLineOption refused(QStringLiteral("admin-token"), QStringLiteral("Refused: see --admin-token-file."), QStringLiteral("TOKEN"));
    refused.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(refused);
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print the engine's JSON answer as is.")});
}

Connection connectionFrom(const QCommandLineParser &parser)
{
    if (parser.isSet(QStringLiteral("admin-token"))) {
        QTextStream(stderr) << "aile: --admin-token is not taken: a token on the command line is shown by ps to every user of "
                               "this machine. Use --admin-token-file FILE, --admin-token-file - (reads stdin), or $AILE_ADMIN_TOKEN; "
                               "on the machine that runs aile serve, the token it made is found without any of them.\n";
        std::exit(2);
    }
    Connection c;
    c.base = parser.value(QStringLiteral("url"));
    if (c.base.isEmpty())
        c.base = qEnvironmentVariable("AILE_URL", QStringLiteral("http://127.0.0.1:2453"));
    while (c.base.endsWith(QLatin1Char('/')))
        c.base.chop(1);
    if (parser.isSet(QStringLiteral("admin-token-file"))) {
        const QString path = parser.value(QStringLiteral("admin-token-file"));
        QString error;
        if (!readFileOrStdin(path, &c.token, &error)) {
            QTextStream(stderr) << "aile: the admin token: " << error << '\n';
            std::exit(2);
        }
        c.tokenSource = path == QLatin1String("-") ? QStringLiteral("stdin") : path;
        return c;
    }
    c.token = qEnvironmentVariable(AdminToken::EnvironmentVariable).trimmed();
    if (!c.token.isEmpty()) {
        c.tokenSource = QStringLiteral("$") + QLatin1String(AdminToken::EnvironmentVariable);
        return c;
    }
    const QString dataDir = parser.isSet(QStringLiteral("data-dir")) ? parser.value(QStringLiteral("data-dir")) : defaultDataDir();
    const QString path = AdminToken::filePath(dataDir);
    QString error;
    c.token = AdminToken::readFile(path, &error);
    c.tokenSource = path;
    return c;
}

int call(const Connection &c, const QByteArray &method, const QString &path, const QUrlQuery &query, QByteArray *body, QString *error,
         const QByteArray &payload)
{
    QNetworkAccessManager nam;
    QUrl url(c.base + path);
    url.setQuery(query);
    QNetworkRequest request(url);
    request.setRawHeader("Authorization", "Bearer " + c.token.toUtf8());
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setTransferTimeout(60000);
    QNetworkReply *reply = nam.sendCustomRequest(request, method, payload);
    QObject::connect(reply, &QNetworkReply::finished, qApp, &QCoreApplication::quit);
    QCoreApplication::exec();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    *body = reply->readAll();
    if (status == 0)
        *error = QStringLiteral("cannot reach the engine at %1: %2 (is `aile serve` or Aile Desktop running?)").arg(c.base, reply->errorString());
    else if (status == 401 && c.token.isEmpty())
        *error = QStringLiteral("no admin token: none in $%1 or in %2 (aile serve makes that file on its first start without a token; "
                                "give another with --admin-token-file FILE)")
                     .arg(QLatin1String(AdminToken::EnvironmentVariable), c.tokenSource);
    else if (status == 401)
        *error = QStringLiteral("the engine at %1 refused the admin token from %2: %3").arg(c.base, c.tokenSource, errorMessageOf(*body));
    reply->deleteLater();
    return status;
}

bool readFileOrStdin(const QString &path, QString *text, QString *error)
{
    QFile f;
    const bool fromStdin = path == QLatin1String("-");
    if (!fromStdin)
        f.setFileName(path);
    if (!(fromStdin ? f.open(stdin, QIODevice::ReadOnly) : f.open(QIODevice::ReadOnly))) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return false;
    }
    *text = QString::fromUtf8(f.read(64 * 1024)).trimmed();
    if (text->isEmpty())
        *error = QStringLiteral("%1 holds nothing").arg(fromStdin ? QStringLiteral("stdin") : path);
    return !text->isEmpty();
}

QString errorMessageOf(const QByteArray &body)
{
    return QJsonDocument::fromJson(body)
        .object()
        .value(QLatin1String("error"))
        .toObject()
        .value(QLatin1String("message"))
        .toString(QString::fromUtf8(body));
}

} // namespace Aile::Cli
