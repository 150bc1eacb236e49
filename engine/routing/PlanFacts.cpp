#include "PlanFacts.h"

#include <QtCore/QJsonArray>

namespace Aile::Routing {

QJsonObject planFacts(const Plan &plan, qsizetype targetIndex, qsizetype candidateIndex)
{
    if (targetIndex < 0 || targetIndex >= plan.targets.size())
        return {};
    const QList<Candidate> &all = plan.targets.at(targetIndex).candidates;
    if (candidateIndex < 0 || candidateIndex >= all.size())
        return {};
    const Candidate &c = all.at(candidateIndex);
    // The tie group: a run of candidates each tied with the one before it.
    qsizetype first = candidateIndex, last = candidateIndex;
    while (first > 0 && all.at(first).tiedWithPrevious)
        --first;
    while (last + 1 < all.size() && all.at(last + 1).tiedWithPrevious)
        ++last;
    QJsonArray group;
    for (qsizetype i = first; i <= last; ++i)
        if (i != candidateIndex)
            group.append(all.at(i).name.isEmpty() ? all.at(i).handle : all.at(i).name);
    QJsonObject o{{QStringLiteral("tier"), c.priority},
                  {QStringLiteral("weight"), c.weight},
                  {QStringLiteral("health"), c.health},
                  {QStringLiteral("tested"), c.tested},
                  {QStringLiteral("rank"), int(candidateIndex + 1)},
                  {QStringLiteral("of"), int(all.size())},
                  {QStringLiteral("tieGroup"), group},
                  {QStringLiteral("drawn"), plan.sampled && !group.isEmpty()}};
    if (c.degraded)
        o.insert(QStringLiteral("degraded"), true);
    if (c.deadKey)
        o.insert(QStringLiteral("deadKey"), true);
    if (c.demoted)
        o.insert(QStringLiteral("demoted"), true);
    return o;
}

} // namespace Aile::Routing
