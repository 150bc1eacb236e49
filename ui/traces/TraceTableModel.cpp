#include "TraceTableModel.h"

#include "common/ManagementClient.h"

#include "TraceColumns.h"
#include "common/StatusIcon.h"
#include "store/Store.h"
#include "store/StoreReader.h"

#include <QtCore/QDateTime>
#include <QtCore/QElapsedTimer>
#include <QtCore/QTimer>

#include <algorithm>
#include <iterator>
#include <utility>

namespace Aile::Ui {

namespace {

bool failed(const Store::TraceRecord &t)
{
    return t.status == 0 || t.status >= 400;
}

} // namespace

TraceTableModel::TraceTableModel(QObject *parent) : QAbstractTableModel(parent), m_livePace(new QTimer(this))
{
    m_livePace->setObjectName(QStringLiteral("livePace"));
    m_livePace->setSingleShot(true);
    connect(m_livePace, &QTimer::timeout, this, &TraceTableModel::mergeHeldLive);
    setLiveClock({});
}

void TraceTableModel::setLiveClock(std::function<qint64()> clock)
{
    if (!clock) {
        auto started = std::make_shared<QElapsedTimer>();
        started->start();
        clock = [started] { return started->elapsed(); };
    }
    m_clock = std::move(clock);
    m_lastMergeMs.reset();
}

void TraceTableModel::setReader(Store::StoreReader *reader)
{
    m_reader = reader;
    reload();
}

void TraceTableModel::setClient(ManagementClient *client)
{
    m_client = client;
    if (!m_reader)
        reload();
}

void TraceTableModel::setFilter(const TraceFilter &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    reload();
}

void TraceTableModel::reload()
{
    ++m_generation;
    // The page shows every live row kept aside, deferred ones included.
    m_livePace->stop();
    m_deferredBatches = 0;
    m_deferredRows = 0;
    // Until the page arrives the table shows the live rows that match (all there is without a store).
    m_exhausted = true;
    m_reading = m_reader != nullptr || m_client != nullptr;
    showPage({}, 0);
    if (!m_reader)
        return reloadThroughClient();
    const Store::TraceQuery page = m_filter.query(PageSize, 0);
    const Store::TraceQuery count = m_filter.query(0, 0);
    m_reader->read<std::pair<QList<Store::TraceRecord>, int>>(
        "trace page",
        [page, count](const Store::Store &store) {
            QList<Store::TraceRecord> rows = store.traces(page);
            const int total = rows.size() < page.limit ? int(rows.size()) : store.traceCount(count);
            return std::pair{rows, total};
        },
        this,
        [this, generation = m_generation](std::pair<QList<Store::TraceRecord>, int> answer) {
            if (generation != m_generation)
                return; // a newer reload is on its way
            m_reading = false;
            m_exhausted = answer.first.size() < PageSize;
            showPage(std::move(answer.first), answer.second);
            Q_EMIT pageLoaded();
        });
}

void TraceTableModel::showPage(QList<Store::TraceRecord> rows, int total)
{
    beginResetModel();
    m_rows.assign(std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
    m_ids.clear();
    m_total = total;
    for (const Store::TraceRecord &t : std::as_const(m_rows))
        m_ids.insert(t.id);
    // Live rows the store did not return: not committed yet, or all there is without a store.
    for (const QList<Store::TraceRecord> &batch : std::as_const(m_live))
        for (const Store::TraceRecord &t : batch) {
            if (m_ids.contains(t.id) || !m_filter.matches(t))
                continue;
            // Inside the window and not in the page means not committed yet: not in the COUNT either.
            if (insertSorted(t, false))
                ++m_total;
        }
    endResetModel();
    Q_EMIT totalCountChanged(m_total);
}

bool TraceTableModel::insertSorted(const Store::TraceRecord &t, bool notify)
{
    // Newest first; a live row goes before stored rows of the same millisecond, as its rowid
    // is the newer one.
    const auto at = std::lower_bound(m_rows.begin(), m_rows.end(), t.startedMs,
                                     [](const Store::TraceRecord &row, qint64 started) { return row.startedMs > started; });
    const int row = int(at - m_rows.begin());
    if (row == int(m_rows.size()) && !m_exhausted)
        return false; // past the window: paging brings it
    if (notify)
        beginInsertRows({}, row, row);
    m_rows.insert(at, heldRow(t));
    m_ids.insert(t.id);
    if (notify)
        endInsertRows();
    return true;
}

void TraceTableModel::forgetLive()
{
    m_live.clear();
    m_liveRows = 0;
    reload();
}

void TraceTableModel::addLive(const QList<Store::TraceRecord> &traces)
{
    if (traces.isEmpty())
        return;
    m_live.append(traces); // shares the batch: no row is copied to keep it aside
    m_liveRows += int(traces.size());
    const qint64 now = m_clock();
    const bool paced = m_lastMergeMs && now - *m_lastMergeMs < LivePaceMs;
    if (m_liveDeferred || paced || m_deferredBatches > 0) {
        ++m_deferredBatches;
        // Past the window only "more than it holds" matters: the count stops there (days minimised
        // under load would overflow it).
        m_deferredRows = int(std::min<qsizetype>(m_deferredRows + traces.size(), MaxHeldRows + 1));
        trimLive();
        if (!m_liveDeferred && !m_livePace->isActive())
            m_livePace->start(paced ? int(LivePaceMs - (now - *m_lastMergeMs)) : 0);
        return;
    }
    m_lastMergeMs = now;
    QList<const Store::TraceRecord *> rows;
    rows.reserve(traces.size());
    for (const Store::TraceRecord &t : traces)
        rows.append(&t);
    mergeLive(rows);
    trimLive();
}

void TraceTableModel::setLiveDeferred(bool deferred)
{
    if (deferred == m_liveDeferred)
        return;
    m_liveDeferred = deferred;
    if (deferred) {
        m_livePace->stop(); // undeferring merges what the pace held too
        return;
    }
    mergeHeld();
}

void TraceTableModel::mergeHeldLive()
{
    if (!m_liveDeferred)
        mergeHeld();
}

void TraceTableModel::mergeHeld()
{
    m_livePace->stop();
    const int batches = std::exchange(m_deferredBatches, 0);
    const int rows = std::exchange(m_deferredRows, 0);
    if (batches == 0)
        return;
    m_lastMergeMs = m_clock();
    if (rows > MaxHeldRows || batches > m_live.size()) {
        // More came than the window holds: the newest page again, as after a new filter.
        trimLive();
        return reload();
    }
    QList<const Store::TraceRecord *> merged;
    merged.reserve(rows);
    for (qsizetype b = m_live.size() - batches; b < m_live.size(); ++b)
        for (const Store::TraceRecord &t : m_live.at(b))
            merged.append(&t);
    mergeLive(merged);
    trimLive();
}

void TraceTableModel::trimLive()
{
    // Whole batches, oldest first, while MaxLiveRows remain; a batch not merged yet stays unless
    // more came meanwhile than the window holds (undeferring reads the page again then).
    const qsizetype keep = m_deferredRows > MaxHeldRows ? 0 : m_deferredBatches;
    while (m_live.size() > keep && m_liveRows - m_live.constFirst().size() >= MaxLiveRows) {
        m_liveRows -= int(m_live.constFirst().size());
        m_live.removeFirst();
    }
}

void TraceTableModel::mergeLive(const QList<const Store::TraceRecord *> &rows)
{
    QList<const Store::TraceRecord *> fresh;
    fresh.reserve(rows.size());
    for (const Store::TraceRecord *t : rows)
        if (m_filter.matches(*t) && !m_ids.contains(t->id))
            fresh.append(t);
    if (fresh.isEmpty())
        return;
    const int added = int(fresh.size()); // counted even past the window: the store holds it
    // A busy proxy's batch is newer than every row held: one insertion at the top for the whole
    // batch, so the view lays out once per batch rather than once per request.
    // Newest first; of two rows of one millisecond the later one first, as insertSorted places them.
    std::reverse(fresh.begin(), fresh.end());
    std::stable_sort(fresh.begin(), fresh.end(), [](const Store::TraceRecord *x, const Store::TraceRecord *y) { return x->startedMs > y->startedMs; });
    if (m_rows.empty() ? m_exhausted : fresh.constLast()->startedMs >= m_rows.front().startedMs) {
        beginInsertRows({}, 0, added - 1);
        for (auto it = fresh.crbegin(); it != fresh.crend(); ++it) {
            m_ids.insert((*it)->id);
            m_rows.push_front(heldRow(**it));
        }
        endInsertRows();
    } else {
        for (const Store::TraceRecord *t : std::as_const(fresh))
            insertSorted(*t, true);
    }
    m_total += added;
    trimOldest();
    Q_EMIT totalCountChanged(m_total);
}

void TraceTableModel::trimOldest()
{
    if (int(m_rows.size()) <= MaxHeldRows)
        return;
    const int first = MaxHeldRows;
    const int last = int(m_rows.size()) - 1;
    beginRemoveRows({}, first, last);
    for (int i = first; i <= last; ++i)
        m_ids.remove(m_rows.at(i).id);
    m_rows.erase(m_rows.begin() + first, m_rows.end());
    endRemoveRows();
    if (m_reader || m_client)
        m_exhausted = false; // the store still has them
    else
        m_total = int(m_rows.size());
}

void TraceTableModel::loadFullTrace(int row, QObject *context, std::function<void(std::optional<Store::TraceRecord>)> done) const
{
    if (row < 0 || row >= int(m_rows.size()))
        return done(std::nullopt);
    const Store::TraceRecord &t = m_rows.at(row);
    if (!t.attemptRows.isEmpty() || !m_reader)
        return done(t);
    // A live row the writer has not committed yet is still whole among the batches kept aside.
    const Store::TraceRecord *live = liveRecord(t.id);
    m_reader->read<std::optional<Store::TraceRecord>>(
        "one trace", [id = t.id](const Store::Store &store) { return store.trace(id); }, context,
        [held = live ? *live : t, done = std::move(done)](std::optional<Store::TraceRecord> stored) { done(stored ? stored : held); });
}

const Store::TraceRecord *TraceTableModel::liveRecord(const QString &traceId) const
{
    for (auto batch = m_live.crbegin(); batch != m_live.crend(); ++batch)
        for (const Store::TraceRecord &t : *batch)
            if (t.id == traceId)
                return &t;
    return nullptr;
}

Store::TraceRecord TraceTableModel::heldRow(const Store::TraceRecord &live) const
{
    Store::TraceRecord row = live;
    // With a store, a row holds what the table shows, as a page read from the store does; its
    // attempt rows are read when it is opened (loadFullTrace). 20,000 rows held whole pinned
    // ~0.6 kB each of the engine's memory more (docs/performance.md, "Change 21 (desktop)").
    if (m_reader)
        row.attemptRows = {};
    return row;
}

int TraceTableModel::rowOf(const QString &traceId) const
{
    if (!m_ids.contains(traceId))
        return -1;
    for (int i = 0; i < int(m_rows.size()); ++i)
        if (m_rows.at(i).id == traceId)
            return i;
    return -1;
}

int TraceTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int TraceTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : TraceColumns::Count;
}

QVariant TraceTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()))
        return {};
    const Store::TraceRecord &t = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::AccessibleTextRole: return TraceColumns::display(t, index.column(), QDateTime::currentMSecsSinceEpoch());
    case Qt::ToolTipRole:
        if (index.column() == TraceColumns::Status && !t.error.isEmpty())
            return t.error;
        if (index.column() == TraceColumns::Time)
            return QDateTime::fromMSecsSinceEpoch(t.startedMs).toString(Qt::ISODateWithMs);
        return {};
    case Qt::DecorationRole:
        if (index.column() != TraceColumns::Status)
            return {};
        return rowIcon(failed(t));
    case Qt::TextAlignmentRole:
        if (TraceColumns::isNumeric(index.column()))
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case TraceIdRole: return t.id;
    case FailedRole: return failed(t);
    case StartedRole: return t.startedMs;
    }
    return {};
}

const QIcon &TraceTableModel::rowIcon(bool failedRow) const
{
    // Drawn once per model: statusIcon paints six pixmaps, and every visible row asks for its
    // icon on every repaint (ten a second under load).
    QIcon &icon = m_statusIcons[failedRow ? 1 : 0];
    if (icon.isNull())
        icon = statusIcon(failedRow ? ProxyState::Failed : ProxyState::Listening);
    return icon;
}

QVariant TraceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole)
        return TraceColumns::title(section);
    return QAbstractTableModel::headerData(section, orientation, role);
}

bool TraceTableModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && (m_reader || m_client) && !m_exhausted && !m_reading;
}

void TraceTableModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    if (!m_reader)
        return fetchMoreThroughClient();
    // Start after every stored row strictly newer than the oldest held one; rows of that same
    // millisecond come again and are skipped by id.
    const bool empty = m_rows.empty();
    const qint64 oldest = empty ? 0 : m_rows.back().startedMs;
    QSet<QString> tied; // the held rows of the oldest millisecond: the page starts with them again
    for (auto it = m_rows.crbegin(); it != m_rows.crend() && it->startedMs == oldest; ++it)
        tied.insert(it->id);
    const TraceFilter filter = m_filter;
    m_reading = true;
    m_reader->read<std::pair<QList<Store::TraceRecord>, bool>>(
        "next trace page",
        [filter, empty, oldest, tied](const Store::Store &store) {
            int offset = 0;
            if (!empty) {
                Store::TraceQuery newer = filter.query(0, 0);
                newer.sinceMs = oldest + 1;
                offset = store.traceCount(newer);
            }
            const int ties = int(tied.size());
            QList<Store::TraceRecord> page;
            bool exhausted = false;
            for (;;) {
                // The rows of the oldest held millisecond come first again; ask for that many more.
                page = store.traces(filter.query(PageSize + ties, offset));
                exhausted = page.size() < PageSize + ties;
                page.erase(std::remove_if(page.begin(), page.end(), [&](const Store::TraceRecord &t) { return tied.contains(t.id); }), page.end());
                // A whole page of rows held already: more than a page shared one millisecond.
                if (!page.isEmpty() || exhausted)
                    break;
                offset += PageSize;
            }
            return std::pair{page, exhausted};
        },
        this,
        [this, generation = m_generation, empty, oldest](std::pair<QList<Store::TraceRecord>, bool> answer) {
            if (generation != m_generation)
                return;
            m_reading = false;
            // Live rows trimmed the window meanwhile: the page would leave a gap; the view asks again.
            if (m_rows.empty() != empty || (!empty && m_rows.back().startedMs != oldest)) {
                Q_EMIT pageLoaded();
                return;
            }
            appendPage(std::move(answer.first), answer.second);
        });
}

void TraceTableModel::reloadThroughClient()
{
    if (!m_client)
        return;
    m_client->tracePage(m_filter.query(PageSize, 0, true), this, [this, generation = m_generation](const Reply<TracePage> &answer) {
        if (generation != m_generation)
            return;
        m_reading = false;
        m_exhausted = !answer.ok() || answer.value.rows.size() < PageSize;
        showPage(answer.value.rows, answer.value.total);
        Q_EMIT pageLoaded();
    });
}

void TraceTableModel::fetchMoreThroughClient()
{
    // The rule of fetchMore, in two calls: how many stored rows are newer than the oldest held
    // one (a count), then the page from there, with that millisecond's held rows skipped by id.
    const bool empty = m_rows.empty();
    const qint64 oldest = empty ? 0 : m_rows.back().startedMs;
    int ties = 0;
    for (auto it = m_rows.crbegin(); it != m_rows.crend() && it->startedMs == oldest; ++it)
        ++ties;
    m_reading = true;
    auto page = [this, generation = m_generation, empty, oldest, ties](int offset) {
        m_client->tracePage(m_filter.query(PageSize + ties, offset, true), this,
                            [this, generation, empty, oldest, ties](const Reply<TracePage> &answer) {
                                if (generation != m_generation)
                                    return;
                                m_reading = false;
                                if (m_rows.empty() != empty || (!empty && m_rows.back().startedMs != oldest)) {
                                    Q_EMIT pageLoaded();
                                    return;
                                }
                                appendPage(answer.value.rows, !answer.ok() || answer.value.rows.size() < PageSize + ties);
                            });
    };
    if (empty)
        return page(0);
    Store::TraceQuery newer = m_filter.query(1, 0);
    newer.sinceMs = oldest + 1;
    m_client->tracePage(newer, this, [this, generation = m_generation, page](const Reply<TracePage> &answer) {
        if (generation != m_generation)
            return;
        if (!answer.ok()) {
            m_reading = false;
            return;
        }
        page(answer.value.total);
    });
}

void TraceTableModel::appendPage(QList<Store::TraceRecord> page, bool exhausted)
{
    m_exhausted = exhausted;
    page.erase(std::remove_if(page.begin(), page.end(), [&](const Store::TraceRecord &t) { return m_ids.contains(t.id); }), page.end());
    if (!page.isEmpty()) {
        const int first = int(m_rows.size());
        beginInsertRows({}, first, first + int(page.size()) - 1);
        for (Store::TraceRecord &t : page) {
            m_ids.insert(t.id);
            m_rows.push_back(std::move(t));
        }
        endInsertRows();
    }
    Q_EMIT pageLoaded();
}

} // namespace Aile::Ui
