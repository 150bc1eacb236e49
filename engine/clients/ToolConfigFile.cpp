#include "ToolConfigFile.h"

#include "TextDiff.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>
#include <QtCore/QSaveFile>

namespace Aile::Clients {

namespace {

using Tool = ClientSnippets::Tool;

constexpr QFileDevice::Permissions OwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

QString sha256(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

// The file's bytes; *existed false when there is none. False when it is there but unreadable.
bool readAll(const QString &path, QByteArray *bytes, bool *existed)
{
    QFile f(path);
    *existed = f.exists();
    bytes->clear();
    if (!*existed)
        return true;
    if (!f.open(QIODevice::ReadOnly))
        return false;
    *bytes = f.readAll();
    return true;
}

// Written whole or not at all (QSaveFile renames into place), with the given permissions.
bool writeAll(const QString &path, const QByteArray &bytes, QFileDevice::Permissions permissions, QString *error)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        *error = QStringLiteral("cannot create the folder of %1").arg(path);
        return false;
    }
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.commit()) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, out.errorString());
        return false;
    }
    QFile::setPermissions(path, permissions);
    return true;
}

QJsonObject readState(const QString &path)
{
    QFile f(ToolConfigFile::statePath(path));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

QString ToolConfigFile::path(Tool tool, const QProcessEnvironment &env)
{
    const QString home = env.value(QStringLiteral("HOME"), QDir::homePath());
    switch (tool) {
    case Tool::ClaudeCode:
        return env.value(QStringLiteral("CLAUDE_CONFIG_DIR"), home + QStringLiteral("/.claude")) + QStringLiteral("/settings.json");
    case Tool::Codex: return env.value(QStringLiteral("CODEX_HOME"), home + QStringLiteral("/.codex")) + QStringLiteral("/config.toml");
    case Tool::OpenCode: {
        if (!env.value(QStringLiteral("OPENCODE_CONFIG")).isEmpty())
            return env.value(QStringLiteral("OPENCODE_CONFIG"));
        QString config = env.value(QStringLiteral("XDG_CONFIG_HOME"));
        if (config.isEmpty())
            config = home + QStringLiteral("/.config");
        const QString json = config + QStringLiteral("/opencode/opencode.json");
        const QString jsonc = config + QStringLiteral("/opencode/opencode.jsonc");
        return !QFileInfo::exists(json) && QFileInfo::exists(jsonc) ? jsonc : json;
    }
    case Tool::OpenAiSdk:
    case Tool::AnthropicSdk: break;
    }
    return {};
}

QString ToolConfigFile::masked(const QString &text, const QString &key)
{
    QString out = text;
    if (key.size() >= 8)
        out.replace(key, key.left(12) + QStringLiteral("…"));
    // Aile's own keys anywhere in the text (an undo's diff shows the key Aile wrote).
    static const QRegularExpression aileKey(QStringLiteral("(sk-aile-[0-9a-f]{4})[0-9a-f]{8,}"));
    return out.replace(aileKey, QStringLiteral("\\1…"));
}

ToolConfigFile::Preview ToolConfigFile::preview(const ToolSetup &setup, const QString &path)
{
    Preview p;
    p.path = path;
    if (!readAll(path, &p.before, &p.existed)) {
        p.error = QStringLiteral("cannot read %1").arg(path);
        return p;
    }
    QString why;
    p.after = ToolConfigEdit::edit(setup, p.before, &why);
    if (!why.isEmpty()) {
        p.error = QStringLiteral("%1: %2").arg(path, why);
        return p;
    }
    p.diff = masked(unifiedDiff(QString::fromUtf8(p.before), QString::fromUtf8(p.after), p.existed ? path : QStringLiteral("/dev/null"), path),
                    setup.key.trimmed());
    return p;
}

ToolConfigFile::Result ToolConfigFile::apply(const Preview &p)
{
    if (!p.error.isEmpty())
        return {false, p.error};
    QByteArray now;
    bool existed = false;
    if (!readAll(p.path, &now, &existed) || now != p.before || existed != p.existed)
        return {false, QStringLiteral("%1 changed since the preview; nothing was written. Look at it again.").arg(p.path)};
    if (!p.changes())
        return {true, QStringLiteral("%1 already holds these settings; nothing was written.").arg(p.path)};
    // The backup is of the file before Aile: kept across applies while the file holds what Aile
    // wrote last, renewed when the user changed the file in between.
    const QJsonObject state = readState(p.path);
    const bool keepBackup = !state.isEmpty() && state.value(QLatin1String("written")).toString() == sha256(p.before);
    QString error;
    bool original = p.existed;
    if (keepBackup) {
        original = state.value(QLatin1String("existed")).toBool();
    } else if (p.existed) {
        if (!writeAll(backupPath(p.path), p.before, OwnerOnly, &error))
            return {false, error + QStringLiteral("; nothing was written")};
    } else {
        QFile::remove(backupPath(p.path));
    }
    const QFileDevice::Permissions permissions = p.existed ? QFile::permissions(p.path) : OwnerOnly;
    if (!writeAll(p.path, p.after, permissions, &error))
        return {false, error};
    const QJsonObject written{{QStringLiteral("existed"), original},
                              {QStringLiteral("written"), sha256(p.after)},
                              {QStringLiteral("at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
    if (!writeAll(statePath(p.path), QJsonDocument(written).toJson(QJsonDocument::Compact), OwnerOnly, &error))
        return {false, error + QStringLiteral("; the settings were written but cannot be undone by Aile")};
    return {true, original ? QStringLiteral("Wrote %1; the previous file is kept in %2.").arg(p.path, backupPath(p.path))
                           : QStringLiteral("Wrote %1 (a new file).").arg(p.path)};
}

bool ToolConfigFile::canUndo(const QString &path)
{
    return !readState(path).isEmpty();
}

ToolConfigFile::Preview ToolConfigFile::undoPreview(const QString &path)
{
    Preview p;
    p.path = path;
    const QJsonObject state = readState(path);
    if (state.isEmpty()) {
        p.error = QStringLiteral("Aile has not applied settings to %1 (there is no %2), so there is nothing to restore.")
                      .arg(path, QFileInfo(statePath(path)).fileName());
        return p;
    }
    if (!readAll(path, &p.before, &p.existed)) {
        p.error = QStringLiteral("cannot read %1").arg(path);
        return p;
    }
    if (!p.existed || sha256(p.before) != state.value(QLatin1String("written")).toString()) {
        p.error = QStringLiteral("%1 changed since Aile applied its settings (%2); restoring would lose those changes, so "
                                 "nothing was done. The file before Aile is in %3: compare and copy it back by hand, or "
                                 "apply again and then undo.")
                      .arg(path, state.value(QLatin1String("at")).toString(),
                           state.value(QLatin1String("existed")).toBool() ? backupPath(path) : QStringLiteral("(none: Aile created the file)"));
        return p;
    }
    bool backupThere = false;
    if (state.value(QLatin1String("existed")).toBool() && (!readAll(backupPath(path), &p.after, &backupThere) || !backupThere)) {
        p.error = QStringLiteral("the backup %1 is missing; nothing was done").arg(backupPath(path));
        return p;
    }
    p.diff = masked(unifiedDiff(QString::fromUtf8(p.before), QString::fromUtf8(p.after), path, backupThere ? path : QStringLiteral("/dev/null")),
                    QString());
    return p;
}

ToolConfigFile::Result ToolConfigFile::undo(const QString &path)
{
    const Preview p = undoPreview(path);
    if (!p.error.isEmpty())
        return {false, p.error};
    const bool existed = readState(path).value(QLatin1String("existed")).toBool();
    QString error;
    if (existed) {
        if (!writeAll(path, p.after, QFile::permissions(path), &error))
            return {false, error};
    } else if (!QFile::remove(path)) {
        return {false, QStringLiteral("cannot remove %1").arg(path)};
    }
    QFile::remove(backupPath(path));
    QFile::remove(statePath(path));
    return {true, existed ? QStringLiteral("Restored %1 as it was before Aile.").arg(path)
                          : QStringLiteral("Removed %1, which Aile had created.").arg(path)};
}

} // namespace Aile::Clients
