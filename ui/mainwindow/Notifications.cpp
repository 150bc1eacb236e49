#include "Notifications.h"

#include "common/Format.h"
#include "store/Store.h"

#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>

namespace Aile::Ui {

namespace {

constexpr qint64 CoolingRepeatMs = 10 * 60 * 1000;

const Api::KeyInfo *findKey(const QList<Api::KeyInfo> &keys, const QString &id)
{
    for (const Api::KeyInfo &k : keys)
        if (k.id == id)
            return &k;
    return nullptr;
}

double positive(const std::optional<double> &v)
{
    return v && *v > 0 ? *v : 0;
}

} // namespace

Notifications::Notifications(QObject *parent) : QObject(parent) { }

void Notifications::say(const QString &id, const QString &title, const QString &message)
{
    if (m_said.contains(id))
        return;
    m_said.insert(id);
    if (m_notifier)
        m_notifier(title, message);
    Q_EMIT notified(title, message);
}

QString Notifications::keyName(const QString &keyId) const
{
    const Api::KeyInfo *key = findKey(m_keys, keyId);
    return !key || key->name.isEmpty() ? keyId : key->name;
}

QString Notifications::sharerName(const QString &handle) const
{
    const QString name = m_sharerNames.value(handle);
    return name.isEmpty() ? handle : name;
}

void Notifications::noteStatus(const Aile::Api::EngineStatus &status)
{
    // A dead key is heard of from the traces (noteTraces): the status carries no health.
    m_keys = status.keys;
    for (const Api::SharerStatus &s : status.sharers)
        m_sharerNames.insert(s.config.handle, s.config.name);
}

void Notifications::noteLedger(const QString &day, const QList<Aile::Store::LedgerEntry> &entries)
{
    QHash<QString, double> perKey;
    QHash<QString, double> perRoute; // keyId + '\n' + route
    for (const Store::LedgerEntry &e : entries) {
        if (e.day != day)
            continue;
        perKey[e.keyId] += e.costUsd;
        if (!e.route.isEmpty())
            perRoute[e.keyId + QLatin1Char('\n') + e.route] += e.costUsd;
    }
    for (const Api::KeyInfo &key : m_keys) {
        const QString id = key.id;
        const double limit = positive(key.routing.spendLimitUsdPerDay);
        if (limit > 0 && perKey.value(id) >= limit)
            keyBudgetReached(id, day, perKey.value(id));
        for (const Api::RouteValue &route : key.routes) {
            const QString name = route.name;
            const double budget = positive(route.budgetUsdPerDay);
            const double spent = perRoute.value(id + QLatin1Char('\n') + name);
            if (budget > 0 && spent >= budget)
                routeBudgetReached(id, name, day, spent);
        }
    }
}

void Notifications::noteTraces(const QList<Aile::Store::TraceRecord> &traces)
{
    static const QRegularExpression routeSpent(QStringLiteral("^route (.+) spent its "));
    static const QRegularExpression cooling(QStringLiteral("^every sharer of (\\S+) for (\\S+) is cooling down"));
    for (const Store::TraceRecord &t : traces) {
        // The day is formatted only for the rare trace that names a budget, not for every request.
        const auto day = [&t] { return Store::utcDay(t.startedMs); };
        for (const Store::AttemptRecord &a : t.attemptRows) {
            if (a.outcome == QLatin1String("served")) {
                if (!m_said.isEmpty()) // nothing to forget on a quiet day: no string built per request
                    m_said.remove(QStringLiteral("dead:") + a.sharer);
            }
            else if (a.dispatched && (a.status == 401 || a.status == 403))
                deadKey(a.sharer, a.provider, a.status);
        }
        if (t.status == 403 && t.error.contains(QLatin1String("budget")) && !t.keyId.isEmpty())
            keyBudgetReached(t.keyId, day(), -1);
        if (t.status == 402) {
            const QRegularExpressionMatch m = routeSpent.match(t.error);
            if (m.hasMatch())
                routeBudgetReached(t.keyId, m.captured(1), day(), -1);
        }
        if (t.status == 429) {
            const QRegularExpressionMatch m = cooling.match(t.error);
            if (!m.hasMatch())
                continue;
            const QString provider = m.captured(1);
            const QString id = QStringLiteral("cooling:") + provider;
            if (m_coolingSaidMs.contains(provider) && t.startedMs - m_coolingSaidMs.value(provider) < CoolingRepeatMs)
                continue;
            m_coolingSaidMs.insert(provider, t.startedMs);
            m_said.remove(id);
            say(id, tr("Every sharer of %1 is cooling down").arg(provider),
                tr("Every sharer of %1 failed recently and is cooling down, so requests for %2 are refused "
                   "until one is back. Add another sharer of %1 or wait.")
                    .arg(provider, m.captured(2)));
        }
    }
}

void Notifications::keyBudgetReached(const QString &keyId, const QString &day, double spent)
{
    const Api::KeyInfo *key = findKey(m_keys, keyId);
    const double limit = key ? positive(key->routing.spendLimitUsdPerDay) : 0;
    const QString name = keyName(keyId);
    QString message = limit > 0 ? tr("Key %1 reached its daily spend limit of %2.").arg(name, Format::money(limit))
                                : tr("Key %1 reached its daily spend limit.").arg(name);
    if (spent >= 0)
        message += QLatin1Char(' ') + tr("Spent today: %1.").arg(Format::money(spent));
    message += QLatin1Char(' ') + tr("Its requests are refused until 00:00 UTC; raise the limit in the key's Routing to go on.");
    say(QStringLiteral("key-budget:%1:%2").arg(keyId, day), tr("Budget reached"), message);
}

void Notifications::routeBudgetReached(const QString &keyId, const QString &route, const QString &day, double spent)
{
    QString message = tr("Route %1 of key %2 spent its daily budget.").arg(route, keyName(keyId));
    if (spent >= 0)
        message += QLatin1Char(' ') + tr("Spent today: %1.").arg(Format::money(spent));
    message += QLatin1Char(' ') + tr("It is refused until 00:00 UTC.");
    say(QStringLiteral("route-budget:%1:%2:%3").arg(keyId, route, day), tr("Budget reached"), message);
}

void Notifications::deadKey(const QString &handle, const QString &provider, int status)
{
    if (handle.isEmpty())
        return;
    const QString message =
        status > 0
            ? tr("%1's key was refused by %2 (HTTP %3). The sharer is tried last until it is re-linked with a working key.")
                  .arg(sharerName(handle), provider, QString::number(status))
            : tr("%1's key was refused by %2. The sharer is tried last until it is re-linked with a working key.").arg(sharerName(handle), provider);
    say(QStringLiteral("dead:") + handle, tr("A sharer's key was refused"), message);
}

} // namespace Aile::Ui
