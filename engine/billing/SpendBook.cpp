#include "SpendBook.h"

#include "core/Clock.h"
#include "store/BudgetReservations.h"
#include "store/Store.h"

#include <QtCore/QDateTime>

namespace Aile::Billing {

void SpendBook::attach(const Store::Store *store, const Clock *clock)
{
    m_store = store;
    m_clock = clock;
    m_day.clear();
    m_sums.clear();
    m_listValues.clear();
}

QString SpendBook::slot(const QString &keyId, const QString &route, const QString &target)
{
    return keyId + QChar(0x1f) + route + QChar(0x1f) + target;
}

void SpendBook::load(const QString &day) const
{
    m_day = day;
    m_sums.clear();
    m_listValues.clear();
    if (!m_store)
        return;
    for (const Store::LedgerGroup &g : m_store->ledgerGroups({day})) {
        m_listValues[g.keyId] += g.listValueUsd;
        m_sums[slot(g.keyId, {}, {})] += g.costUsd;
        if (!g.route.isEmpty()) {
            m_sums[slot(g.keyId, g.route, {})] += g.costUsd;
            m_sums[slot(g.keyId, g.route, g.target)] += g.costUsd;
        }
    }
}

void SpendBook::prime(const QString &day) const
{
    if (day != m_day)
        load(day);
}

double SpendBook::spent(const QString &day, const QString &keyId, const QString &route, const QString &target) const
{
    if (m_store && m_store->isShared()) {
        const qint64 now = m_clock ? m_clock->nowMs() : QDateTime::currentMSecsSinceEpoch();
        return Store::BudgetReservations(*m_store).spent(day, keyId, route, route.isEmpty() ? QString() : target, now);
    }
    if (day != m_day)
        load(day);
    return m_sums.value(slot(keyId, route, route.isEmpty() ? QString() : target));
}

double SpendBook::listValue(const QString &day, const QString &keyId) const
{
    if (day != m_day)
        load(day);
    return m_listValues.value(keyId);
}

void SpendBook::add(const Store::LedgerEntry &e)
{
    if (e.day != m_day)
        load(e.day); // a new day: what the store holds for it, then this entry
    m_listValues[e.keyId] += e.listValueUsd;
    m_sums[slot(e.keyId, {}, {})] += e.costUsd;
    if (!e.route.isEmpty()) {
        m_sums[slot(e.keyId, e.route, {})] += e.costUsd;
        m_sums[slot(e.keyId, e.route, e.target)] += e.costUsd;
    }
}

} // namespace Aile::Billing
