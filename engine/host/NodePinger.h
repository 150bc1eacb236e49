#pragma once

#include "core/Clock.h"

#include <QtCore/QObject>

#include <map>
#include <memory>

namespace Aile {
struct EngineContext;
namespace Http {
class UpstreamCall;
}

/// Pings every node-backed sharer (provider "aile") every 30 s with GET <base>/v1/models and its
/// key: an answer is a message from the node (Health::NodeBook::heard) and tells what it serves and
/// quotes; a failure is silence. Runs on the engine thread, on the engine's Clock, so a test moves
/// the pings with a ManualClock. The node's key goes in the Authorization header only: never logged.
class NodePinger : public QObject
{
    Q_OBJECT
public:
    NodePinger(EngineContext &context, QObject *parent = nullptr);
    ~NodePinger() override;
    /// Pings every node now, then every 30 s.
    void start();

Q_SIGNALS:
    /// A ping ended: answered (a listing read) or not.
    void pinged(const QString &handle, bool answered);

private:
    void tick();
    void ping(const QString &handle);

    EngineContext &m_ctx;
    Deadline m_next;
    std::map<QString, std::unique_ptr<Http::UpstreamCall>> m_inFlight; // a ping's call, by node
};

} // namespace Aile
