#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QString>
#include <QtCore/QUrlQuery>

class QCommandLineParser;

namespace Aile::Cli {

/// Where a running engine is and the admin token to present to its management API.
struct Connection
{
    QString base;
    QString token;
    QString tokenSource; // where the token came from, or where it was looked for when none was found
};

/// --url, --admin-token-file, --data-dir and --json, shared by every command that talks to an engine.
/// --admin-token is kept only to refuse it: a token on the command line is shown by ps to every user.
void addConnectionOptions(QCommandLineParser &parser);
/// The engine and the token: --admin-token-file FILE (- reads stdin), else $AILE_ADMIN_TOKEN, else the
/// file `aile serve` made in the data folder (--data-dir, or the default both share). Exits with 2
/// and a message naming the alternatives when --admin-token is given.
Connection connectionFrom(const QCommandLineParser &parser);

/// One call against the management API; returns the status (0 when the engine could not be
/// reached, with *error saying so) and the body.
int call(const Connection &c, const QByteArray &method, const QString &path, const QUrlQuery &query, QByteArray *body, QString *error,
         const QByteArray &payload = {});
/// Reads a secret (or any short text) from a file, or from stdin for "-": what the commands take
/// instead of a secret on the command line, where ps shows it. Trimmed; false with *error when it
/// cannot be read or holds nothing.
bool readFileOrStdin(const QString &path, QString *text, QString *error);

/// The message of an {"error": {"message"}} body, or the body itself.
QString errorMessageOf(const QByteArray &body);

} // namespace Aile::Cli
