#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QString>

namespace Aile::Store {

class Store;

/// The shared_health table (team mode, docs/team.md "Shared health"): one row per account, model
/// and kind of verdict, with the moment it ends. An instance that starts reads the live rows; the
/// ones that run learn each new row from its NOTIFY (ChangeFeed::HealthChannel).
class SharedHealthRows
{
public:
    explicit SharedHealthRows(const Store &store) : m_store(store) { }

    /// Saves the verdict and announces it to the other instances, in one transaction.
    bool publish(const QString &sharer, const QString &model, const QString &kind, qint64 untilMs, const QJsonObject &verdict);
    /// The account is back: its rows go, and the return is announced.
    bool publishBack(const QString &sharer, const QJsonObject &verdict);
    /// Verdicts still in force at nowMs.
    QList<QJsonObject> live(qint64 nowMs) const;

private:
    const Store &m_store;
};

} // namespace Aile::Store
