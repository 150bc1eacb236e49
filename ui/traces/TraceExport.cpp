#include "TraceExport.h"

#include "TraceColumns.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QSaveFile>
#include <QtCore/QSet>

namespace Aile::Ui {

namespace {

constexpr int ExportPage = 1000;

QByteArray csvField(QString value, bool numeric)
{
    // A cell starting with = + - @ is a formula to a spreadsheet; model names and error texts
    // come from clients and upstreams, so such text is defused with a leading apostrophe.
    if (!numeric && !value.isEmpty() && QStringLiteral("=+-@").contains(value.front()))
        value.prepend(QLatin1Char('\''));
    if (value.contains(QLatin1Char(',')) || value.contains(QLatin1Char('"')) || value.contains(QLatin1Char('\n'))
        || value.contains(QLatin1Char('\r'))) {
        value.replace(QStringLiteral("\""), QStringLiteral("\"\""));
        value = QLatin1Char('"') + value + QLatin1Char('"');
    }
    return value.toUtf8();
}

class Writer
{
public:
    Writer(ExportFormat format, const QString &path) : m_format(format), m_file(path) { }

    bool begin(QString *error)
    {
        if (!m_file.open(QIODevice::WriteOnly)) {
            *error = TraceExport::tr("cannot write %1: %2").arg(m_file.fileName(), m_file.errorString());
            return false;
        }
        m_file.write(m_format == ExportFormat::Json ? QByteArray("[") : TraceExport::csvHeaderLine());
        return true;
    }

    void write(const Store::TraceRecord &t)
    {
        if (m_format == ExportFormat::Json) {
            m_file.write(m_count == 0 ? "\n" : ",\n");
            m_file.write(QJsonDocument(t.toJson()).toJson(QJsonDocument::Compact));
        } else {
            m_file.write(TraceExport::csvLine(t));
        }
        ++m_count;
    }

    int end(QString *error)
    {
        if (m_format == ExportFormat::Json)
            m_file.write("\n]\n");
        if (!m_file.commit()) {
            *error = TraceExport::tr("cannot write %1: %2").arg(m_file.fileName(), m_file.errorString());
            return -1;
        }
        return m_count;
    }

private:
    ExportFormat m_format;
    QSaveFile m_file;
    int m_count = 0;
};

} // namespace

QByteArray TraceExport::csvHeaderLine()
{
    QByteArrayList cells;
    for (int c = 0; c < TraceColumns::Count; ++c)
        cells << TraceColumns::csvHeader(c).toUtf8();
    cells << "error"
          << "id";
    return cells.join(',') + "\r\n";
}

QByteArray TraceExport::csvLine(const Store::TraceRecord &t)
{
    QByteArrayList cells;
    for (int c = 0; c < TraceColumns::Count; ++c)
        cells << csvField(TraceColumns::csvValue(t, c), TraceColumns::isNumeric(c));
    cells << csvField(t.error, false) << csvField(t.id, false);
    return cells.join(',') + "\r\n";
}

ExportFormat TraceExport::formatForPath(const QString &filePath)
{
    return filePath.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive) ? ExportFormat::Csv : ExportFormat::Json;
}

int TraceExport::fromStore(const QString &dbPath, const TraceFilter &filter, ExportFormat format, const QString &filePath, QString *error)
{
    Store::Store store(dbPath, true);
    if (!store.open(error))
        return -1;
    Writer writer(format, filePath);
    if (!writer.begin(error))
        return -1;
    // The engine keeps writing while we page: a new row pushes older ones down a place, so a
    // page can repeat the previous page's last rows. Ids already written are skipped.
    QSet<QString> seen;
    for (int offset = 0;; offset += ExportPage) {
        const QList<Store::TraceRecord> page = store.traces(filter.query(ExportPage, offset, format == ExportFormat::Json));
        for (const Store::TraceRecord &t : page) {
            if (seen.contains(t.id))
                continue;
            seen.insert(t.id);
            writer.write(t);
        }
        if (page.size() < ExportPage)
            break;
    }
    return writer.end(error);
}

int TraceExport::fromRows(const QList<Store::TraceRecord> &rows, ExportFormat format, const QString &filePath, QString *error)
{
    Writer writer(format, filePath);
    if (!writer.begin(error))
        return -1;
    for (const Store::TraceRecord &t : rows)
        writer.write(t);
    return writer.end(error);
}

} // namespace Aile::Ui
