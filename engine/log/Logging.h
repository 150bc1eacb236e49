#pragma once

#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QtGlobal>

#include <functional>
#include <optional>

class QMessageLogContext;

namespace Aile::Log {

/// Where the engine's log lines go and how they look: `aile serve` writes them to stderr (the
/// journal under the systemd unit), the desktop app to a rotating file. One line per message,
/// as text or as JSON. Lines of the access and health categories are key=value pairs
/// (logfmt), which the JSON form turns into fields.

enum class Format { Text, Json };
enum class Level { Debug, Info, Warning, Error };

struct Options
{
    Level level = Level::Info;
    Format format = Format::Text;
    QString filePath;                      // empty: stderr
    qint64 maxFileBytes = 4 * 1024 * 1024; // a file past this is rotated
    int keepFiles = 3;                     // aile.log.1 … aile.log.N are kept
};

std::optional<Level> parseLevel(const QString &name);
std::optional<Format> parseFormat(const QString &name);
/// The QLoggingCategory rules that let through the aile.* messages at level and above.
QString filterRules(Level level);

/// Installs the message handler for the whole process (Qt has one) and the category rules.
/// False with *error when the log file cannot be opened.
bool install(const Options &options, QString *error);
/// Back to Qt's own handler (tests).
void uninstall();
/// Several messages of one category at once, as the handler would write them one by one, but in a
/// single write: the access log's batch of lines costs the engine thread one syscall, not one each.
/// False when no handler is installed (the caller then logs them through Qt one by one).
bool writeLines(QtMsgType type, const char *category, const QStringList &messages);

/// The text form's batch built by the caller straight in UTF-8: build(out, prefix) appends whole
/// lines, each the prefix (time, level and category, formatted once) then a message and '\n'; they
/// go out in one write. False when no handler is installed or the format is JSON (the caller then
/// uses writeLines).
bool writeTextLines(QtMsgType type, const char *category, const std::function<void(QByteArray &out, const QByteArray &prefix)> &build);

/// One line, without its newline: "2026-12-01T10:00:00.123Z INFO  aile.engine: text", or the
/// JSON object {"time", "level", "category", "message" | the logfmt fields}.
QString formatLine(Format format, QtMsgType type, const char *category, const QString &message, qint64 nowMs);

/// formatLine's text form without its message, in UTF-8 ("2026-12-01T10:00:00.123Z INFO    aile.access: "),
/// cheaply: Qt formats the date once per second on each thread.
QByteArray textPrefix(QtMsgType type, const char *category, qint64 nowMs);

/// $XDG_STATE_HOME/aile (~/.local/state/aile): where the desktop app keeps aile.log.
QString defaultLogDir();

} // namespace Aile::Log
