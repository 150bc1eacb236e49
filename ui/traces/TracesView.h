#pragma once

#include "TraceFilter.h"

#include "api/values/EngineStatus.h"

#include <QtCore/QJsonArray>
#include <QtWidgets/QWidget>

class QLabel;
class QPushButton;
class QSettings;
class QSplitter;
class QTableView;

namespace Aile::Store {
class StoreReader;
}

namespace Aile::Ui {

class ManagementClient;
class TraceDetailPane;
class TraceFilterBar;
class TraceTableModel;

/// The Traces page: filters, the live table (one row per request, paged from the store), the
/// detail pane of the selected request, and export of the filtered rows.
class TracesView : public QWidget
{
    Q_OBJECT
public:
    explicit TracesView(QWidget *parent = nullptr);
    ~TracesView() override;

    /// The GUI's read-only store and its file (for exports on a worker thread); null for none.
    void setReader(Store::StoreReader *reader, const QString &dbPath);
    void addLive(const QList<Store::TraceRecord> &traces);
    /// While nobody can see the table (the window minimised or hidden) live batches are only
    /// kept aside; they are merged, at once, when it can be seen again (TraceTableModel).
    void setLiveDeferred(bool deferred);
    void setKeys(const QList<Api::KeyInfo> &keys);
    void setSharers(const QList<Api::SharerStatus> &sharers);
    /// Where the detail pane's attempt-row actions go (docs/gui.md, "From a trace to a fix").
    void setClient(ManagementClient *client);

    /// Writes the filtered rows to filePath (JSON, or CSV for a .csv name) off the GUI thread;
    /// exportFinished follows.
    void exportTo(const QString &filePath);
    void chooseExportFile();
    void focusSearch();
    /// Selects the trace, now or as soon as it arrives (a connection test's trace comes in the
    /// engine's next batch). Clears the filters when they would hide it.
    void revealTrace(const QString &traceId);

    void saveLayout(QSettings &settings) const;
    void restoreLayout(const QSettings &settings);

    TraceTableModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    TraceDetailPane *detailPane() const { return m_detail; }
    TraceFilterBar *filterBar() const { return m_filters; }

Q_SIGNALS:
    void exportFinished(int count, const QString &error);

private:
    void showSelected();
    void updateCount();
    void sizeColumnsOnce();
    bool selectTrace(const QString &traceId);

    TraceFilterBar *m_filters;
    TraceTableModel *m_model;
    QTableView *m_table;
    QLabel *m_count;
    QPushButton *m_export;
    QSplitter *m_splitter;
    TraceDetailPane *m_detail;
    QString m_dbPath;
    QString m_pendingReveal;
    bool m_exporting = false;
    bool m_columnsSized = false; // by the user's saved layout, or once to the first rows
};

} // namespace Aile::Ui
