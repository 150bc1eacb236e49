#include "Affinity.h"

#include "catalog/Sharer.h"
#include "core/Clock.h"
#include "core/EngineSettings.h"
#include "keys/ApiKey.h"

#include <QtCore/QJsonArray>
#include <QtCore/QTimer>

namespace Aile::Routing {

QString pinKindName(PinKind kind)
{
    switch (kind) {
    case PinKind::Reasoning: return QStringLiteral("reasoning");
    case PinKind::ToolCall: return QStringLiteral("tool call");
    case PinKind::Thread: return QStringLiteral("thread");
    case PinKind::Conversation: return QStringLiteral("conversation");
    case PinKind::Session: return QStringLiteral("session");
    case PinKind::CacheKey: return QStringLiteral("prompt_cache_key");
    case PinKind::Opening: return QStringLiteral("opening");
    }
    return {};
}

// ---- PinBook ------------------------------------------------------------------------------------

const PinBook::Pin *PinBook::live(const QByteArray &key)
{
    if (key.isEmpty())
        return nullptr;
    auto it = m_pins.find(key);
    if (it == m_pins.end())
        return nullptr;
    if (m_clock->nowMs() - it->lastHitMs > it->ttlMs) {
        m_pins.erase(it);
        return nullptr;
    }
    return &*it;
}

std::optional<PinBook::Hit> PinBook::resolve(const SessionEvidence &ev, bool touch)
{
    const qint64 now = m_clock->nowMs();
    auto hit = [&](const QByteArray &key, PinKind kind, bool inherited) -> std::optional<Hit> {
        const Pin *p = live(key);
        if (!p || p->conflicted || p->handle.isEmpty())
            return std::nullopt;
        if (touch)
            m_pins[key].lastHitMs = now; // each hit restarts the timer
        return Hit{p->handle, kind, inherited};
    };
    // Closest first: the answer the client sent back, then its thread, its conversation inside
    // the session, where the session last was (a new conversation starts there), the cache key
    // with the opening, the opening with the first answer.
    if (auto h = hit(ev.reasoning, PinKind::Reasoning, false))
        return h;
    if (auto h = hit(ev.toolCall, PinKind::ToolCall, false))
        return h;
    if (auto h = hit(ev.conversation, ev.threadFromClient ? PinKind::Thread : PinKind::Conversation, false))
        return h;
    if (auto h = hit(ev.session, PinKind::Session, !ev.conversation.isEmpty()))
        return h;
    if (auto h = hit(ev.cacheKey, PinKind::CacheKey, false))
        return h;
    return hit(ev.opening, PinKind::Opening, false);
}

void PinBook::put(const QByteArray &key, const QString &handle, qint64 ttlMs, bool answerDigest)
{
    if (key.isEmpty())
        return;
    const qint64 now = m_clock->nowMs();
    const Pin *existing = live(key);
    Pin &p = m_pins[key];
    if (existing && answerDigest && !p.conflicted && p.handle != handle) {
        // The same reasoning or tool call id from two accounts names neither.
        p.conflicted = true;
        p.handle.clear();
    } else if (!existing || !answerDigest) {
        p.handle = handle;
        p.conflicted = false;
    }
    p.lastHitMs = now;
    p.ttlMs = ttlMs;
    if (++m_putsSincePrune >= 256)
        prune();
}

void PinBook::prune()
{
    m_putsSincePrune = 0;
    const qint64 now = m_clock->nowMs();
    for (auto it = m_pins.begin(); it != m_pins.end();)
        it = now - it->lastHitMs > it->ttlMs ? m_pins.erase(it) : std::next(it);
}

void PinBook::record(const SessionEvidence &ev, const QList<QByteArray> &answerKeys, const QString &handle, qint64 ttlMs, bool conversationPins)
{
    const QList<QByteArray> conversation =
        conversationPins ? QList<QByteArray>{ev.conversation, ev.session, ev.cacheKey, ev.opening} : QList<QByteArray>{};
    adopt(answerKeys, conversation, handle, ttlMs);
    if (m_share)
        m_share(answerKeys, conversation, handle, ttlMs);
}

void PinBook::adopt(const QList<QByteArray> &answerKeys, const QList<QByteArray> &conversationKeys, const QString &handle, qint64 ttlMs)
{
    for (const QByteArray &key : answerKeys)
        put(key, handle, ttlMs, true);
    for (const QByteArray &key : conversationKeys)
        put(key, handle, ttlMs, false);
}

void PinBook::drop(const SessionEvidence &ev, const QString &handle)
{
    for (const QByteArray &key : {ev.reasoning, ev.toolCall, ev.conversation, ev.session, ev.cacheKey, ev.opening}) {
        auto it = key.isEmpty() ? m_pins.end() : m_pins.find(key);
        if (it != m_pins.end() && it->handle == handle)
            m_pins.erase(it);
    }
}

QString PinBook::pinned(const QByteArray &key) const
{
    const auto it = m_pins.constFind(key);
    if (it == m_pins.constEnd() || it->conflicted || m_clock->nowMs() - it->lastHitMs > it->ttlMs)
        return {};
    return it->handle;
}

int PinBook::waiting(const QString &handle) const
{
    int n = 0;
    for (const Waiter &w : m_waiters.value(handle))
        if (w.owner)
            ++n;
    return n;
}

void PinBook::wait(const QString &handle, QObject *owner, std::function<void()> wake)
{
    m_waiters[handle].append(Waiter{owner, std::move(wake)});
}

void PinBook::stopWaiting(const QString &handle, QObject *owner)
{
    auto it = m_waiters.find(handle);
    if (it == m_waiters.end())
        return;
    it->removeIf([owner](const Waiter &w) { return !w.owner || w.owner == owner; });
    if (it->isEmpty())
        m_waiters.erase(it);
}

void PinBook::slotFreed(const QString &handle)
{
    auto it = m_waiters.find(handle);
    while (it != m_waiters.end() && !it->isEmpty()) {
        Waiter w = it->takeFirst();
        if (!w.owner)
            continue;
        if (it->isEmpty())
            m_waiters.erase(it);
        // Woken from the event loop, never inside the releasing request's own handler.
        QTimer::singleShot(0, w.owner.data(), std::move(w.wake));
        return;
    }
    if (it != m_waiters.end())
        m_waiters.erase(it);
}

// ---- Affinity ---------------------------------------------------------------------------------

namespace {

QString namedSharerReason(const RequestFacts &facts, const QJsonObject &body)
{
    if (facts.headers) {
        for (const char *name : {"x-aile-sharer", "x-aile-lender"})
            if (!facts.header(name).trimmed().isEmpty())
                return QStringLiteral("sharer named");
    }
    if (facts.keyRouting().onlySharers.size() == 1)
        return QStringLiteral("sharer named");
    // One machine (docs/team.md): the node named keeps the conversation, not a pin.
    if (!facts.header("x-aile-node").trimmed().isEmpty() || !facts.keyRouting().node.isEmpty())
        return QStringLiteral("machine named");
    // A request that passes an order or a sort skips affinity (docs/rules/tiers-quota-health.md).
    const QJsonObject provider = body.value(QLatin1String("provider")).toObject();
    if (!provider.value(QLatin1String("order")).toArray().isEmpty())
        return QStringLiteral("order");
    if (!provider.value(QLatin1String("sort")).toString().isEmpty() || provider.value(QLatin1String("sort")).isObject())
        return QStringLiteral("sort");
    return {};
}

} // namespace

void Affinity::place(PinBook *book, const EngineSettings &settings, Plan &plan, const RequestFacts &facts, const QJsonObject &body,
                     const SessionEvidence &evidence, Clock *clock, bool readOnly)
{
    m_book = book;
    m_clock = clock;
    m_evidence = evidence;
    const Keys::KeyRouting &routing = facts.keyRouting();
    // The key may keep its pins longer than the engine's default, never shorter.
    m_ttlMs = qMax<qint64>(1, settings.pinTtlSeconds) * 1000;
    const double keyTtl = routing.pinTtlSeconds.value_or(0);
    if (keyTtl * 1000 > m_ttlMs)
        m_ttlMs = qint64(keyTtl * 1000);
    if (!book || !routing.sticky) {
        m_mode = QStringLiteral("off"); // the session id still reaches the provider; only the pin stops
        return;
    }
    const QString skip = namedSharerReason(facts, body);
    if (!skip.isEmpty()) {
        m_mode = QStringLiteral("skipped: ") + skip;
        return;
    }
    const std::optional<PinBook::Hit> hit = book->resolve(evidence, !readOnly);
    if (!hit)
        return;
    m_pinned = hit->handle;
    m_kind = hit->kind;
    m_inherited = hit->inherited;
    qsizetype ti = -1, ci = -1;
    for (qsizetype t = 0; t < plan.targets.size() && ti < 0; ++t)
        for (qsizetype c = 0; c < plan.targets.at(t).candidates.size(); ++c)
            if (plan.targets.at(t).candidates.at(c).handle == m_pinned) {
                ti = t;
                ci = c;
                break;
            }
    if (ti < 0 || !plan.ok()) {
        m_moved = QStringLiteral("unavailable");
        for (const Target &t : plan.targets)
            for (const Refusal &r : t.refusals)
                if (r.handle == m_pinned)
                    m_moved = r.code == QLatin1String("quota_exhausted") ? r.code // a spent subscription window
                              : r.untilMs > 0                            ? QStringLiteral("cooling")
                                                                         : QStringLiteral("unavailable");
        return;
    }
    if (ti > 0 && !plan.anyProvider) {
        m_moved = QStringLiteral("order"); // a route's explicit target order comes before affinity
        return;
    }
    const Candidate &first = plan.targets.at(0).candidates.at(0);
    const Candidate &pinned = plan.targets.at(ti).candidates.at(ci);
    if (pinned.deadKey && !first.deadKey) {
        m_moved = QStringLiteral("unavailable");
        return;
    }
    // Kept while its quote is at most the tolerance (1.2×) above the current first choice.
    if (first.quoteUsd && (!pinned.quoteUsd || *pinned.quoteUsd > *first.quoteUsd * settings.affinityPriceTolerance + 1e-12)) {
        m_moved = QStringLiteral("price");
        return;
    }
    if (ti > 0)
        plan.targets.move(ti, 0);
    Target &target = plan.targets[0];
    if (ci > 0) {
        target.candidates.move(ci, 0);
        target.candidates[0].tiedWithPrevious = false;
        target.candidates[1].tiedWithPrevious = false;
    }
}

QString Affinity::verdictFor(const QString &servingHandle) const
{
    if (!m_mode.isEmpty())
        return m_mode;
    if (m_pinned.isEmpty())
        return QStringLiteral("fresh");
    if (!m_moved.isEmpty())
        return QStringLiteral("moved: ") + m_moved;
    if (servingHandle.isEmpty() || servingHandle == m_pinned)
        return QStringLiteral("pinned");
    return QStringLiteral("moved: unavailable");
}

qint64 Affinity::busyWaitMs(const Catalog::Sharer &sharer, bool stream) const
{
    if (!m_mode.isEmpty() || sharer.handle != m_pinned || !m_moved.isEmpty() || !m_book)
        return 0;
    // A new conversation (a subagent's first turn) never waits behind its session's account.
    if (m_inherited)
        return 0;
    // A move costs a subscription account's whole prompt cache and any reasoning bound to it:
    // worth up to 10 s on a stream, when nobody else is queued for it. Otherwise 1 s.
    if (sharer.isSubscription() && stream && m_book->waiting(sharer.handle) == 0)
        return SubscriptionWaitMs;
    return BusyWaitMs;
}

void Affinity::passedOver(const QString &handle, const QString &why)
{
    if (handle == m_pinned && m_moved.isEmpty())
        m_moved = why;
}

void Affinity::failed(const QString &handle)
{
    if (m_mode == QLatin1String("off") || !m_book)
        return;
    m_book->drop(m_evidence, handle);
    if (handle == m_pinned && m_moved.isEmpty())
        m_moved = QStringLiteral("failed");
}

QJsonObject Affinity::served(const QString &handle, const QString &name, const QStringList &answerReasoning, const QStringList &answerToolCalls)
{
    if (m_mode == QLatin1String("off") || !m_book)
        return {};
    QList<QByteArray> answerKeys;
    QStringList by;
    for (const QString &r : answerReasoning) {
        const QByteArray key = answerPinKey(m_evidence.scope, 'r', r);
        if (!r.isEmpty() && !answerKeys.contains(key) && answerKeys.size() < 16)
            answerKeys << key;
    }
    if (!answerKeys.isEmpty())
        by << pinKindName(PinKind::Reasoning);
    bool calledTool = false;
    for (const QString &id : answerToolCalls) {
        if (!isDistinctiveToolCallId(id) || answerKeys.size() >= 32)
            continue;
        answerKeys << answerPinKey(m_evidence.scope, 'u', id);
        calledTool = true;
    }
    if (calledTool)
        by << pinKindName(PinKind::ToolCall);
    // A one-off request whose answer calls no tool is never pinned.
    if (!m_evidence.hasConversationEvidence() && !calledTool)
        return {};
    const bool conversationPins = m_mode.isEmpty();
    m_book->record(m_evidence, answerKeys, handle, m_ttlMs, conversationPins);
    if (conversationPins) {
        if (!m_evidence.conversation.isEmpty())
            by << pinKindName(m_evidence.threadFromClient ? PinKind::Thread : PinKind::Conversation);
        if (!m_evidence.session.isEmpty())
            by << pinKindName(PinKind::Session);
        if (!m_evidence.cacheKey.isEmpty())
            by << pinKindName(PinKind::CacheKey);
        if (!m_evidence.opening.isEmpty())
            by << pinKindName(PinKind::Opening);
    }
    if (by.isEmpty())
        return {};
    QJsonObject pin{{QStringLiteral("sharer"), handle},
                    {QStringLiteral("sharerName"), name},
                    {QStringLiteral("by"), QJsonArray::fromStringList(by)},
                    {QStringLiteral("untilMs"), m_clock ? m_clock->nowMs() + m_ttlMs : 0}};
    if (!m_pinned.isEmpty())
        pin.insert(QStringLiteral("foundBy"), pinKindName(m_kind));
    if (!m_evidence.sessionSource.isEmpty())
        pin.insert(QStringLiteral("sessionFrom"), m_evidence.sessionSource);
    return pin;
}

} // namespace Aile::Routing
