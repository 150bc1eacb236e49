#pragma once

#include "Router.h"
#include "SessionEvidence.h"

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QPointer>

#include <functional>

namespace Aile {
class Clock;
struct EngineSettings;
namespace Catalog {
struct Sharer;
}

namespace Routing {

/// Which evidence a pin was found by, closest first (SPEC §10).
enum class PinKind { Reasoning, ToolCall, Thread, Conversation, Session, CacheKey, Opening };
QString pinKindName(PinKind kind);

/// The session pins of the engine, in memory only: pin key (a digest) → the account that served.
/// A pin expires when it has not been hit for its time to live. A digest of an answer that two
/// accounts produced pins nothing. Also the queue of requests waiting for a busy pinned account.
class PinBook
{
public:
    explicit PinBook(Clock *clock) : m_clock(clock) { }

    struct Hit
    {
        QString handle;
        PinKind kind = PinKind::Session;
        bool inherited = false; // a new conversation starting where its session last was
    };
    /// The closest live pin the evidence names; touch restarts its timer (a dry run only looks).
    std::optional<Hit> resolve(const SessionEvidence &evidence, bool touch = true);
    /// The account handle served the request cleanly: pins the evidence's keys, and the answer's
    /// own reasoning and tool call ids (answerKeys), to it.
    void record(const SessionEvidence &evidence, const QList<QByteArray> &answerKeys, const QString &handle, qint64 ttlMs, bool conversationPins);
    /// Team mode: called with the pins each record() makes, to share them (SharedPins, docs/team.md).
    using Share =
        std::function<void(const QList<QByteArray> &answerKeys, const QList<QByteArray> &conversationKeys, const QString &handle, qint64 ttlMs)>;
    void setShare(Share share) { m_share = std::move(share); }
    /// Pins another instance made, taken as if record() had made them here (never shared back).
    void adopt(const QList<QByteArray> &answerKeys, const QList<QByteArray> &conversationKeys, const QString &handle, qint64 ttlMs);
    /// The account failed the session: every pin of this evidence that names it goes.
    void drop(const SessionEvidence &evidence, const QString &handle);
    /// The account a pin key names now, or empty (tests and the trace).
    QString pinned(const QByteArray &key) const;
    int size() const { return int(m_pins.size()); }
    void clear() { m_pins.clear(); }

    /// Requests waiting for a busy account: woken one at a time as its slots free up.
    int waiting(const QString &handle) const;
    void wait(const QString &handle, QObject *owner, std::function<void()> wake);
    void stopWaiting(const QString &handle, QObject *owner);
    void slotFreed(const QString &handle);

private:
    struct Pin
    {
        QString handle;
        qint64 lastHitMs = 0;
        qint64 ttlMs = 0;
        bool conflicted = false; // two accounts produced this digest
    };
    struct Waiter
    {
        QPointer<QObject> owner;
        std::function<void()> wake;
    };
    const Pin *live(const QByteArray &key);
    void put(const QByteArray &key, const QString &handle, qint64 ttlMs, bool answerDigest);
    void prune();

    Clock *m_clock;
    QHash<QByteArray, Pin> m_pins;
    Share m_share;
    QHash<QString, QList<Waiter>> m_waiters;
    int m_putsSincePrune = 0;
};

/// One request's session affinity: reads its evidence, puts the pinned account first when the
/// rules allow, decides how long a busy pinned account is waited for, and records or drops the
/// pins as the attempts end. The verdict goes to x-aile-session-affinity and the trace:
/// fresh, pinned, off, skipped: <why>, moved: <why>.
class Affinity
{
public:
    Affinity() = default;
    /// Reads the request and places the pinned account in the plan (step 3 of the order).
    /// readOnly: a dry run's placement, which leaves the pins' timers alone.
    void place(PinBook *book, const EngineSettings &settings, Plan &plan, const RequestFacts &facts, const QJsonObject &body,
               const SessionEvidence &evidence, Clock *clock, bool readOnly = false);

    /// The verdict if handle serves (or, empty, before anything served).
    QString verdictFor(const QString &servingHandle) const;
    const QString &pinnedHandle() const { return m_pinned; }

    /// How long to wait for the pinned account when it is busy: 0 when not at all.
    qint64 busyWaitMs(const Catalog::Sharer &sharer, bool stream) const;
    /// The pinned account was passed over at dial time (cooling, busy).
    void passedOver(const QString &handle, const QString &why);
    /// An attempt on handle failed: it loses this conversation's pins.
    void failed(const QString &handle);
    /// handle served cleanly: pins it. answerReasoning / answerToolCalls are what the answer held.
    /// Returns the pin as the trace shows it (empty when nothing was pinned).
    QJsonObject served(const QString &handle, const QString &name, const QStringList &answerReasoning, const QStringList &answerToolCalls);

    static constexpr qint64 SubscriptionWaitMs = 10'000;
    static constexpr qint64 BusyWaitMs = 1'000;

private:
    PinBook *m_book = nullptr;
    Clock *m_clock = nullptr;
    SessionEvidence m_evidence;
    QString m_mode;   // empty: active; "off", "skipped: …"
    QString m_pinned; // the account the conversation's pin named
    PinKind m_kind = PinKind::Session;
    bool m_inherited = false;
    QString m_moved; // why the pinned account does not serve
    qint64 m_ttlMs = 0;
};

} // namespace Routing
} // namespace Aile
