#pragma once

#include "TraceFilter.h"

#include <QtCore/QCoreApplication>

namespace Aile::Ui {

enum class ExportFormat { Json, Csv };

/// Writes traces to a file as JSON (an array of the engine's trace objects, attempts included)
/// or CSV (one line per trace, the table's columns). Pages through its own read-only store
/// connection, so an export of 100,000 rows can run on a worker thread without the GUI's.
class TraceExport
{
    Q_DECLARE_TR_FUNCTIONS(Aile::Ui::TraceExport)
public:
    /// The filtered rows of the database at dbPath. Returns how many were written, or -1 with
    /// error set. The file is replaced atomically: a failed export leaves no half file.
    static int fromStore(const QString &dbPath, const TraceFilter &filter, ExportFormat format, const QString &filePath, QString *error);
    /// Rows already in memory (the live-only table, when no store could be opened).
    static int fromRows(const QList<Store::TraceRecord> &rows, ExportFormat format, const QString &filePath, QString *error);
    /// CSV by the file's extension, JSON otherwise.
    static ExportFormat formatForPath(const QString &filePath);

    static QByteArray csvHeaderLine();
    static QByteArray csvLine(const Store::TraceRecord &trace);
};

} // namespace Aile::Ui
