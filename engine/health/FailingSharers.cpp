#include "FailingSharers.h"

#include "keys/ApiKey.h"
#include "keys/KeyRouting.h"

namespace Aile::Health {

namespace {
QString entryKey(const QString &keyId, const QString &provider, const QString &handle)
{
    return keyId + QLatin1Char('\n') + provider + QLatin1Char('\n') + handle;
}
} // namespace

void FailingSharers::note(const Keys::ApiKey &key, const QString &provider, const QString &handle, bool failed, qint64 nowMs)
{
    if (!key.routingSettings().demoteFailing)
        return;
    const QString k = entryKey(key.id, provider, handle);
    if (!failed) {
        m_entries.remove(k);
        return;
    }
    Entry &e = m_entries[k];
    e.failures.removeIf([&](qint64 at) { return nowMs - at >= WindowMs; });
    e.failures.append(nowMs);
    if (e.failures.size() >= Threshold) {
        e.demotedUntilMs = nowMs + DemoteMs;
        e.failures.clear();
    }
}

bool FailingSharers::demoted(const QString &keyId, const QString &provider, const QString &handle, qint64 nowMs) const
{
    const auto it = m_entries.constFind(entryKey(keyId, provider, handle));
    return it != m_entries.constEnd() && it->demotedUntilMs > nowMs;
}

} // namespace Aile::Health
