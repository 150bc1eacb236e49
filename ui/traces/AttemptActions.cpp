#include "AttemptActions.h"

#include "common/Format.h"

#include <QtCore/QJsonArray>
#include <QtCore/QStringList>

namespace Aile::Ui {

namespace {

// The Routing dialog's field whose filter wrote this reason (engine/routing: the refusal texts).
QString leverOf(const Store::AttemptRecord &a)
{
    if (a.reason.contains(QLatin1String("x-aile-")))
        return {}; // the request's own header, not a setting of the key
    if (a.skip == QLatin1String("cost_cap"))
        return QStringLiteral("maxCost");
    static const QList<QPair<QLatin1String, QLatin1String>> byText{
        {QLatin1String("priced above"), QLatin1String("ceiling")},       {QLatin1String("below list"), QLatin1String("floor")},
        {QLatin1String("passed a test"), QLatin1String("verifiedOnly")}, {QLatin1String("train"), QLatin1String("noTraining")},
        {QLatin1String("self-hosted"), QLatin1String("selfHosted")},     {QLatin1String("provider"), QLatin1String("neverProviders")},
        {QLatin1String("allowed"), QLatin1String("onlySharers")},        {QLatin1String("block"), QLatin1String("neverSharers")}};
    for (const auto &[text, lever] : byText)
        if (a.reason.contains(text, Qt::CaseInsensitive))
            return lever;
    return {};
}

QString nameOf(const Store::AttemptRecord &a)
{
    return a.sharerName.isEmpty() ? a.sharer : a.sharerName;
}

} // namespace

QString AttemptAction::apiAction() const
{
    switch (kind) {
    case Kind::ClearCooldown: return QStringLiteral("clear-cooldown");
    case Kind::MarkFixed: return QStringLiteral("mark-fixed");
    case Kind::Retest: return QStringLiteral("retest");
    case Kind::None:
    case Kind::OpenRouting: break;
    }
    return {};
}

AttemptAction AttemptActions::suggest(const Store::AttemptRecord &a)
{
    using Kind = AttemptAction::Kind;
    if (a.sharer.isEmpty() || a.outcome == QLatin1String("served"))
        return {};
    if (a.skip == QLatin1String("cooldown"))
        return {Kind::ClearCooldown, tr("Clear cooldown"), {}};
    if (a.skip == QLatin1String("filter") || a.skip == QLatin1String("cost_cap"))
        return {Kind::OpenRouting, tr("Open the key's routing…"), leverOf(a)};
    if (a.dispatched && (a.status == 401 || a.status == 403))
        return {Kind::MarkFixed, tr("Mark key fixed and probe"), {}};
    if (a.dispatched && (a.status == 0 || a.status >= 400))
        return {Kind::Retest, tr("Re-test the model"), {}};
    return {};
}

QString AttemptActions::whyThisSharer(const Store::TraceRecord &t)
{
    QStringList out;
    const Store::AttemptRecord *served = nullptr;
    QStringList removed, tried;
    for (const Store::AttemptRecord &a : t.attemptRows) {
        if (a.outcome == QLatin1String("served") && !served)
            served = &a;
        else if (!a.dispatched && !a.sharer.isEmpty())
            removed << tr("%1 (%2)").arg(nameOf(a), a.reason);
        else if (a.dispatched && !served)
            tried << tr("%1 answered %2 (%3)").arg(nameOf(a), Format::status(a.status), a.reason);
    }
    if (served)
        out << tr("%1 served this request (%2).").arg(nameOf(*served), served->provider + QLatin1Char('/') + served->model);
    else
        out << tr("No sharer served this request.");
    if (t.affinity.startsWith(QLatin1String("pinned")) && !t.pin.isEmpty()) {
        QStringList by;
        for (const QJsonValue &v : t.pin.value(QLatin1String("by")).toArray())
            by << Format::pinEvidence(v.toString());
        out << tr("The conversation is pinned to it (evidence: %1), so it was tried first.").arg(by.join(QStringLiteral(", ")));
    }
    if (!removed.isEmpty())
        out << tr("Removed before any dial: %1.").arg(removed.join(QStringLiteral("; ")));
    if (!tried.isEmpty())
        out << tr("Tried before it: %1.").arg(tried.join(QStringLiteral("; ")));
    if (t.orderedBy == QLatin1String("speed"))
        out << tr("The key orders by speed: the fastest measured sharer first.");
    if (!served)
        return out.join(QLatin1Char('\n'));
    if (served->quoteUsd >= 0)
        out << tr("It was quoted %1 for this request.").arg(Format::money(served->quoteUsd));
    const QJsonObject plan = served->plan;
    if (plan.isEmpty()) {
        // A trace written before the plan's facts were kept: say what cannot be told.
        out << tr("The trace does not record the tier or the tie draw that ordered the remaining candidates.");
        return out.join(QLatin1Char('\n'));
    }
    out << tr("It was in tier %1 and ranked %2 of %3 candidates%4.")
               .arg(plan.value(QLatin1String("tier")).toInt())
               .arg(plan.value(QLatin1String("rank")).toInt())
               .arg(plan.value(QLatin1String("of")).toInt())
               .arg(plan.value(QLatin1String("tested")).toBool() ? tr(", having passed a test of the model") : QString());
    QStringList group;
    for (const QJsonValue &v : plan.value(QLatin1String("tieGroup")).toArray())
        group << v.toString();
    if (group.isEmpty())
        out << tr("No other candidate shared its tier, standing and price, so no draw was needed.");
    else if (plan.value(QLatin1String("drawn")).toBool())
        out << tr("It tied with %1 on tier, standing and price; a weighted draw (its weight %2, health factor %3) set their order.")
                   .arg(group.join(QStringLiteral(", ")))
                   .arg(plan.value(QLatin1String("weight")).toInt())
                   .arg(plan.value(QLatin1String("health")).toDouble(), 0, 'g', 3);
    else
        out << tr("It tied with %1 on tier, standing and price; tested sharers came first.").arg(group.join(QStringLiteral(", ")));
    if (plan.value(QLatin1String("deadKey")).toBool() || plan.value(QLatin1String("degraded")).toBool())
        out << tr("It was marked dead or degraded, so it came after every healthy candidate.");
    return out.join(QLatin1Char('\n'));
}

} // namespace Aile::Ui
