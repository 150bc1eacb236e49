#include "UsageApi.h"
#include "ChartsApi.h"

#include "core/Clock.h"
#include "state/KeyBook.h"
#include "store/Store.h"
#include "store/StoreReader.h"
#include "store/TraceSink.h"
#include "store/UsageSummary.h"

#include <QtCore/QJsonArray>
#include <QtCore/QPointer>

namespace Aile::Api {

namespace {
constexpr int DefaultDays = 14;
constexpr int MaxDays = 90;
} // namespace

void History::reply(QObject *context, const char *what, std::function<QJsonObject(const Store::Store &)> read, const ManagementReply &reply) const
{
    QPointer<QObject> guard(context);
    traces->whenWritten(context, [store = store, reader = QPointer<Store::StoreReader>(reader), guard, what, read = std::move(read), reply] {
        if (!guard)
            return;
        if (reader && reader->isOpen())
            return reader->read<QJsonObject>(what, read, guard.data(), [reply](QJsonObject body) { reply(200, body); });
        reply(200, read(*store));
    });
}

void usageSpend(const Clock &clock, const State::KeyBook &keys, const History &history, const ManagementRequest &req, QObject *context,
                const ManagementReply &reply)
{
    int days = DefaultDays;
    if (req.hasQuery(QStringLiteral("days"))) {
        bool ok = false;
        days = req.queryValue(QStringLiteral("days")).toInt(&ok);
        if (!ok || days < 1 || days > MaxDays)
            return reply(400, managementError(QStringLiteral("days must be a whole number of days from 1 to %1, such as days=14 "
                                                             "(the last 14 UTC days, today included)")
                                                  .arg(MaxDays)));
    }
    QString keyId;
    if (const QString asked = req.queryValue(QStringLiteral("key")); !asked.isEmpty()) {
        const Keys::ApiKey *key = keys.key(asked);
        if (!key)
            return reply(404, managementError(QStringLiteral("no key %1; GET /keys lists them").arg(asked)));
        keyId = key->id;
    }
    const QStringList dayList = Store::daysUpTo(clock.nowMs(), days);
    if (!history.store || !history.traces)
        return reply(200, Store::summarizeUsage(dayList, QList<Store::LedgerGroup>(), {}).toJson());
    // A request that just finished is counted: read once the writer has committed it.
    history.reply(
        context, "usage spend", [dayList, keyId](const Store::Store &store) { return Store::readUsage(store, dayList, keyId).toJson(); }, reply);
}

bool UsageApi::handle(const ManagementRequest &req, QObject *context, const ManagementReply &reply)
{
    if (req.method != "GET")
        return false;
    if (req.path == "/keys/usage/requests")
        listTraces(req, context, reply);
    else if (req.path == "/keys/usage/spend")
        usageSpend(m_clock, m_keys, m_history, req, context, reply);
    else if (req.path == "/keys/usage/charts")
        usageCharts(m_clock, m_keys, m_history, req, context, reply);
    else
        return false;
    return true;
}

void UsageApi::listTraces(const ManagementRequest &req, QObject *context, const ManagementReply &reply)
{
    Store::TraceQuery q;
    bool ok = false;
    const int limit = req.queryValue(QStringLiteral("limit")).toInt(&ok);
    q.limit = ok ? qBound(1, limit, 1000) : 100;
    q.offset = qMax(0, req.queryValue(QStringLiteral("offset")).toInt());
    q.sinceMs = req.queryValue(QStringLiteral("since")).toLongLong();
    q.keyId = req.queryValue(QStringLiteral("key"));
    q.model = req.queryValue(QStringLiteral("model"));
    q.sharer = req.queryValue(QStringLiteral("sharer"));
    q.status = req.queryValue(QStringLiteral("status")).toInt();
    q.text = req.queryValue(QStringLiteral("q"));
    if (!m_history.store || !m_history.traces) // an engine without a store has recorded nothing
        return reply(
            200,
            QJsonObject{{QStringLiteral("object"), QStringLiteral("list")}, {QStringLiteral("data"), QJsonArray()}, {QStringLiteral("total"), 0}});
    // A request that just finished is in the answer: read once the writer has committed it.
    m_history.reply(
        context, "usage requests",
        [q](const Store::Store &store) {
            QJsonArray data;
            for (const Store::TraceRecord &t : store.traces(q))
                data.append(t.toJson());
            return QJsonObject{
                {QStringLiteral("object"), QStringLiteral("list")}, {QStringLiteral("data"), data}, {QStringLiteral("total"), store.traceCount(q)}};
        },
        reply);
}

} // namespace Aile::Api
