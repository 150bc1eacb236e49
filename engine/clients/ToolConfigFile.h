#pragma once

#include "ToolConfigEdit.h"

#include <QtCore/QByteArray>
#include <QtCore/QProcessEnvironment>
#include <QtCore/QString>

namespace Aile::Clients {

/// "Apply for me" on disk: where each tool keeps its configuration, a preview (the diff, the
/// key masked), the write with a backup of the previous bytes, and an exact undo.
///
/// Beside FILE, an apply leaves FILE.aile-backup (the bytes before Aile's first apply, mode 0600)
/// and FILE.aile-applied (a small JSON: whether FILE existed, the SHA-256 of what Aile wrote,
/// when). Undo puts the backup's bytes back (or removes FILE if Aile created it) and only when
/// FILE still holds exactly what Aile wrote; otherwise it refuses and says where the backup is.
/// A second apply that changes nothing writes nothing; one that changes Aile's part again keeps
/// the first backup, so undo still returns to the file as it was before Aile.
class ToolConfigFile
{
public:
    /// Claude Code: $CLAUDE_CONFIG_DIR or ~/.claude, settings.json. Codex: $CODEX_HOME or
    /// ~/.codex, config.toml. OpenCode: $OPENCODE_CONFIG, else $XDG_CONFIG_HOME or ~/.config,
    /// opencode/opencode.json (opencode.jsonc when only that one exists).
    static QString path(ClientSnippets::Tool tool, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    static QString backupPath(const QString &path) { return path + QStringLiteral(".aile-backup"); }
    static QString statePath(const QString &path) { return path + QStringLiteral(".aile-applied"); }

    struct Preview
    {
        QString path;
        bool existed = false;
        QByteArray before;
        QByteArray after;
        QString diff;  // unified diff, the key replaced by its first characters and "…"
        QString error; // why nothing can be written (the file cannot be read or edited safely)
        bool changes() const { return error.isEmpty() && (before != after || !existed); }
    };
    struct Result
    {
        bool ok = false;
        QString message; // what happened, or why nothing was done, in a sentence for the user
    };

    /// What applying setup to the file at path would change; nothing is written.
    static Preview preview(const ToolSetup &setup, const QString &path);
    /// Writes preview.after (checking that the file still holds preview.before).
    static Result apply(const Preview &preview);

    /// Whether an apply can be undone here (FILE.aile-applied is there).
    static bool canUndo(const QString &path);
    /// What undo would change (the diff from the file now back to the backup).
    static Preview undoPreview(const QString &path);
    static Result undo(const QString &path);

    /// text with every occurrence of key shown as its first 12 characters and "…".
    static QString masked(const QString &text, const QString &key);
};

} // namespace Aile::Clients
