// The levers of docs/keys.md beyond price: the sharer and provider lists, the cost cap, data
// collection, self-hosted capacity, the key's spend limit (speed first and demoted sharers are
// ordering: CandidateOrder.cpp). Requests, the sharers listing and dry runs read them through Router.
#include "Levers.h"

#include "health/NodeBook.h"

#include "billing/SpendBook.h"
#include "catalog/Catalog.h"
#include "catalog/Sharer.h"
#include "core/Clock.h"
#include "http/HttpHeaders.h"
#include "keys/ApiKey.h"
#include "keys/KeyRouting.h"
#include "store/Store.h"

#include <QtCore/QRegularExpression>

#include <algorithm>
#include <cmath>

namespace Aile::Routing {

namespace {

constexpr qsizetype MaxListHeaderBytes = 4096;
// The refusedBy of a sharer a route target's pin leaves out (docs/routing.md "Removal reasons").
const QLatin1String RoutePinSource("route target pin");

Plan refusal(int status, const QString &message, const QString &refusedBy = {}, const QJsonObject &more = {})
{
    Plan p;
    p.status = status;
    p.message = message;
    p.extra = more;
    if (!refusedBy.isEmpty())
        p.extra.insert(QStringLiteral("refusedBy"), refusedBy);
    return p;
}

QByteArray rawHeader(const RequestFacts &facts, const char *name)
{
    return facts.header(name).trimmed();
}

// A comma list header of sharer handles or provider ids: at most 4 KiB and 50 entries.
std::optional<Plan> readListHeader(const RequestFacts &facts, const char *name, bool handles, QStringList *out)
{
    const QByteArray raw = rawHeader(facts, name);
    if (raw.isEmpty())
        return std::nullopt;
    const QString header = QString::fromLatin1(name);
    if (raw.size() > MaxListHeaderBytes)
        return refusal(400,
                       QStringLiteral("%1 is %2 bytes long; a list header may be at most 4 KiB (%3 entries); send fewer")
                           .arg(header)
                           .arg(raw.size())
                           .arg(Keys::MaxListEntries),
                       header);
    QStringList items;
    for (const QString &part : QString::fromUtf8(raw).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString item = part.trimmed();
        if (item.isEmpty())
            continue;
        QString value = item.toLower();
        if (handles) {
            value = Catalog::normalizeHandle(item);
            if (value.isEmpty())
                return refusal(400,
                               QStringLiteral("%1: \"%2\" is not a sharer handle; handles are L followed by 16 hex digits, as on the sharer's card")
                                   .arg(header, item.left(40)),
                               header);
        }
        if (!items.contains(value))
            items << value;
    }
    if (items.size() > Keys::MaxListEntries)
        return refusal(400,
                       QStringLiteral("%1 names %2 %3; at most %4 are allowed")
                           .arg(header)
                           .arg(items.size())
                           .arg(handles ? QStringLiteral("sharers") : QStringLiteral("providers"))
                           .arg(Keys::MaxListEntries),
                       header);
    for (const QString &i : items)
        if (!out->contains(i))
            out->append(i);
    return std::nullopt;
}

QString money(double usd)
{
    return QStringLiteral("$") + QString::number(usd, 'f', usd < 0.01 ? 6 : 4);
}

int filterRank(const QString &by)
{
    if (by == QLatin1String("x-aile-sharer") || by == QLatin1String("x-aile-exclude-sharer") || by == RoutePinSource
        || by == QLatin1String("x-aile-node"))
        return 1;
    if (by == QLatin1String("x-aile-data-collection"))
        return 2;
    if (by == QLatin1String("x-aile-capacity"))
        return 3;
    if (by.contains(QLatin1String("verified")))
        return 4;
    if (by == QLatin1String("x-aile-max-cost"))
        return 6;
    return 5; // a price bound, from a header or the key
}

} // namespace

const Refusal &tellingRefusal(const QList<Refusal> &refusals)
{
    qsizetype best = 0;
    auto score = [](const Refusal &r) { return filterRank(r.refusedBy) * 2 + (r.refusedBy.startsWith(QLatin1String("x-aile-")) ? 1 : 0); };
    for (qsizetype i = 1; i < refusals.size(); ++i)
        if (score(refusals.at(i)) > score(refusals.at(best)))
            best = i;
    return refusals.at(best);
}

std::optional<Plan> Levers::readLevers(const RequestFacts &facts, Limits *out)
{
    const Keys::KeyRouting &key = facts.keyRouting();

    // Sharer lists: the headers only narrow the key's.
    QStringList only;
    for (const char *name : {"x-aile-sharer", "x-aile-lender"})
        if (auto bad = readListHeader(facts, name, true, &only))
            return bad;
    QStringList keyAllowed = key.onlySharers;
    if (!key.sharer.isEmpty())
        keyAllowed = {key.sharer};
    for (const QString &h : only) {
        if (key.neverSharers.contains(h))
            return refusal(400,
                           QStringLiteral("x-aile-sharer names %1, which this API key blocks (Never these sharers); "
                                          "remove it from the header, or unblock it on the key's Routing button")
                               .arg(h),
                           QStringLiteral("x-aile-sharer"));
        if (!keyAllowed.isEmpty() && !keyAllowed.contains(h))
            return refusal(400,
                           QStringLiteral("x-aile-sharer names %1, which is outside this API key's allowed sharers (%2); "
                                          "a header can only narrow the key's list")
                               .arg(h, keyAllowed.join(QStringLiteral(", "))),
                           QStringLiteral("x-aile-sharer"));
    }
    out->onlySharers = only.isEmpty() ? keyAllowed : only;
    out->onlyFromHeader = !only.isEmpty();
    out->onlyBy = !only.isEmpty() ? Limits::OnlyBy::Header : !key.sharer.isEmpty() ? Limits::OnlyBy::KeySharer : Limits::OnlyBy::KeyList;
    out->sharerPin = key.sharer;
    if (facts.routeTarget && !facts.routeTarget->sharer.isEmpty()) {
        // A route target pinned to one sharer: the key's lists allow it (checked when saved); a
        // header can still narrow it away.
        const QString pin = facts.routeTarget->sharer;
        if (!only.isEmpty() && !only.contains(pin))
            return refusal(400,
                           QStringLiteral("route %1 target %2 is pinned to sharer %3, which x-aile-sharer leaves out; "
                                          "add it to the header or drop the header")
                               .arg(facts.route->name, facts.routeTarget->model, pin),
                           QStringLiteral("x-aile-sharer"));
        out->onlySharers = {pin};
        out->sharerPin = pin;
        out->onlyBy = Limits::OnlyBy::RoutePin;
        out->routePin = QStringLiteral("route %1 target %2").arg(facts.route->name, facts.routeTarget->model);
    }
    out->keyNeverSharers = key.neverSharers;
    for (const char *name : {"x-aile-exclude-sharer", "x-aile-exclude-lender"})
        if (auto bad = readListHeader(facts, name, true, &out->headerNeverSharers))
            return bad;

    // Providers: the key's and the header's exclusions add up.
    if (auto bad = readListHeader(facts, "x-aile-exclude-provider", false, &out->headerExcludeProviders))
        return bad;
    out->excludeProviders = key.excludeProviders;
    for (const QString &p : out->headerExcludeProviders)
        if (!out->excludeProviders.contains(p))
            out->excludeProviders << p;

    // The cost cap: the lowest binds.
    const QByteArray costHeader = rawHeader(facts, "x-aile-max-cost");
    if (!costHeader.isEmpty()) {
        const auto cap = Keys::parseCostUsd(QString::fromUtf8(costHeader));
        if (!cap)
            return refusal(400,
                           QStringLiteral("x-aile-max-cost: \"%1\" is not a cost cap; give dollars above 0 and at most 10,000, "
                                          "with at most 6 decimals, such as 0.50 or $0.50")
                               .arg(QString::fromUtf8(costHeader.left(40))),
                           QStringLiteral("x-aile-max-cost"));
        out->costCap = *cap;
        out->costCapSource = QStringLiteral("x-aile-max-cost");
    }
    if (key.maxCostUsd && (!out->costCap || *key.maxCostUsd < *out->costCap)) {
        out->costCap = *key.maxCostUsd;
        out->costCapSource = QStringLiteral("this API key's max cost per request");
    }
    if (facts.routeTarget && facts.routeTarget->maxCostUsd && (!out->costCap || *facts.routeTarget->maxCostUsd < *out->costCap)) {
        out->costCap = *facts.routeTarget->maxCostUsd;
        out->costCapSource = QStringLiteral("route %1 target %2's max cost per request").arg(facts.route->name, facts.routeTarget->model);
    }

    // Data collection: deny fails closed; an allow header cannot lift the key's deny.
    const QByteArray data = rawHeader(facts, "x-aile-data-collection").toLower();
    if (!data.isEmpty() && data != "deny" && data != "allow")
        return refusal(400, QStringLiteral("x-aile-data-collection takes deny or allow, not \"%1\"").arg(QString::fromUtf8(data.left(40))),
                       QStringLiteral("x-aile-data-collection"));
    if (key.denyDataCollection) {
        out->denyData = true;
        out->denyDataSource = QStringLiteral("this API key's \"only providers that do not train on prompts\"");
    } else if (data == "deny") {
        out->denyData = true;
        out->denyDataSource = QStringLiteral("x-aile-data-collection: deny");
    }

    // Capacity: local (self-hosted); node or nodeless (only node-backed, or only direct sharers; docs/team.md).
    const QByteArray capacity = rawHeader(facts, "x-aile-capacity");
    for (const QString &c : capacity.isEmpty() ? QStringList() : QString::fromUtf8(capacity).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString v = c.trimmed().toLower();
        if (v == QLatin1String("local"))
            out->capacityLocal = true;
        else if (v == QLatin1String("node"))
            out->capacityNode = true;
        else if (v == QLatin1String("nodeless"))
            out->capacityNodeless = true;
        else if (!v.isEmpty())
            return refusal(400, QStringLiteral("x-aile-capacity takes local, node or nodeless, not \"%1\"").arg(v.left(40)),
                           QStringLiteral("x-aile-capacity"));
    }
    if (auto bad = readNodeLevers(facts, key, out))
        return bad;
    out->allowSelfHosted = key.allowSelfHosted;
    if (out->capacityLocal && !key.allowSelfHosted)
        return refusal(400,
                       QStringLiteral("this API key does not allow self-hosted models, so x-aile-capacity: local cannot be added; "
                                      "tick Allow self-hosted models on the key's Routing button"),
                       QStringLiteral("x-aile-capacity"));
    return std::nullopt;
}

std::optional<Plan> Levers::readNodeLevers(const RequestFacts &facts, const Keys::KeyRouting &key, Limits *out)
{
    // Node or nodeless: a header can only narrow the key's choice.
    if (out->capacityNode && out->capacityNodeless)
        return refusal(400, QStringLiteral("x-aile-capacity names both node and nodeless, which leave no sharer; send one of them"),
                       QStringLiteral("x-aile-capacity"));
    const QString asked = out->capacityNode ? QStringLiteral("node") : out->capacityNodeless ? QStringLiteral("nodeless") : QString();
    if (!key.capacity.isEmpty() && !asked.isEmpty() && asked != key.capacity)
        return refusal(400,
                       QStringLiteral("x-aile-capacity: %1 cannot widen this API key, whose capacity is %2; a header can only narrow "
                                      "the key: drop the header, or change the key's capacity on its Routing button")
                           .arg(asked, key.capacity),
                       QStringLiteral("x-aile-capacity"));
    if (!asked.isEmpty()) {
        out->capacitySource = QStringLiteral("x-aile-capacity: ") + asked;
    } else if (!key.capacity.isEmpty()) {
        out->capacityNode = key.capacity == QLatin1String("node");
        out->capacityNodeless = key.capacity == QLatin1String("nodeless");
        out->capacitySource = QStringLiteral("this API key's capacity: ") + key.capacity;
    }
    // One machine: x-aile-node, or the key's node; the header cannot move a key's pin elsewhere.
    const QByteArray raw = rawHeader(facts, "x-aile-node").trimmed();
    if (!raw.isEmpty()) {
        const QString handle = Catalog::normalizeHandle(QString::fromUtf8(raw));
        if (handle.isEmpty())
            return refusal(400,
                           QStringLiteral("x-aile-node: \"%1\" is not a node-backed sharer's handle; handles are L followed by 16 hex digits "
                                          "(GET /sharers lists the sharers of provider aile)")
                               .arg(QString::fromUtf8(raw.left(40))),
                           QStringLiteral("x-aile-node"));
        if (!key.node.isEmpty() && handle != key.node)
            return refusal(
                400,
                QStringLiteral("x-aile-node names %1, but this API key is pinned to node %2; a header can only narrow the key").arg(handle, key.node),
                QStringLiteral("x-aile-node"));
        out->nodePin = handle;
        out->nodePinSource = QStringLiteral("x-aile-node");
    } else if (!key.node.isEmpty()) {
        out->nodePin = key.node;
        out->nodePinSource = QStringLiteral("this API key's one machine");
    }
    if (!out->nodePin.isEmpty() && out->capacityNodeless)
        return refusal(
            400,
            QStringLiteral("%1 pins node %2, which %3 leaves out; send one of the two").arg(out->nodePinSource, out->nodePin, out->capacitySource),
            QStringLiteral("x-aile-capacity"));
    return std::nullopt;
}

std::optional<Plan> Levers::checkSpendLimit(const RequestFacts &facts) const
{
    if (!facts.key)
        return std::nullopt;
    const auto limit = facts.keyRouting().spendLimitUsdPerDay;
    if (!limit)
        return std::nullopt;
    const double spent = m_s.spend.spent(Store::utcDay(m_s.clock.nowMs()), facts.key->id);
    if (spent + 1e-12 < *limit)
        return std::nullopt;
    return refusal(403,
                   QStringLiteral("this API key has spent %1 of its %2 daily spend limit today (UTC), so nothing was sent; "
                                  "raise the limit on the key's Routing button or wait for 00:00 UTC")
                       .arg(money(spent), money(*limit)),
                   {}, QJsonObject{{QStringLiteral("code"), QStringLiteral("budget_exceeded")}});
}

std::optional<Plan> Levers::checkRequest(const RequestFacts &facts, const Limits &limits, const QString &provider, const QString &model) const
{
    const Catalog::ProviderInfo *info = m_s.catalog.provider(provider);
    if (!info)
        return std::nullopt;
    if (limits.excludeProviders.contains(provider)) {
        const bool byHeader = limits.headerExcludeProviders.contains(provider);
        return refusal(
            400,
            byHeader ? QStringLiteral("x-aile-exclude-provider excludes provider %1; drop it from the header or name another provider").arg(provider)
                     : QStringLiteral("this API key excludes provider %1").arg(provider),
            QStringLiteral("x-aile-exclude-provider"));
    }
    const bool chat = Wire::isChat(facts.endpoint);
    if (info->selfHosted && !limits.allowSelfHosted)
        return refusal(400,
                       QStringLiteral("this API key does not allow self-hosted models, so %1/%2 is refused; "
                                      "tick Allow self-hosted models on the key's Routing button, or name a provider")
                           .arg(provider, model),
                       QStringLiteral("x-aile-capacity"));
    if (info->selfHosted && limits.denyData)
        return refusal(400,
                       QStringLiteral("%1 refuses self-hosted models, since the sharer's own machine reads the prompt; "
                                      "name a provider that does not train on prompts")
                           .arg(limits.denyDataSource),
                       QStringLiteral("x-aile-data-collection"));
    if (!chat && limits.capacityLocal)
        return refusal(400,
                       QStringLiteral("x-aile-capacity: local does not apply to %1, which is served without self-hosted capacity; drop the header")
                           .arg(QString::fromLatin1(Wire::pathOf(facts.endpoint))),
                       QStringLiteral("x-aile-capacity"));
    if (!limits.costCap || !facts.body || facts.endpoint == Wire::Endpoint::CountTokens)
        return std::nullopt;

    // A cost cap only holds when the output cap bounds the answer.
    const QString cap = QStringLiteral("the cost cap (%1, %2)").arg(money(*limits.costCap), limits.costCapSource);
    const QString fix = QStringLiteral("send the request without a cost cap to have it served");
    const QJsonObject &body = *facts.body;
    auto unbounded = [&](const QString &why) {
        return refusal(400, QStringLiteral("%1 cannot bound this request: %2; %3").arg(cap, why, fix), QStringLiteral("x-aile-max-cost"));
    };
    if (body.contains(QLatin1String("n")) && body.value(QLatin1String("n")).toDouble(1) != 1)
        return unbounded(QStringLiteral("it asks for n=%1 choices and the quote prices one").arg(body.value(QLatin1String("n")).toDouble()));
    if (info->selfHosted && (body.contains(QLatin1String("n_predict")) || body.contains(QLatin1String("n_cmpl"))))
        return unbounded(QStringLiteral("it carries the runtime's own n_predict or n_cmpl, which the output cap does not bound"));
    if (chat && !info->outputCap)
        return unbounded(QStringLiteral("provider %1 sends no output cap upstream").arg(provider));
    if (chat && Wire::outputCapField(facts.endpoint).isEmpty())
        return unbounded(QStringLiteral("%1 has no output cap field").arg(QString::fromLatin1(Wire::pathOf(facts.endpoint))));
    const QJsonObject thinking = body.value(QLatin1String("thinking")).toObject();
    const bool budgetOnTop =
        (facts.endpoint != Wire::Endpoint::Messages && thinking.contains(QLatin1String("budget_tokens")))
        || body.contains(QLatin1String("thinking_config"))
        || body.value(QLatin1String("extra_body")).toObject().value(QLatin1String("google")).toObject().contains(QLatin1String("thinking_config"));
    if (budgetOnTop)
        return unbounded(QStringLiteral("provider %1 adds its thinking budget on top of the output cap").arg(provider));
    // Server-side tools the provider bills on its reported usage: nothing bounds what they add.
    const Catalog::ModelInfo *m = m_s.catalog.model(provider, model);
    if (m && !m->capabilities.hostedTools.isEmpty()) {
        QStringList declared;
        for (const QJsonValue &v : body.value(QLatin1String("tools")).toArray()) {
            const QJsonObject tool = v.toObject();
            QString type = tool.value(QLatin1String("type")).toString();
            static const QRegularExpression dated(QStringLiteral("_[0-9]{8}$"));
            type.remove(dated);
            if (type == QLatin1String("function") || type == QLatin1String("custom"))
                continue;
            const QString name = tool.value(QLatin1String("name")).toString();
            for (const QString &hosted : m->capabilities.hostedTools)
                if (type == hosted || type.startsWith(hosted + QLatin1Char('_')) || name == hosted)
                    declared << hosted;
        }
        if (body.contains(QLatin1String("web_search_options")) && m->capabilities.hostedTools.contains(QStringLiteral("web_search")))
            declared << QStringLiteral("web_search");
        if (!declared.isEmpty())
            return refusal(400,
                           QStringLiteral("%1 cannot bound this request: it declares %2, a server-side tool %3 bills on its reported usage; %4")
                               .arg(cap, declared.first(), provider, fix),
                           QStringLiteral("x-aile-max-cost"));
    }
    return std::nullopt;
}

QString Levers::leverRefusal(const RequestFacts &facts, const Limits &limits, const Catalog::Sharer &s, QString *by) const
{
    Q_UNUSED(facts);
    if (!limits.onlySharers.isEmpty() && !limits.onlySharers.contains(s.handle)) {
        // Named for what made the list: a route target's pin is neither the key's nor a header's.
        switch (limits.onlyBy) {
        case Limits::OnlyBy::RoutePin:
            *by = RoutePinSource;
            return QStringLiteral("not %1, the sharer %2 is pinned to").arg(limits.onlySharers.first(), limits.routePin);
        case Limits::OnlyBy::Header: *by = QStringLiteral("x-aile-sharer"); return QStringLiteral("not among the sharers x-aile-sharer allows");
        case Limits::OnlyBy::KeySharer:
            *by = QStringLiteral("x-aile-sharer");
            return QStringLiteral("not %1, this API key's one sharer").arg(limits.onlySharers.first());
        case Limits::OnlyBy::KeyList: break;
        }
        *by = QStringLiteral("x-aile-sharer");
        return QStringLiteral("not among this API key's allowed sharers");
    }
    if (limits.headerNeverSharers.contains(s.handle)) {
        *by = QStringLiteral("x-aile-exclude-sharer");
        return QStringLiteral("blocked by x-aile-exclude-sharer");
    }
    if (limits.keyNeverSharers.contains(s.handle)) {
        *by = QStringLiteral("x-aile-exclude-sharer");
        return QStringLiteral("blocked by this API key");
    }
    if (limits.denyData) {
        const Catalog::ProviderInfo *p = m_s.catalog.provider(s.provider);
        const Catalog::DataPolicy policy = s.dataCollection.value_or(p ? p->dataCollection : Catalog::DataPolicy::Unknown);
        if (!p || p->selfHosted || policy != Catalog::DataPolicy::Deny) {
            *by = QStringLiteral("x-aile-data-collection");
            return QStringLiteral("refused by %1: its data policy is %2")
                .arg(limits.denyDataSource, policy == Catalog::DataPolicy::Allow
                                                ? QStringLiteral("that it may train on prompts")
                                                : QStringLiteral("unknown (it depends on the account or is not sourced), which fails closed"));
        }
    }
    const bool node = s.provider == Health::nodeProvider();
    if (!limits.nodePin.isEmpty() && (s.handle != limits.nodePin || !node)) {
        *by = QStringLiteral("x-aile-node");
        return s.handle == limits.nodePin ? QStringLiteral("dialled directly, so not a node (%1)").arg(limits.nodePinSource)
                                          : QStringLiteral("not node %1 (%2)").arg(limits.nodePin, limits.nodePinSource);
    }
    if (limits.capacityNode && !node) {
        *by = QStringLiteral("x-aile-capacity");
        return QStringLiteral("dialled directly, not through a node (%1)").arg(limits.capacitySource);
    }
    if (limits.capacityNodeless && node) {
        *by = QStringLiteral("x-aile-capacity");
        return QStringLiteral("a node-backed sharer (%1)").arg(limits.capacitySource);
    }
    return {};
}

std::optional<Plan> Levers::leverEmptyPlan(const Target &t, const Limits &limits) const
{
    if (t.refusals.isEmpty())
        return std::nullopt;
    for (const Refusal &r : t.refusals)
        if (r.refusedBy.isEmpty())
            return std::nullopt;
    const QString what = t.provider == QLatin1String("auto") ? t.model : t.label();
    // Above the cost cap: 402 naming the cheapest quote and the cap, nothing charged.
    double cheapest = -1;
    for (const Refusal &r : t.refusals)
        if (r.refusedBy == QLatin1String("x-aile-max-cost") && r.quoteUsd >= 0 && (cheapest < 0 || r.quoteUsd < cheapest))
            cheapest = r.quoteUsd;
    const bool anyCost =
        std::any_of(t.refusals.begin(), t.refusals.end(), [](const Refusal &r) { return r.refusedBy == QLatin1String("x-aile-max-cost"); });
    if (anyCost) {
        return refusal(402,
                       cheapest >= 0 ? QStringLiteral("every sharer of %1 quotes above the cost cap: the cheapest quote is %2, the cap %3 (%4); "
                                                      "nothing was charged. Raise the cap or lower max_tokens")
                                           .arg(what, money(cheapest), money(limits.costCap.value_or(0)), limits.costCapSource)
                                     : QStringLiteral("no sharer of %1 can be quoted, so the cost cap %2 (%3) cannot bound it; nothing was charged")
                                           .arg(what, money(limits.costCap.value_or(0)), limits.costCapSource),
                       QStringLiteral("x-aile-max-cost"),
                       QJsonObject{{QStringLiteral("cheapestQuoteUsd"), cheapest}, {QStringLiteral("maxCostUsd"), limits.costCap.value_or(0)}});
    }
    const Refusal &first = tellingRefusal(t.refusals);
    if (first.refusedBy == QLatin1String("x-aile-data-collection"))
        return refusal(400,
                       QStringLiteral("%1 leaves no sharer for %2: %3; name a provider that does not train on prompts")
                           .arg(limits.denyDataSource, what, first.reason.section(QStringLiteral(": "), 1)),
                       first.refusedBy);
    if (first.refusedBy == RoutePinSource)
        return refusal(503,
                       QStringLiteral("%1 is pinned to sharer %2, which has no machine online and sharing %3 right now; "
                                      "pin the target to another sharer or remove the pin")
                           .arg(limits.routePin, limits.onlySharers.first(), what),
                       first.refusedBy);
    if (first.refusedBy == QLatin1String("x-aile-sharer") && limits.onlyBy == Limits::OnlyBy::KeySharer)
        return refusal(
            503,
            QStringLiteral("this API key's one sharer (%1) has no machine online and sharing %2 right now").arg(limits.onlySharers.first(), what),
            first.refusedBy);
    if (first.refusedBy == QLatin1String("x-aile-sharer"))
        return refusal(
            503,
            QStringLiteral("none of %1 (%2) has a machine online and sharing %3 right now")
                .arg(limits.onlyFromHeader ? QStringLiteral("the sharers x-aile-sharer allows") : QStringLiteral("this API key's allowed sharers"),
                     limits.onlySharers.join(QStringLiteral(", ")), what),
            first.refusedBy);
    return std::nullopt;
}

} // namespace Aile::Routing
