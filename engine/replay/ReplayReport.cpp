#include "ReplayReport.h"

#include <QtCore/QJsonArray>

#include <cmath>

namespace Aile::Replay {
namespace {

double cents(double usd)
{
    return std::round(usd * 1e6) / 1e6; // dollars to the micro-dollar: the ledger's own precision
}

QJsonObject countsJson(const QMap<QString, QPair<int, int>> &counts)
{
    QJsonObject o;
    for (auto it = counts.begin(); it != counts.end(); ++it)
        o.insert(it.key(), QJsonObject{{QStringLiteral("actual"), it->first}, {QStringLiteral("projected"), it->second}});
    return o;
}

} // namespace

QJsonObject Outcome::toJson() const
{
    QJsonObject o{{QStringLiteral("status"), status}, {QStringLiteral("costUsd"), cents(costUsd)}};
    if (!target.isEmpty())
        o.insert(QStringLiteral("target"), target);
    if (!sharer.isEmpty())
        o.insert(QStringLiteral("sharer"), sharer);
    if (!code.isEmpty())
        o.insert(QStringLiteral("code"), code);
    return o;
}

bool ChangedRequest::moreThan(const ChangedRequest &other) const
{
    const bool flip = actual.served() != projected.served(), otherFlip = other.actual.served() != other.projected.served();
    if (flip != otherFlip)
        return flip;
    const double delta = std::abs(projected.costUsd - actual.costUsd), otherDelta = std::abs(other.projected.costUsd - other.actual.costUsd);
    if (std::abs(delta - otherDelta) > 1e-9)
        return delta > otherDelta;
    const bool target = actual.target != projected.target, otherTarget = other.actual.target != other.projected.target;
    if (target != otherTarget)
        return target;
    return startedMs < other.startedMs; // a stable order: the earlier first
}

QJsonObject ChangedRequest::toJson() const
{
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("startedMs"), startedMs},
                       {QStringLiteral("model"), modelAsked},
                       {QStringLiteral("actual"), actual.toJson()},
                       {QStringLiteral("projected"), projected.toJson()},
                       {QStringLiteral("deltaUsd"), cents(projected.costUsd - actual.costUsd)}};
}

QJsonObject LimitHits::toJson() const
{
    QJsonObject d;
    for (auto it = days.begin(); it != days.end(); ++it)
        d.insert(it.key(), it.value());
    QJsonObject o{{QStringLiteral("requests"), requests}, {QStringLiteral("days"), d}};
    if (!days.isEmpty())
        o.insert(QStringLiteral("firstDay"), days.firstKey());
    return o;
}

QJsonObject ReplayReport::toJson() const
{
    QJsonArray daysJson;
    for (auto it = perDay.begin(); it != perDay.end(); ++it)
        daysJson.append(QJsonObject{{QStringLiteral("day"), it.key()},
                                    {QStringLiteral("requests"), it->requests},
                                    {QStringLiteral("actualServed"), it->actualServed},
                                    {QStringLiteral("projectedServed"), it->projectedServed},
                                    {QStringLiteral("actualUsd"), cents(it->actualUsd)},
                                    {QStringLiteral("projectedUsd"), cents(it->projectedUsd)}});
    QJsonArray top;
    for (const ChangedRequest &c : changed)
        top.append(c.toJson());
    QStringList notes;
    if (truncated)
        notes << QStringLiteral("only the newest %1 requests of the period were replayed").arg(recorded);
    if (withoutSession > 0)
        notes << QStringLiteral("%1 requests were recorded before Aile kept sessions and output caps: they replay without a session "
                                "(ties drawn with the replay's own seed) and priced at the default output cap")
                     .arg(withoutSession);
    if (withoutTokens > 0)
        notes << QStringLiteral("%1 requests have no token counts (refused or cut short): they are routed but priced at nothing").arg(withoutTokens);
    notes << QStringLiteral("nothing was sent, charged or written; today's prices; a sharer counts as down only where the record shows it");
    return QJsonObject{
        {QStringLiteral("key"), QJsonObject{{QStringLiteral("id"), keyId}, {QStringLiteral("name"), keyName}}},
        {QStringLiteral("days"), days},
        {QStringLiteral("sinceMs"), sinceMs},
        {QStringLiteral("untilMs"), untilMs},
        {QStringLiteral("scope"), scope},
        {QStringLiteral("route"), route},
        {QStringLiteral("edits"), QJsonArray::fromStringList(edits)},
        {QStringLiteral("requests"), QJsonObject{{QStringLiteral("recorded"), recorded},
                                                 {QStringLiteral("replayed"), replayed},
                                                 {QStringLiteral("skipped"), skipped},
                                                 {QStringLiteral("withoutTokens"), withoutTokens},
                                                 {QStringLiteral("withoutSession"), withoutSession},
                                                 {QStringLiteral("truncated"), truncated}}},
        {QStringLiteral("actual"), QJsonObject{{QStringLiteral("costUsd"), cents(actualUsd)}, {QStringLiteral("served"), actualServed}}},
        {QStringLiteral("projected"), QJsonObject{{QStringLiteral("costUsd"), cents(projectedUsd)}, {QStringLiteral("served"), projectedServed}}},
        {QStringLiteral("perDay"), daysJson},
        {QStringLiteral("perTarget"), countsJson(perTarget)},
        {QStringLiteral("perSharer"), countsJson(perSharer)},
        {QStringLiteral("budget"), budget.toJson()},
        {QStringLiteral("costCap"),
         QJsonObject{{QStringLiteral("refused"), costCapRefused.toJson()}, {QStringLiteral("capped"), costCapCapped.toJson()}}},
        {QStringLiteral("noSharer"), noSharer.toJson()},
        {QStringLiteral("healthSpans"), healthSpans},
        {QStringLiteral("changed"), changedCount},
        {QStringLiteral("topChanges"), top},
        {QStringLiteral("notes"), QJsonArray::fromStringList(notes)}};
}

} // namespace Aile::Replay
