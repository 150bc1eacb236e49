#include "TraceTableModel.h"

#include "TraceColumns.h"
#include "common/StatusIcon.h"

#include <QtCore/QDateTime>

#include <algorithm>

namespace Aile::Ui {

namespace {

bool failed(const Store::TraceRecord &t)
{
    return t.status == 0 || t.status >= 400;
}

} // namespace

TraceTableModel::TraceTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void TraceTableModel::setStore(const Store::Store *store)
{
    m_store = store;
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
    beginResetModel();
    m_rows.clear();
    m_ids.clear();
    if (m_store) {
        m_rows = m_store->traces(m_filter.query(PageSize, 0));
        m_exhausted = m_rows.size() < PageSize;
        m_total = m_exhausted ? int(m_rows.size()) : m_store->traceCount(m_filter.query(0, 0));
    } else {
        m_exhausted = true;
        m_total = 0;
    }
    for (const Store::TraceRecord &t : std::as_const(m_rows))
        m_ids.insert(t.id);
    // Live rows the store did not return: not committed yet, or all there is without a store.
    for (const Store::TraceRecord &t : std::as_const(m_live)) {
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
    if (row == m_rows.size() && !m_exhausted)
        return false;   // past the window: paging brings it
    if (notify)
        beginInsertRows({}, row, row);
    m_rows.insert(row, t);
    m_ids.insert(t.id);
    if (notify)
        endInsertRows();
    return true;
}

void TraceTableModel::addLive(const QList<Store::TraceRecord> &traces)
{
    m_live += traces;
    if (m_live.size() > MaxLiveRows)
        m_live.remove(0, m_live.size() - MaxLiveRows);
    int added = 0;
    for (const Store::TraceRecord &t : traces) {
        if (!m_filter.matches(t) || m_ids.contains(t.id))
            continue;
        ++added;   // counted even past the window: the store holds it
        insertSorted(t, true);
    }
    if (added == 0)
        return;
    m_total += added;
    trimOldest();
    Q_EMIT totalCountChanged(m_total);
}

void TraceTableModel::trimOldest()
{
    if (m_rows.size() <= MaxHeldRows)
        return;
    const int first = MaxHeldRows;
    const int last = int(m_rows.size()) - 1;
    beginRemoveRows({}, first, last);
    for (int i = first; i <= last; ++i)
        m_ids.remove(m_rows.at(i).id);
    m_rows.resize(first);
    endRemoveRows();
    if (m_store)
        m_exhausted = false;   // the store still has them
    else
        m_total = int(m_rows.size());
}

std::optional<Store::TraceRecord> TraceTableModel::fullTrace(int row) const
{
    if (row < 0 || row >= m_rows.size())
        return std::nullopt;
    const Store::TraceRecord &t = m_rows.at(row);
    if (!t.attemptRows.isEmpty() || !m_store)
        return t;
    if (auto stored = m_store->trace(t.id))
        return stored;
    return t;
}

int TraceTableModel::rowOf(const QString &traceId) const
{
    if (!m_ids.contains(traceId))
        return -1;
    for (int i = 0; i < m_rows.size(); ++i)
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
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Store::TraceRecord &t = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::AccessibleTextRole:
        return TraceColumns::display(t, index.column(), QDateTime::currentMSecsSinceEpoch());
    case Qt::ToolTipRole:
        if (index.column() == TraceColumns::Status && !t.error.isEmpty())
            return t.error;
        if (index.column() == TraceColumns::Time)
            return QDateTime::fromMSecsSinceEpoch(t.startedMs).toString(Qt::ISODateWithMs);
        return {};
    case Qt::DecorationRole:
        if (index.column() == TraceColumns::Status)
            return statusIcon(failed(t) ? ProxyState::Failed : ProxyState::Listening);
        return {};
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

QVariant TraceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole)
        return TraceColumns::title(section);
    return QAbstractTableModel::headerData(section, orientation, role);
}

bool TraceTableModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_store && !m_exhausted;
}

void TraceTableModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    // Start after every stored row strictly newer than the oldest held one; rows of that same
    // millisecond come again and are skipped by id.
    int offset = 0;
    int ties = 0;
    if (!m_rows.isEmpty()) {
        const qint64 oldest = m_rows.constLast().startedMs;
        Store::TraceQuery newer = m_filter.query(0, 0);
        newer.sinceMs = oldest + 1;
        offset = m_store->traceCount(newer);
        for (auto it = m_rows.crbegin(); it != m_rows.crend() && it->startedMs == oldest; ++it)
            ++ties;
    }
    QList<Store::TraceRecord> page;
    for (;;) {
        // The rows of the oldest held millisecond come first again; ask for that many more.
        page = m_store->traces(m_filter.query(PageSize + ties, offset));
        m_exhausted = page.size() < PageSize + ties;
        page.erase(std::remove_if(page.begin(), page.end(), [&](const Store::TraceRecord &t) { return m_ids.contains(t.id); }),
                   page.end());
        // A whole page of rows held already: more than a page shared one millisecond.
        if (!page.isEmpty() || m_exhausted)
            break;
        offset += PageSize;
    }
    if (page.isEmpty())
        return;
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(page.size()) - 1);
    for (Store::TraceRecord &t : page) {
        m_ids.insert(t.id);
        m_rows.append(std::move(t));
    }
    endInsertRows();
}

} // namespace Aile::Ui
