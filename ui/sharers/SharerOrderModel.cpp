#include "SharerOrderModel.h"

#include "common/Format.h"

#include <QtCore/QDateTime>
#include <QtCore/QLocale>
#include <QtGui/QPalette>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyle>

namespace Aile::Ui {

namespace {

QString perMillion(const std::optional<double> &v)
{
    if (!v)
        return QStringLiteral("—");
    return QStringLiteral("$") + QLocale().toString(*v, 'f', 2);
}

} // namespace

SharerOrderModel::SharerOrderModel(QObject *parent) : QAbstractTableModel(parent) { }

void SharerOrderModel::setRows(const QList<Api::SharerRow> &rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

void SharerOrderModel::setConfigured(const QList<Api::SharerStatus> &sharers)
{
    m_configured.clear();
    for (const Api::SharerStatus &s : sharers)
        m_configured.insert(s.config.handle, s);
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

const Api::SharerStatus *SharerOrderModel::configured(const QString &handle) const
{
    const auto it = m_configured.constFind(handle);
    return it == m_configured.constEnd() ? nullptr : &*it;
}

int SharerOrderModel::rowOf(const QString &handle) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).handle == handle)
            return i;
    return -1;
}

QString SharerOrderModel::sortKey(int column)
{
    switch (column) {
    case Name: return QStringLiteral("name");
    case InputPrice:
    case OutputPrice:
    case Quote: return QStringLiteral("price");
    case Speed: return QStringLiteral("speed");
    }
    return {};
}

QString SharerOrderModel::state(const Api::SharerRow &r) const
{
    if (!r.available) {
        // A listing for one model names the reason; the listing by handle does not.
        QString reason = r.reason;
        if (reason.isEmpty()) {
            const Api::SharerStatus *c = configured(r.handle);
            if (r.blocked)
                reason = tr("blocked");
            else if (c && !c->credentialAvailable)
                reason = tr("no usable credential");
            else
                reason = tr("cooling down");
        }
        return tr("unavailable: %1").arg(reason);
    }
    if (r.deadKey)
        return tr("dead key");
    if (r.degraded)
        return tr("degraded: after the available sharers");
    if (r.tiedWithPrevious)
        return tr("available, tied with the row above");
    return tr("available");
}

QString SharerOrderModel::quota(const QList<Api::QuotaWindow> &windows)
{
    QStringList parts;
    for (const Api::QuotaWindow &w : windows) {
        const QDateTime reset = QDateTime::fromString(w.resetsAt, Qt::ISODate).toLocalTime();
        const QString when = !reset.isValid()                       ? QString()
                             : reset.date() == QDate::currentDate() ? QLocale().toString(reset.time(), QLocale::ShortFormat)
                                                                    : QLocale().toString(reset, QLocale::ShortFormat);
        QString part;
        if (w.exhausted)
            part = when.isEmpty() ? tr("%1 used up").arg(w.name) : tr("%1 used up, resets %2").arg(w.name, when);
        else if (w.used)
            part = when.isEmpty() ? tr("%1 %2% used").arg(w.name).arg(qRound(*w.used * 100))
                                  : tr("%1 %2% used, resets %3").arg(w.name).arg(qRound(*w.used * 100)).arg(when);
        else
            continue;
        if (!w.fresh)
            part = tr("%1 (older than 10 min)").arg(part);
        parts << part;
    }
    return parts.isEmpty() ? QStringLiteral("—") : parts.join(QStringLiteral(" · "));
}

QString SharerOrderModel::health(const std::optional<Api::SharerHealth> &stats)
{
    if (!stats)
        return QStringLiteral("—");
    if (!stats->published)
        return tr("not enough data (%1/%2 served)").arg(stats->served).arg(100);
    if (!stats->successRate30m)
        return tr("no requests in 30 min");
    const int rate = qRound(*stats->successRate30m * 100);
    return stats->latencyMs30m ? tr("%1% ok, %2 (30 min)").arg(rate).arg(Format::duration(*stats->latencyMs30m)) : tr("%1% ok (30 min)").arg(rate);
}

QString SharerOrderModel::priceSheet(const Api::SharerEdit &sharer)
{
    if (sharer.quotes)
        return tr("own quotes");
    const double percent = sharer.percentOfList.value_or(100);
    return percent == 100 ? tr("list price") : tr("%1% of list").arg(QLocale().toString(percent));
}

QString SharerOrderModel::credentialStore(const QString &store)
{
    if (store == QLatin1String("keychain"))
        return tr("keychain");
    if (store == QLatin1String("file"))
        return tr("stored in a file");
    if (store == QLatin1String("env"))
        return tr("environment variable");
    if (store == QLatin1String("client"))
        return tr("the tool's own login");
    return tr("none");
}

int SharerOrderModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SharerOrderModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SharerOrderModel::text(const Api::SharerRow &r, int column) const
{
    const Api::SharerStatus *c = configured(r.handle);
    const QStringList tested = c ? c->tested : QStringList();
    switch (column) {
    case Rank: return r.rank > 0 ? QString::number(r.rank) : QStringLiteral("—");
    case Name: return r.name;
    case Handle: return r.handle;
    case Provider: return r.provider;
    case PriceSheet: return c ? priceSheet(c->config) : QStringLiteral("—");
    case InputPrice: return perMillion(r.inputPrice);
    case OutputPrice: return perMillion(r.outputPrice);
    case Quote: return r.quoteUsd ? Format::money(*r.quoteUsd) : QStringLiteral("—");
    case Tested: {
        if (r.tested) // a listing for one model: was that model tested on this sharer
            return *r.tested ? tr("tested") : tr("not tested");
        if (!r.model.isEmpty()) // a row the model's listing shows unavailable
            return tested.contains(r.model) ? tr("tested") : tr("not tested");
        const QStringList models = !r.testedModels.isEmpty() ? r.testedModels : tested;
        return models.isEmpty() ? tr("none") : models.join(QStringLiteral(", "));
    }
    case Speed: return Format::duration(qint64(r.ttfbMs.value_or(-1)));
    case Tier: return QLocale().toString(r.priority ? *r.priority : c ? c->priority : 0);
    case Weight: return QLocale().toString(r.weight ? *r.weight : c ? c->weight : 1);
    case Quota: return quota(r.quota);
    case Health: return health(r.stats);
    case Credential: {
        const QString where = credentialStore(r.credentialStore);
        if ((c && c->needsKey) || r.needsKey)
            return tr("needs its key again");
        if (c && !c->credentialAvailable)
            return tr("%1, not readable").arg(where);
        return where;
    }
    case State: return state(r);
    }
    return {};
}

QString SharerOrderModel::toolTip(const Api::SharerRow &r, int column) const
{
    const Api::SharerStatus *c = configured(r.handle);
    switch (column) {
    case Tier: return tr("Priority tier: higher tiers are tried first, whatever the price; a lower tier only when they fail");
    case Weight: return tr("Share of the draw among sharers of the same price and tier; 0 leaves it out unless named");
    case Quota:
        return tr("The windows its provider reported on its last answer; a window used up with a known reset takes the "
                  "sharer out until then, and a report older than 10 minutes takes nobody out");
    case Health:
        return tr("Success rate and time to first byte over the last 30 minutes, published once the sharer has served "
                  "100 requests");
    case Tested: {
        const QStringList models = c ? c->tested : QStringList();
        return models.isEmpty() ? tr("No model was tested on this sharer yet")
                                : tr("Models tested on this sharer: %1").arg(models.join(QStringLiteral(", ")));
    }
    case Credential: {
        QString tip;
        if (r.credentialStore == QLatin1String("file"))
            tip = tr("Stored in plain text in the secrets file (mode 0600, readable only by you), because you opted in; "
                     "the keychain is safer");
        else if (r.credentialStore == QLatin1String("keychain"))
            tip = tr("Stored in the system keychain");
        else if (r.credentialStore == QLatin1String("env"))
            tip = tr("Read from an environment variable when the proxy starts");
        else
            tip = tr("This sharer has no credential");
        if ((c && c->needsKey) || r.needsKey)
            tip = tr("Its provider or base URL changed after the credential was entered, so the credential is not sent "
                     "there; re-link it with its key");
        if (c && !c->credentialAvailable && !c->credentialError.isEmpty())
            tip += QLatin1Char('\n') + tr("Not readable: %1").arg(c->credentialError);
        return tip;
    }
    }
    return text(r, column);
}

QVariant SharerOrderModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Api::SharerRow &r = m_rows.at(index.row());
    if (role == WindowsRole) {
        if (index.column() != Quota)
            return {};
        QJsonArray windows;
        for (const Api::QuotaWindow &w : r.quota)
            windows.append(w.toJson());
        return windows;
    }
    switch (role) {
    case Qt::DisplayRole:
    case Qt::AccessibleTextRole: return text(r, index.column());
    case Qt::ToolTipRole: return toolTip(r, index.column());
    case Qt::DecorationRole:
        // The badge of a secret kept in the plain-text file.
        if (index.column() == Credential && r.credentialStore == QLatin1String("file"))
            return QApplication::style()->standardIcon(QStyle::SP_FileIcon);
        return {};
    case Qt::ForegroundRole:
        // A sharer the next request would skip reads dimmed, in the palette's own colour.
        if (!r.available || r.deadKey)
            return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Rank || index.column() == InputPrice || index.column() == OutputPrice || index.column() == Quote
            || index.column() == Speed || index.column() == Tier || index.column() == Weight)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

QVariant SharerOrderModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole)
        return sortKey(section).isEmpty() ? tr("Click to show the routing order again") : tr("Click to sort: a reading order, not the routing order");
    switch (section) {
    case Rank: return tr("Rank");
    case Name: return tr("Name");
    case Handle: return tr("Handle");
    case Provider: return tr("Provider");
    case PriceSheet: return tr("Price");
    case InputPrice: return tr("Input $/Mtok");
    case OutputPrice: return tr("Output $/Mtok");
    case Quote: return tr("Quote");
    case Tested: return tr("Tested");
    case Speed: return tr("First byte");
    case Tier: return tr("Priority");
    case Weight: return tr("Weight");
    case Quota: return tr("Quota");
    case Health: return tr("Health");
    case Credential: return tr("Credential");
    case State: return tr("State");
    }
    return {};
}

} // namespace Aile::Ui
