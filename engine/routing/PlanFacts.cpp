#include "PlanFacts.h"

#include <QtCore/QJsonArray>
#include <QtCore/QStringList>

#include <array>
#include <optional>

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
    QStringList group;
    for (qsizetype i = first; i <= last; ++i)
        if (i != candidateIndex)
            group.append(all.at(i).name.isEmpty() ? all.at(i).handle : all.at(i).name);
    const bool drawn = plan.sampled && !group.isEmpty();
    // The same facts come back request after request (a sharer's standing changes far less often
    // than it is dialled): the objects built lately are kept, and one with equal facts is shared
    // (a QJsonObject copy is a reference count) instead of built again. Per thread: the engine's
    // and a replay's each keep their own.
    struct Built
    {
        int priority, weight;
        double health;
        bool tested, degraded, deadKey, demoted, drawn;
        qsizetype rank, of;
        QStringList group;
        QJsonObject facts;
        bool sameAs(const Candidate &c, qsizetype r, qsizetype n, const QStringList &g, bool d) const
        {
            return health == c.health && sameButHealth(c, r, n, g, d);
        }
        bool sameButHealth(const Candidate &c, qsizetype r, qsizetype n, const QStringList &g, bool d) const
        {
            return priority == c.priority && weight == c.weight && tested == c.tested && degraded == c.degraded && deadKey == c.deadKey
                   && demoted == c.demoted && drawn == d && rank == r && of == n && group == g;
        }
    };
    constexpr int Kept = 16;
    thread_local std::array<std::optional<Built>, Kept> built;
    thread_local int nextSlot = 0;
    const qsizetype rank = candidateIndex + 1, of = all.size();
    for (const std::optional<Built> &b : built)
        if (b && b->sameAs(c, rank, of, group, drawn))
            return b->facts;
    auto keep = [&](const QJsonObject &o) {
        built[nextSlot] = Built{c.priority, c.weight, c.health, c.tested, c.degraded, c.deadKey, c.demoted, drawn, rank, of, group, o};
        nextSlot = (nextSlot + 1) % Kept;
        return o;
    };
    // The health factor moves with nearly every answer (the time to first byte is a moving
    // average), the other facts far less often: an object with the same other facts is copied
    // and its health replaced, a fraction of the cost of inserting every member afresh.
    for (const std::optional<Built> &b : built) {
        if (b && b->sameButHealth(c, rank, of, group, drawn)) {
            QJsonObject o = b->facts;
            o.insert(QStringLiteral("health"), c.health);
            return keep(o);
        }
    }
    QJsonObject o{{QStringLiteral("tier"), c.priority},
                  {QStringLiteral("weight"), c.weight},
                  {QStringLiteral("health"), c.health},
                  {QStringLiteral("tested"), c.tested},
                  {QStringLiteral("rank"), int(rank)},
                  {QStringLiteral("of"), int(of)},
                  {QStringLiteral("tieGroup"), QJsonArray::fromStringList(group)},
                  {QStringLiteral("drawn"), drawn}};
    if (c.degraded)
        o.insert(QStringLiteral("degraded"), true);
    if (c.deadKey)
        o.insert(QStringLiteral("deadKey"), true);
    if (c.demoted)
        o.insert(QStringLiteral("demoted"), true);
    return keep(o);
}

} // namespace Aile::Routing
