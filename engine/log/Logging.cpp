#include "Logging.h"

#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QLoggingCategory>
#include <QtCore/QMutex>
#include <QtCore/QStandardPaths>

#include <cstdio>

namespace Aile::Log {

namespace {

// The handler Qt calls from any thread; this state is what it writes with, under its mutex.
struct Sink
{
    QMutex mutex;
    Options options;
    QFile file;
    bool installed = false;
};

Sink &sink()
{
    static Sink s;
    return s;
}

const char *levelName(QtMsgType type)
{
    switch (type) {
    case QtDebugMsg: return "debug";
    case QtInfoMsg: return "info";
    case QtWarningMsg: return "warning";
    case QtCriticalMsg: return "error";
    case QtFatalMsg: return "fatal";
    }
    return "info";
}

bool structured(const char *category)
{
    return category && (qstrcmp(category, "aile.access") == 0 || qstrcmp(category, "aile.health") == 0);
}

// key=value key="a value with \"quotes\"" → fields; numbers stay numbers.
QJsonObject logfmtFields(const QString &line)
{
    QJsonObject out;
    qsizetype i = 0;
    const qsizetype n = line.size();
    while (i < n) {
        while (i < n && line.at(i) == QLatin1Char(' '))
            ++i;
        const qsizetype eq = line.indexOf(QLatin1Char('='), i);
        if (eq < 0)
            break;
        const QString key = line.mid(i, eq - i);
        i = eq + 1;
        QString value;
        bool quoted = false;
        if (i < n && line.at(i) == QLatin1Char('"')) {
            quoted = true;
            for (++i; i < n && line.at(i) != QLatin1Char('"'); ++i) {
                if (line.at(i) == QLatin1Char('\\') && i + 1 < n)
                    ++i;
                value += line.at(i);
            }
            ++i;
        } else {
            const qsizetype end = line.indexOf(QLatin1Char(' '), i);
            value = line.mid(i, end < 0 ? -1 : end - i);
            i = end < 0 ? n : end;
        }
        bool isNumber = false;
        const double number = quoted ? 0 : value.toDouble(&isNumber);
        out.insert(key, isNumber ? QJsonValue(number) : QJsonValue(value));
    }
    return out;
}

void rotate(Sink &s)
{
    s.file.close();
    const QString base = s.options.filePath;
    QFile::remove(base + QLatin1Char('.') + QString::number(s.options.keepFiles));
    for (int i = s.options.keepFiles - 1; i >= 1; --i)
        QFile::rename(base + QLatin1Char('.') + QString::number(i), base + QLatin1Char('.') + QString::number(i + 1));
    QFile::rename(base, base + QStringLiteral(".1"));
    s.file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text);
    s.file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}

// Writes whole lines (each ending in '\n') to the file or stderr: one write and one flush.
void emitBytes(Sink &s, const QByteArray &bytes)
{
    QMutexLocker lock(&s.mutex);
    if (s.file.isOpen()) {
        s.file.write(bytes);
        s.file.flush();
        if (s.file.size() > s.options.maxFileBytes)
            rotate(s);
    } else {
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
        std::fflush(stderr);
    }
}

void handle(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    Sink &s = sink();
    const QString line = formatLine(s.options.format, type, context.category, message, QDateTime::currentMSecsSinceEpoch());
    emitBytes(s, line.toUtf8() + '\n');
    if (type == QtFatalMsg)
        std::abort();
}

} // namespace

// The text form's prefix of a line written at nowMs ("2026-12-01T10:00:00.123Z INFO    aile.access: "):
// formatted by Qt once per second, level and category, and its milliseconds written in place. The
// access log writes a slice of lines per event-loop turn, and Qt's date formatting was most of a
// slice's cost.
QByteArray textPrefix(QtMsgType type, const char *category, qint64 nowMs)
{
    struct Cached
    {
        qint64 second = -1;
        QtMsgType type = QtDebugMsg;
        QByteArray category;
        QByteArray prefix;
        qsizetype millis = -1; // where the prefix's three digits of milliseconds are
    };
    thread_local Cached cache;
    const qint64 second = nowMs >= 0 ? nowMs / 1000 : -1;
    if (second < 0)
        return formatLine(Format::Text, type, category, QString(), nowMs).toUtf8();
    if (cache.second != second || cache.type != type || cache.category != category) {
        cache.second = second;
        cache.type = type;
        cache.category = category;
        cache.prefix = formatLine(Format::Text, type, category, QString(), second * 1000).toUtf8();
        const qsizetype dot = cache.prefix.indexOf(".000Z ");
        cache.millis = dot >= 0 && dot < cache.prefix.indexOf(' ') ? dot + 1 : -1;
    }
    QByteArray prefix = cache.prefix;
    if (cache.millis < 0)
        return formatLine(Format::Text, type, category, QString(), nowMs).toUtf8();
    const int ms = int(nowMs % 1000);
    char *digits = prefix.data() + cache.millis; // detaches: the cache keeps its own
    digits[0] = char('0' + ms / 100);
    digits[1] = char('0' + ms / 10 % 10);
    digits[2] = char('0' + ms % 10);
    return prefix;
}

bool writeLines(QtMsgType type, const char *category, const QStringList &messages)
{
    Sink &s = sink();
    {
        QMutexLocker lock(&s.mutex);
        if (!s.installed)
            return false;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QByteArray bytes;
    if (s.options.format == Format::Text) {
        // The batch's lines share their time, level and category: that prefix is formatted once.
        const QByteArray prefix = textPrefix(type, category, now);
        bytes.reserve(messages.size() * (prefix.size() + 160));
        for (const QString &message : messages)
            bytes.append(prefix).append(message.toUtf8()).append('\n');
    } else {
        for (const QString &message : messages)
            bytes += formatLine(s.options.format, type, category, message, now).toUtf8() + '\n';
    }
    if (!bytes.isEmpty())
        emitBytes(s, bytes);
    return true;
}

bool writeTextLines(QtMsgType type, const char *category, const std::function<void(QByteArray &out, const QByteArray &prefix)> &build)
{
    Sink &s = sink();
    {
        QMutexLocker lock(&s.mutex);
        if (!s.installed || s.options.format != Format::Text)
            return false;
    }
    QByteArray bytes;
    build(bytes, textPrefix(type, category, QDateTime::currentMSecsSinceEpoch()));
    if (!bytes.isEmpty())
        emitBytes(s, bytes);
    return true;
}

std::optional<Level> parseLevel(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("debug"))
        return Level::Debug;
    if (n == QLatin1String("info"))
        return Level::Info;
    if (n == QLatin1String("warning") || n == QLatin1String("warn"))
        return Level::Warning;
    if (n == QLatin1String("error"))
        return Level::Error;
    return std::nullopt;
}

std::optional<Format> parseFormat(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("text"))
        return Format::Text;
    if (n == QLatin1String("json"))
        return Format::Json;
    return std::nullopt;
}

QString filterRules(Level level)
{
    auto on = [level](Level at) { return level <= at ? QStringLiteral("true") : QStringLiteral("false"); };
    return QStringLiteral("aile.*.debug=%1\naile.*.info=%2\naile.*.warning=%3").arg(on(Level::Debug), on(Level::Info), on(Level::Warning));
}

QString formatLine(Format format, QtMsgType type, const char *category, const QString &message, qint64 nowMs)
{
    const QString time = QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC).toString(Qt::ISODateWithMs);
    const QString cat = QString::fromLatin1(category && *category ? category : "default");
    if (format == Format::Text)
        return QStringLiteral("%1 %2 %3: %4").arg(time, QString::fromLatin1(levelName(type)).toUpper().leftJustified(7), cat, message);
    QJsonObject o{{QStringLiteral("time"), time}, {QStringLiteral("level"), QString::fromLatin1(levelName(type))}, {QStringLiteral("category"), cat}};
    if (structured(category)) {
        const QJsonObject fields = logfmtFields(message);
        for (auto it = fields.begin(); it != fields.end(); ++it)
            o.insert(it.key(), it.value());
    } else {
        o.insert(QStringLiteral("message"), message);
    }
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

bool install(const Options &options, QString *error)
{
    Sink &s = sink();
    {
        QMutexLocker lock(&s.mutex);
        s.options = options;
        s.file.close();
        if (!options.filePath.isEmpty()) {
            QDir().mkpath(QFileInfo(options.filePath).absolutePath());
            s.file.setFileName(options.filePath);
            if (!s.file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Text)) {
                if (error)
                    *error = QStringLiteral("cannot open the log file %1: %2").arg(options.filePath, s.file.errorString());
                return false;
            }
            s.file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        }
        s.installed = true;
    }
    QLoggingCategory::setFilterRules(filterRules(options.level));
    qInstallMessageHandler(handle);
    return true;
}

void uninstall()
{
    qInstallMessageHandler(nullptr);
    Sink &s = sink();
    QMutexLocker lock(&s.mutex);
    s.file.close();
    s.installed = false;
}

QString defaultLogDir()
{
    QString state = qEnvironmentVariable("XDG_STATE_HOME");
    if (state.isEmpty() || !QDir::isAbsolutePath(state))
        state = QDir::homePath() + QStringLiteral("/.local/state");
    return state + QStringLiteral("/aile");
}

} // namespace Aile::Log
