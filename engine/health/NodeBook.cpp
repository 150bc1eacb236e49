#include "NodeBook.h"

#include <QtCore/QJsonArray>

namespace Aile::Health {

void NodeBook::heard(const QString &handle, qint64 nowMs)
{
    Node &n = m_nodes[handle];
    n.lastHeardMs = qMax(n.lastHeardMs, nowMs);
}

void NodeBook::setListing(const QString &handle, QList<NodeModel> models, qint64 nowMs)
{
    m_nodes[handle].models = std::move(models);
    heard(handle, nowMs);
}

const NodeModel *NodeBook::offer(const QString &handle, const QString &provider, const QStringList &modelIds) const
{
    const auto it = m_nodes.constFind(handle);
    if (it == m_nodes.constEnd())
        return nullptr;
    for (const NodeModel &m : it->models)
        if (m.provider == provider && modelIds.contains(m.model))
            return &m;
    return nullptr;
}

QString NodeBook::silence(const QString &handle, qint64 nowMs) const
{
    const qint64 last = m_nodes.value(handle).lastHeardMs;
    if (last == 0)
        return QStringLiteral("silent node: not heard from yet (it is pinged every %1 s)").arg(PingIntervalMs / 1000);
    const qint64 quiet = nowMs - last;
    if (quiet < SilentAfterMs)
        return {};
    return QStringLiteral("silent node: not heard from for %1 s (pinged every %2 s; out of selection after %3 s, back on its next answer)")
        .arg(quiet / 1000)
        .arg(PingIntervalMs / 1000)
        .arg(SilentAfterMs / 1000);
}

QList<NodeModel> NodeBook::parseListing(const QJsonObject &answer)
{
    QList<NodeModel> out;
    for (const QJsonValue &v : answer.value(QLatin1String("data")).toArray()) {
        const QJsonObject o = v.toObject();
        const QString id = o.value(QLatin1String("id")).toString();
        const qsizetype slash = id.indexOf(QLatin1Char('/'));
        const QString owner = o.value(QLatin1String("owned_by")).toString();
        if (slash <= 0 || slash == id.size() - 1 || owner == QLatin1String("aile-route") || owner == relayedOwner())
            continue;
        NodeModel m;
        m.provider = id.left(slash);
        m.model = id.mid(slash + 1);
        for (const QJsonValue &w : o.value(QLatin1String("aile_wires")).toArray())
            m.wires.append(w.toString());
        const QJsonObject price = o.value(QLatin1String("aile_price")).toObject();
        if (price.value(QLatin1String("input")).isDouble())
            m.input = price.value(QLatin1String("input")).toDouble();
        if (price.value(QLatin1String("output")).isDouble())
            m.output = price.value(QLatin1String("output")).toDouble();
        out.append(m);
    }
    return out;
}

} // namespace Aile::Health
