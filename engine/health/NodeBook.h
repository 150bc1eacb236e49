#pragma once

#include "catalog/Sharer.h"

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace Aile::Health {

using Catalog::nodeProvider; // catalog/Sharer.h

/// One model a node serves, as its GET /v1/models lists it: the provider and model it routes
/// to, the wires it speaks for it, and what it quotes ($ per million tokens; unset: un-quotable).
struct NodeModel
{
    QString provider;
    QString model;
    QStringList wires;
    std::optional<double> input;
    std::optional<double> output;
};

/// What the engine knows of its node-backed sharers, in memory: when each was last heard from
/// (a ping answer or an answer to a request) and what it serves. A node is pinged every 30 s;
/// one not heard from for 75 s (two missed pings) leaves selection until its next message
/// (docs/team.md "Silent nodes"). Only the engine thread touches it.
class NodeBook
{
public:
    static constexpr qint64 PingIntervalMs = 30'000;
    static constexpr qint64 SilentAfterMs = 75'000;

    /// Any message from the node: a ping answer, or a response head to a request sent through it.
    void heard(const QString &handle, qint64 nowMs);
    /// A ping answer: what the node serves now (replaces the previous listing).
    void setListing(const QString &handle, QList<NodeModel> models, qint64 nowMs);
    /// The node's entry for provider/model (the model id or one of its aliases), or null.
    const NodeModel *offer(const QString &handle, const QString &provider, const QStringList &modelIds) const;
    /// Empty while the node may be selected; else why not ("silent node: …").
    QString silence(const QString &handle, qint64 nowMs) const;
    qint64 lastHeardMs(const QString &handle) const { return m_nodes.value(handle).lastHeardMs; }
    /// What the node listed at its last ping answer.
    QList<NodeModel> models(const QString &handle) const { return m_nodes.value(handle).models; }
    /// What an engine lists of its nodes' models in its own GET /v1/models: never read back as a
    /// node's own (no chains of nodes).
    static QString relayedOwner() { return QStringLiteral("aile-node"); }
    /// Forgets a node that is no longer a sharer.
    void forget(const QString &handle) { m_nodes.remove(handle); }

    /// Reads a node's GET /v1/models answer: entries "<provider>/<model>" with the "aile_price"
    /// and "aile_wires" a node adds (ApiRouter::handleModels); route names, other ids and what that
    /// node itself reaches through nodes are skipped.
    static QList<NodeModel> parseListing(const QJsonObject &answer);

private:
    struct Node
    {
        qint64 lastHeardMs = 0; // 0: never heard from
        QList<NodeModel> models;
    };
    QHash<QString, Node> m_nodes;
};

} // namespace Aile::Health
