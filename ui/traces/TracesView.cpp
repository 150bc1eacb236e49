#include "TracesView.h"

#include "TraceDetailPane.h"
#include "TraceExport.h"
#include "TraceFilterBar.h"
#include "TraceTableModel.h"
#include "common/CachedTextDelegate.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QLocale>
#include <QtCore/QPointer>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtCore/QThread>
#include <QtWidgets/QFileDialog>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

TracesView::TracesView(QWidget *parent)
    : QWidget(parent), m_filters(new TraceFilterBar(this)), m_model(new TraceTableModel(this)), m_table(new QTableView(this)),
      m_count(new QLabel(this)), m_export(new QPushButton(tr("E&xport…"), this)), m_splitter(new QSplitter(Qt::Vertical, this)),
      m_detail(new TraceDetailPane(this))
{
    setObjectName(QStringLiteral("tracesView"));
    m_table->setObjectName(QStringLiteral("tracesTable"));
    m_table->setModel(m_model);
    // Its text laid out once per value, not on every repaint (twice a second under load).
    m_table->setItemDelegate(new CachedTextDelegate(m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTabKeyNavigation(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setDefaultSectionSize(110);
    m_table->setAccessibleName(tr("Traces"));
    m_table->setAccessibleDescription(tr("One row per request, newest first"));

    m_count->setObjectName(QStringLiteral("tracesCount"));
    m_count->setAccessibleName(tr("Number of traces"));
    m_export->setObjectName(QStringLiteral("exportTraces"));
    m_export->setAccessibleName(tr("Export the filtered traces"));
    m_export->setToolTip(tr("Save the filtered traces as JSON or CSV"));

    m_splitter->setObjectName(QStringLiteral("tracesSplitter"));
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setChildrenCollapsible(false);

    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_count, 1);
    bottom->addWidget(m_export);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_filters);
    layout->addWidget(m_splitter, 1);
    layout->addLayout(bottom);

    connect(m_filters, &TraceFilterBar::filterChanged, m_model, &TraceTableModel::setFilter);
    connect(m_model, &TraceTableModel::totalCountChanged, this, &TracesView::updateCount);
    connect(m_model, &TraceTableModel::pageLoaded, this, [this] {
        updateCount();
        if (!m_pendingReveal.isEmpty())
            selectTrace(m_pendingReveal);
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &TracesView::updateCount);
    // A trace asked for before it came: live rows merge when the pace lets them (TraceTableModel).
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] {
        if (!m_pendingReveal.isEmpty())
            selectTrace(m_pendingReveal);
    });
    connect(m_model, &QAbstractItemModel::modelReset, m_detail, &TraceDetailPane::clear);
    connect(m_model, &QAbstractItemModel::modelReset, this, &TracesView::sizeColumnsOnce);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &TracesView::sizeColumnsOnce);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &TracesView::showSelected);
    connect(m_export, &QPushButton::clicked, this, &TracesView::chooseExportFile);
    updateCount();
}

TracesView::~TracesView() = default;

void TracesView::setReader(Store::StoreReader *reader, const QString &dbPath)
{
    m_dbPath = reader ? dbPath : QString();
    m_model->setReader(reader);
}

void TracesView::addLive(const QList<Store::TraceRecord> &traces)
{
    // The selection is a persistent index: rows inserted above it keep the same trace selected.
    m_model->addLive(traces);
}

void TracesView::setLiveDeferred(bool deferred)
{
    // What undeferring merges arrives as rowsInserted (or pageLoaded): both select a trace asked for.
    m_model->setLiveDeferred(deferred);
}

void TracesView::setKeys(const QList<Api::KeyInfo> &keys)
{
    m_filters->setKeys(keys);
}

void TracesView::setClient(ManagementClient *client)
{
    m_detail->setClient(client);
}

void TracesView::setSharers(const QList<Api::SharerStatus> &sharers)
{
    m_filters->setSharers(sharers);
}

void TracesView::focusSearch()
{
    m_filters->focusText();
}

void TracesView::revealTrace(const QString &traceId)
{
    if (traceId.isEmpty())
        return;
    if (!m_model->filter().isEmpty())
        m_filters->clear();
    if (!selectTrace(traceId))
        m_pendingReveal = traceId;
}

bool TracesView::selectTrace(const QString &traceId)
{
    const int row = m_model->rowOf(traceId);
    if (row < 0)
        return false;
    m_pendingReveal.clear();
    m_table->setCurrentIndex(m_model->index(row, 0));
    m_table->scrollTo(m_model->index(row, 0));
    return true;
}

void TracesView::showSelected()
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid()) {
        m_detail->clear();
        return;
    }
    // The attempts of a stored row are read off the GUI thread; shown if the row is still current.
    const QString id = m_model->trace(current.row()).id;
    m_model->loadFullTrace(current.row(), this, [this, id](std::optional<Store::TraceRecord> trace) {
        const QModelIndex now = m_table->currentIndex();
        if (trace && now.isValid() && m_model->trace(now.row()).id == id)
            m_detail->showTrace(*trace);
    });
}

void TracesView::updateCount()
{
    const QLocale locale;
    if (m_model->rowCount() < m_model->totalCount())
        m_count->setText(
            tr("%1 of %2 traces loaded; scroll for more").arg(locale.toString(m_model->rowCount()), locale.toString(m_model->totalCount())));
    else
        m_count->setText(tr("Traces: %1").arg(locale.toString(m_model->totalCount())));
}

void TracesView::sizeColumnsOnce()
{
    if (m_columnsSized || m_model->rowCount() == 0)
        return;
    m_columnsSized = true;
    m_table->resizeColumnsToContents();
}

void TracesView::chooseExportFile()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    QString selected;
    const QString json = tr("JSON (*.json)");
    const QString csv = tr("CSV (*.csv)");
    QString path = QFileDialog::getSaveFileName(this, tr("Export traces"), QDir(dir).filePath(QStringLiteral("aile-traces.json")),
                                                json + QStringLiteral(";;") + csv, &selected);
    if (path.isEmpty())
        return;
    if (selected == csv && !path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
        path += QStringLiteral(".csv");
    exportTo(path);
}

void TracesView::exportTo(const QString &filePath)
{
    if (m_exporting)
        return;
    const ExportFormat format = TraceExport::formatForPath(filePath);
    if (m_dbPath.isEmpty()) {
        QString error;
        const int n = TraceExport::fromRows(m_model->heldRows(), format, filePath, &error);
        Q_EMIT exportFinished(n, error);
        return;
    }
    m_exporting = true;
    m_export->setEnabled(false);
    m_count->setText(tr("Exporting…"));
    // The worker opens its own store connection; only values cross back, through a queued call.
    QPointer<TracesView> self(this);
    const QString dbPath = m_dbPath;
    const TraceFilter filter = m_model->filter();
    QThread *worker = QThread::create([self, dbPath, filter, format, filePath] {
        QString error;
        const int n = TraceExport::fromStore(dbPath, filter, format, filePath, &error);
        QMetaObject::invokeMethod(
            qApp,
            [self, n, error] {
                if (!self)
                    return;
                self->m_exporting = false;
                self->m_export->setEnabled(true);
                self->updateCount();
                Q_EMIT self->exportFinished(n, error);
            },
            Qt::QueuedConnection);
    });
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
}

void TracesView::saveLayout(QSettings &settings) const
{
    settings.setValue(QStringLiteral("traces/splitter"), m_splitter->saveState());
    settings.setValue(QStringLiteral("traces/header"), m_table->horizontalHeader()->saveState());
}

void TracesView::restoreLayout(const QSettings &settings)
{
    m_splitter->restoreState(settings.value(QStringLiteral("traces/splitter")).toByteArray());
    if (m_table->horizontalHeader()->restoreState(settings.value(QStringLiteral("traces/header")).toByteArray()))
        m_columnsSized = true;
}

} // namespace Aile::Ui
