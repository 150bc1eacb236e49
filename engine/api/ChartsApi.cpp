#include "ChartsApi.h"

#include "core/Clock.h"
#include "state/KeyBook.h"
#include "store/Store.h"
#include "store/TraceSink.h"
#include "values/ChartFigures.h"

namespace Aile::Api {

namespace {

constexpr int ChartMaxMinutes = 24 * 60;
constexpr int ChartMaxDays = 90;

/// A whole number from low to high, or the default when the query does not carry it.
bool readBounded(const ManagementRequest &req, const QString &name, int low, int high, int &value)
{
    if (!req.hasQuery(name))
        return true;
    bool ok = false;
    const int asked = req.queryValue(name).toInt(&ok);
    if (!ok || asked < low || asked > high)
        return false;
    value = asked;
    return true;
}

} // namespace

void usageCharts(const Clock &clock, const State::KeyBook &keys, const History &history, const ManagementRequest &req, QObject *context,
                 const ManagementReply &reply)
{
    Charts::ChartAsk ask;
    if (!readBounded(req, QStringLiteral("minutes"), 1, ChartMaxMinutes, ask.minutes))
        return reply(400, managementError(QStringLiteral("minutes must be a whole number from 1 to %1, such as minutes=60 (the requests "
                                                         "of the last hour)")
                                              .arg(ChartMaxMinutes)));
    if (!readBounded(req, QStringLiteral("days"), 1, ChartMaxDays, ask.days))
        return reply(400, managementError(QStringLiteral("days must be a whole number of days from 1 to %1, such as days=14 (the last "
                                                         "14 UTC days, today included)")
                                              .arg(ChartMaxDays)));
    ask.now = clock.nowMs();
    if (req.hasQuery(QStringLiteral("now"))) {
        bool ok = false;
        ask.now = req.queryValue(QStringLiteral("now")).toLongLong(&ok);
        if (!ok || ask.now <= 0)
            return reply(400, managementError(QStringLiteral("now must be a time in milliseconds since 1970 (UTC), such as now=%1; "
                                                             "leave it out for the engine's clock")
                                                  .arg(clock.nowMs())));
    }
    QHash<QString, QString> keyNames;
    for (const Keys::ApiKey &k : keys.keys)
        keyNames.insert(k.id, k.name);
    if (!history.store || !history.traces)
        return reply(200, Charts::readFigures(nullptr, ask, keyNames).toJson());
    // A request that just finished is counted: read once the writer has committed it.
    history.reply(
        context, "usage charts", [ask, keyNames](const Store::Store &store) { return Charts::readFigures(&store, ask, keyNames).toJson(); }, reply);
}

} // namespace Aile::Api
