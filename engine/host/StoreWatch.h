#pragma once

#include <QtCore/QElapsedTimer>
#include <QtCore/QObject>
#include <QtCore/QTimer>

namespace Aile {
namespace Store {
class Store;
class ChangeFeed;
} // namespace Store

/// Team mode's answer to a dropped database connection (docs/team.md "Losing the database"): on
/// the engine thread, every 2 s, asks the change feed's connection a trivial query. When it or
/// the engine's own connection is gone, the store is marked unreachable (requests that need it,
/// a budget held across instances, get a 503 naming it) and both are reconnected, tried at once
/// and then after 0.5, 1, 2, 4 and 8 s (bounded), the feed listening to its channels again. Once
/// both answer: reconnected(), and the engine reads the shared state again for the notices it
/// missed. Real time: a database connection is.
class StoreWatch : public QObject
{
    Q_OBJECT
public:
    static constexpr int CheckEveryMs = 2'000;
    static constexpr int FirstRetryMs = 500;
    static constexpr int LongestRetryMs = 8'000;

    StoreWatch(Store::Store &store, Store::ChangeFeed &feed, QObject *parent = nullptr);
    void start();
    /// Checks now (tests, and the engine when a request found the store gone).
    void check();

Q_SIGNALS:
    void lost();
    void reconnected();

private:
    Store::Store &m_store;
    Store::ChangeFeed &m_feed;
    QTimer m_timer;
    QElapsedTimer m_sinceTry;
    int m_backoffMs = 0;
    bool m_down = false;
};

} // namespace Aile
