#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QString>

namespace Aile {
class Clock;
namespace Store {
class Store;
}
namespace Health {
class HealthBook;
class QuotaBook;
} // namespace Health

/// Team mode (docs/team.md "Shared health"): what one instance learns of an account — a cooldown
/// (a 429 and its reset included), a model with no quota, a spent subscription window, a dead key,
/// and the account's return — is written to the shared store and announced (NOTIFY); every other
/// instance honours it as soon as the notice arrives, and one that starts later reads the rows
/// still in force. A rate-limited account is thus not tried once per instance.
class SharedHealth
{
public:
    SharedHealth(Store::Store &store, Health::HealthBook &health, Health::QuotaBook &quota, Clock *clock);

    /// Hooks the books (their verdicts are published) and applies the rows still in force.
    void start();
    /// A notice from the health channel: applied unless this instance sent it.
    void apply(const QString &payload);

private:
    void publish(const QString &kind, const QString &handle, const QString &model, qint64 untilMs, QJsonObject verdict);
    void applyVerdict(const QJsonObject &verdict);

    Store::Store &m_store;
    Health::HealthBook &m_health;
    Health::QuotaBook &m_quota;
    Clock *m_clock;
    QString m_origin; // this instance, so it skips its own notices
};

} // namespace Aile
