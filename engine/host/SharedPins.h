#pragma once

#include <QtCore/QJsonArray>
#include <QtCore/QObject>
#include <QtCore/QString>

namespace Aile {
namespace Store {
class Store;
}
namespace Routing {
class PinBook;
}

/// Team mode (docs/team.md "Conversations"): the session pins one instance makes when it serves a
/// turn are announced on the shared store (NOTIFY, batched once per event-loop turn), and every
/// other instance adopts them, so the next turn of the conversation stays on its account whichever
/// instance the balancer hands it to. Pins are announced, not stored: like a single engine's, they
/// live in memory and a restarted instance starts every conversation fresh.
class SharedPins : public QObject
{
public:
    SharedPins(Store::Store &store, Routing::PinBook &pins, QObject *parent = nullptr);

    void start();
    /// A notice from the pins channel: adopted unless this instance sent it.
    void apply(const QString &payload);

private:
    void flush();

    Store::Store &m_store;
    Routing::PinBook &m_pins;
    QString m_origin;
    QJsonArray m_pending;
    int m_pendingBytes = 0;
    bool m_flushQueued = false;
};

} // namespace Aile
