#include "ConnectApply.h"

#include "clients/ToolConfigFile.h"

#include <QtCore/QTextStream>

namespace Aile::Cli {

using Clients::ClientSnippets;
using Clients::ToolConfigFile;

int runConnectApply(const Clients::ToolSetup &setup, bool dryRun)
{
    QTextStream out(stdout), err(stderr);
    const QString id = ClientSnippets::id(setup.tool);
    if (setup.key.trimmed().isEmpty()) {
        err << "aile connect: --apply writes the key into the tool's settings: give it with --new-key NAME, "
               "--key-file FILE (- reads stdin) or $AILE_KEY\n";
        return 2;
    }
    const ToolConfigFile::Preview p = ToolConfigFile::preview(setup, ToolConfigFile::path(setup.tool));
    if (!p.error.isEmpty()) {
        err << "aile connect: " << p.error << Qt::endl;
        return 1;
    }
    if (!p.changes()) {
        out << p.path << " already holds these settings; nothing to write\n";
        return 0;
    }
    // The preview masks the key; the file gets it in full (the user asked for that).
    out << p.diff;
    if (dryRun) {
        out << "(dry run: nothing written; the file would hold your key in full)\n";
        return 0;
    }
    const ToolConfigFile::Result r = ToolConfigFile::apply(p);
    if (!r.ok) {
        err << "aile connect: " << r.message << Qt::endl;
        return 1;
    }
    out << r.message << "\nThe file now holds your Aile key. aile connect " << id << " --undo restores it as it was.\n";
    return 0;
}

int runConnectUndo(ClientSnippets::Tool tool, bool dryRun)
{
    QTextStream out(stdout), err(stderr);
    const QString path = ToolConfigFile::path(tool);
    const ToolConfigFile::Preview p = ToolConfigFile::undoPreview(path);
    if (!p.error.isEmpty()) {
        err << "aile connect: " << p.error << Qt::endl;
        return 1;
    }
    out << p.diff;
    if (dryRun) {
        out << "(dry run: nothing restored)\n";
        return 0;
    }
    const ToolConfigFile::Result r = ToolConfigFile::undo(path);
    if (!r.ok) {
        err << "aile connect: " << r.message << Qt::endl;
        return 1;
    }
    out << r.message << Qt::endl;
    return 0;
}

} // namespace Aile::Cli
