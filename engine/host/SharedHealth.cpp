#include "SharedHealth.h"

#include "core/Clock.h"
#include "health/HealthBook.h"
#include "health/QuotaBook.h"
#include "store/SharedHealthRows.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QUuid>

namespace Aile {

namespace {

// A dead key has no end of its own: the row lasts a day, or until the account is back.
constexpr qint64 DeadKeyRowMs = 24LL * 3600 * 1000;

QString kindName(Health::SharedVerdict::Kind kind)
{
    switch (kind) {
    case Health::SharedVerdict::Kind::Cooldown: return QStringLiteral("cooldown");
    case Health::SharedVerdict::Kind::ModelOff: return QStringLiteral("model_off");
    case Health::SharedVerdict::Kind::DeadKey: return QStringLiteral("dead_key");
    case Health::SharedVerdict::Kind::Back: return QStringLiteral("back");
    }
    return {};
}

} // namespace

SharedHealth::SharedHealth(Store::Store &store, Health::HealthBook &health, Health::QuotaBook &quota, Clock *clock)
    : m_store(store), m_health(health), m_quota(quota), m_clock(clock), m_origin(QUuid::createUuid().toString(QUuid::WithoutBraces))
{ }

void SharedHealth::start()
{
    for (const QJsonObject &v : Store::SharedHealthRows(m_store).live(m_clock->nowMs()))
        applyVerdict(v);
    m_health.setShare([this](const Health::SharedVerdict &v) {
        const qint64 until = v.kind == Health::SharedVerdict::Kind::DeadKey ? m_clock->nowMs() + DeadKeyRowMs : v.untilMs;
        publish(kindName(v.kind), v.handle, v.model, until, QJsonObject{{QStringLiteral("reason"), v.reason}});
    });
    m_quota.setShare([this](const QString &handle, const Health::QuotaWindow &w) {
        publish(QStringLiteral("quota"), handle, w.name, w.resetAtMs,
                QJsonObject{
                    {QStringLiteral("window"), w.name}, {QStringLiteral("covers"), w.coversModelsWith}, {QStringLiteral("lengthMs"), w.lengthMs}});
    });
}

void SharedHealth::publish(const QString &kind, const QString &handle, const QString &model, qint64 untilMs, QJsonObject verdict)
{
    verdict.insert(QStringLiteral("origin"), m_origin);
    verdict.insert(QStringLiteral("kind"), kind);
    verdict.insert(QStringLiteral("sharer"), handle);
    verdict.insert(QStringLiteral("model"), model);
    verdict.insert(QStringLiteral("untilMs"), untilMs);
    Store::SharedHealthRows rows(m_store);
    if (kind == QLatin1String("back"))
        rows.publishBack(handle, verdict);
    else
        rows.publish(handle, model, kind, untilMs, verdict);
}

void SharedHealth::apply(const QString &payload)
{
    const QJsonObject v = QJsonDocument::fromJson(payload.toUtf8()).object();
    if (v.value(QLatin1String("origin")).toString() != m_origin)
        applyVerdict(v);
}

void SharedHealth::applyVerdict(const QJsonObject &v)
{
    const QString kind = v.value(QLatin1String("kind")).toString();
    const QString handle = v.value(QLatin1String("sharer")).toString();
    const qint64 until = qint64(v.value(QLatin1String("untilMs")).toDouble());
    if (handle.isEmpty())
        return;
    if (kind == QLatin1String("quota")) {
        Health::QuotaWindow w;
        w.name = v.value(QLatin1String("window")).toString();
        w.coversModelsWith = v.value(QLatin1String("covers")).toString();
        w.lengthMs = qint64(v.value(QLatin1String("lengthMs")).toDouble());
        w.resetAtMs = until;
        w.exhausted = true;
        w.subscription = true;
        w.usedFraction = 1;
        m_quota.applyShared(handle, w, m_clock->nowMs());
        return;
    }
    Health::SharedVerdict verdict;
    verdict.handle = handle;
    verdict.model = v.value(QLatin1String("model")).toString();
    verdict.untilMs = until;
    verdict.reason = v.value(QLatin1String("reason")).toString();
    if (kind == QLatin1String("cooldown"))
        verdict.kind = Health::SharedVerdict::Kind::Cooldown;
    else if (kind == QLatin1String("model_off"))
        verdict.kind = Health::SharedVerdict::Kind::ModelOff;
    else if (kind == QLatin1String("dead_key"))
        verdict.kind = Health::SharedVerdict::Kind::DeadKey;
    else if (kind == QLatin1String("back"))
        verdict.kind = Health::SharedVerdict::Kind::Back;
    else
        return;
    m_health.applyShared(verdict);
}

} // namespace Aile
