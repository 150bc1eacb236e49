#pragma once

#include "TraceFilter.h"

#include <QtCore/QAbstractTableModel>
#include <QtCore/QSet>
#include <QtGui/QIcon>

#include <deque>
#include <functional>
#include <optional>

class QTimer;

namespace Aile::Store {
class StoreReader;
}

namespace Aile::Ui {

class ManagementClient;

/// The Traces table: a window onto the store's traces (newest first) that pages in on demand
/// with canFetchMore()/fetchMore(), with the engine's live rows merged in as they arrive.
///
/// The engine publishes a live row before or after its store writer commits it, and keeps
/// writing while the user scrolls, so paging does not trust row counts: the next page starts
/// after every stored row strictly newer than the oldest row held (one COUNT on the indexed
/// start time), and rows already held are recognised by id. A live row older than the oldest
/// held row is left for paging to bring. Recent live rows are kept aside so that a reload
/// (a new filter) shows those the store has not committed yet. Without a store the model keeps
/// live rows only.
///
/// Every read goes through the StoreReader's thread: a reload or a page is asked for and merged
/// when it arrives (an answer for an older filter, or one overtaken by live rows trimming the
/// window, is dropped), so the GUI thread never runs SQL.
class TraceTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int PageSize = 200;
    /// Past this many held rows the oldest are dropped; paging brings them back when scrolled to.
    static constexpr int MaxHeldRows = 20000;
    /// Live rows kept aside for reloads (all there is without a store).
    static constexpr int MaxLiveRows = 5000;
    enum Role { TraceIdRole = Qt::UserRole + 1, FailedRole, StartedRole };

    explicit TraceTableModel(QObject *parent = nullptr);

    /// The store reader, or null. Not owned. Reloads the first page.
    void setReader(Store::StoreReader *reader);
    /// Without a store reader (an engine attached over HTTP), pages come through the management
    /// API instead (GET /keys/usage/requests), by the same rule. Not owned.
    void setClient(ManagementClient *client);
    void setFilter(const TraceFilter &filter);
    const TraceFilter &filter() const { return m_filter; }
    /// Drops what is held and reads the first page again.
    void reload();
    /// Another engine now: the live rows kept aside are not its own; reads the first page again.
    void forgetLive();
    /// Merges a batch the engine just recorded (EngineHost::tracesRecorded): one row insertion
    /// for a batch newer than every row held (the busy case), and no copy of the batch kept aside.
    void addLive(const QList<Store::TraceRecord> &traces);
    /// While deferred (the window is minimised or hidden), a batch is only kept aside, shared, and
    /// the rows held do not change; undeferring merges what came meanwhile as one batch, or reads
    /// the first page again when more came than the window holds.
    void setLiveDeferred(bool deferred);
    bool isLiveDeferred() const { return m_liveDeferred; }
    /// The pace of live rows (docs/gui.md, "Live traces under load"): a batch that comes less than
    /// LivePaceMs after the last merge is held like a deferred one, and the pace timer merges
    /// every batch held as one when LivePaceMs have passed. A busy engine's batches (one every
    /// 100 ms) thus cost the table one insertion and one repaint every half second, and a batch
    /// after a quiet spell shows at once.
    static constexpr int LivePaceMs = 500;
    /// Test seam: the monotonic clock the pace reads, in ms (QElapsedTimer's by default).
    void setLiveClock(std::function<qint64()> clock);
    /// Merges the batches held by the pace now (what the pace timer calls), unless deferred.
    void mergeHeldLive();
    /// Batches kept aside, not merged yet (by the pace or while deferred).
    int heldLiveBatches() const { return m_deferredBatches; }
    const QTimer *livePaceTimer() const { return m_livePace; }

    const Store::TraceRecord &trace(int row) const { return m_rows.at(row); }
    /// The row holding the trace, or -1.
    int rowOf(const QString &traceId) const;
    /// The trace with its attempt rows: as held without a store (done runs at once), else read
    /// from the store (done runs when it arrives, unless context is gone), or as it came live
    /// when the store does not have it yet.
    void loadFullTrace(int row, QObject *context, std::function<void(std::optional<Store::TraceRecord>)> done) const;
    /// A reload or a page is on its way from the reader.
    bool isReading() const { return m_reading; }
    /// Every row held, for an export without a store.
    QList<Store::TraceRecord> heldRows() const { return QList<Store::TraceRecord>(m_rows.begin(), m_rows.end()); }
    /// How many traces match the filter in all (held or not).
    int totalCount() const { return m_total; }
    bool hasStore() const { return m_reader != nullptr; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    /// The number of matching traces changed (a reload, live rows).
    void totalCountChanged(int total);
    /// A page or a reload from the store was merged.
    void pageLoaded();

private:
    void trimOldest();
    void trimLive();
    /// Merges the batches held (m_deferredBatches), or reads the first page again when more came
    /// than the window holds.
    void mergeHeld();
    const QIcon &rowIcon(bool failedRow) const;
    void showPage(QList<Store::TraceRecord> rows, int total);
    void appendPage(QList<Store::TraceRecord> page, bool exhausted);
    /// Inserts a row at its place by start time; false when that place is past the window.
    bool insertSorted(const Store::TraceRecord &trace, bool notify);
    /// Merges rows of one or more batches, in any order, into the rows held.
    void mergeLive(const QList<const Store::TraceRecord *> &rows);
    /// A live row as the window holds it: without its attempt rows when there is a store.
    Store::TraceRecord heldRow(const Store::TraceRecord &live) const;
    /// The whole record among the live batches kept aside, or null.
    const Store::TraceRecord *liveRecord(const QString &traceId) const;
    void reloadThroughClient();
    void fetchMoreThroughClient();

    Store::StoreReader *m_reader = nullptr;
    ManagementClient *m_client = nullptr;
    quint64 m_generation = 0; // bumped by every reload: an answer for an older one is dropped
    bool m_reading = false;
    TraceFilter m_filter;
    // Newest first. A deque: a batch goes in at the front and the oldest rows leave at the back
    // without moving the 20,000 rows held (a QList slid or reallocated them every few batches).
    std::deque<Store::TraceRecord> m_rows;
    // The engine's batches as they came (implicitly shared with the signal: no row copied), oldest
    // first, at least MaxLiveRows rows in all once that many came.
    QList<QList<Store::TraceRecord>> m_live;
    int m_liveRows = 0;
    bool m_liveDeferred = false;
    QTimer *m_livePace;
    std::function<qint64()> m_clock;
    std::optional<qint64> m_lastMergeMs; // m_clock's reading at the last live merge

    int m_deferredBatches = 0; // the last batches of m_live, not merged yet
    int m_deferredRows = 0;    // their rows, counted even once trimmed from m_live
    QSet<QString> m_ids;
    int m_total = 0;
    bool m_exhausted = true;
    mutable QIcon m_statusIcons[2]; // served, failed: made on first use
};

} // namespace Aile::Ui
