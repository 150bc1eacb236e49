#pragma once

#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace Aile::Store {

/// What other instances on a shared store (PostgreSQL, team mode) announce: each announcement
/// (Store::announce, a NOTIFY delivered when its transaction commits) arrives here as changed() on
/// the thread that started the feed, within the server's round trip. The feed holds a connection
/// of its own that runs nothing but LISTEN, so a notice never waits behind a query.
/// On SQLite (one instance) start() succeeds and nothing ever arrives.
class ChangeFeed : public QObject
{
    Q_OBJECT
public:
    /// The channels the engine listens to.
    static constexpr const char *StateChannel = "aile_state";   // keys, sharers, settings, routes
    static constexpr const char *HealthChannel = "aile_health"; // cooldowns, quota windows, dead keys
    static constexpr const char *PinsChannel = "aile_pins";     // conversation pins

    explicit ChangeFeed(QString location, QObject *parent = nullptr);
    ~ChangeFeed() override;

    bool start(const QStringList &channels, QString *error);
    /// Whether the feed's own connection answers now (a trivial query); true on SQLite.
    bool alive() const;
    /// After its connection dropped: a new connection that listens to the same channels again.
    /// Notices sent meanwhile are lost, so the caller reads the shared state again.
    bool restart(QString *error);

Q_SIGNALS:
    void changed(const QString &channel, const QString &payload);

private:
    QString m_location;
    QString m_connection;
    QStringList m_channels;
};

} // namespace Aile::Store
