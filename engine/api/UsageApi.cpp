#include "UsageApi.h"

#include "core/Clock.h"
#include "state/KeyBook.h"
#include "store/Store.h"
#include "store/TraceSink.h"
#include "store/UsageSummary.h"

#include <QtCore/QPointer>

namespace Aile::Api {

namespace {
constexpr int DefaultDays = 14;
constexpr int MaxDays = 90;
} // namespace

void usageSpend(const Clock &clock, const State::KeyBook &keys, Store::Store *store, Store::TraceSink *traces, const ManagementRequest &req, QObject *context, const ManagementReply &reply)
{
    int days = DefaultDays;
    if (req.hasQuery(QStringLiteral("days"))) {
        bool ok = false;
        days = req.queryValue(QStringLiteral("days")).toInt(&ok);
        if (!ok || days < 1 || days > MaxDays)
            return reply(400, managementError(QStringLiteral("days must be a whole number of days from 1 to %1, such as days=14 "
                                                             "(the last 14 UTC days, today included)").arg(MaxDays)));
    }
    QString keyId;
    if (const QString asked = req.queryValue(QStringLiteral("key")); !asked.isEmpty()) {
        const Keys::ApiKey *key = keys.key(asked);
        if (!key)
            return reply(404, managementError(QStringLiteral("no key %1; GET /keys lists them").arg(asked)));
        keyId = key->id;
    }
    const QStringList dayList = Store::daysUpTo(clock.nowMs(), days);
    if (!store || !traces)
        return reply(200, Store::summarizeUsage(dayList, {}, {}).toJson());
    // A request that just finished is counted: read once the writer has committed it.
    QPointer<QObject> guard(context);
    traces->whenWritten(context, [store, guard, dayList, keyId, reply] {
        if (guard)
            reply(200, Store::readUsage(*store, dayList, keyId).toJson());
    });
}

} // namespace Aile::Api
