#pragma once

#include "http/UpstreamClient.h"
#include "wire/Wire.h"

#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace Aile {
namespace Http {
class HttpExchange;
class HttpHeaders;
} // namespace Http
namespace Health {
struct FailureClass;
}
namespace Keys {
struct ApiKey;
}
namespace Routing {
class Affinity;
struct Plan;
} // namespace Routing

namespace Dispatch {

class Attempt;
class RequestDeadlines;
struct SentBody;
struct DispatchServices;

/// What the relay asks of the request that owns it (ProxyRequest implements it): the request's
/// state, its trace, and the moves only the request makes (fail over, end an attempt, finish).
class RelayOwner
{
public:
    virtual Attempt *currentAttempt() const = 0;
    /// The client has had a 200 since before any answer existed (the edge hold).
    virtual bool held() const = 0;
    virtual bool finished() const = 0;
    /// The attempt's answer is now the client's: the request and its trace say so. Returns whether
    /// the client already had the held 200.
    virtual bool answerCommitted(Attempt &attempt, int status) = 0;
    /// The x-aile-* headers of a committed answer.
    virtual Http::HttpHeaders answerHeaders() const = 0;
    /// Ends the attempt as verdict says and dials the next candidate.
    virtual void failOver(const Health::FailureClass &verdict, const QString &reason, qint64 retryAfterMs = -1) = 0;
    /// A refused sharer can be asked again at atMs at the earliest (a 429's answer says when).
    virtual void noteRetryAt(qint64 atMs) = 0;
    /// Ends the current attempt and puts its row in the trace.
    virtual void endAttempt(const QString &outcome, const QString &reason) = 0;
    virtual void releaseSlot() = 0;
    /// The served attempt pinned its account to the conversation (the trace shows the pin).
    virtual void notePin(const QJsonObject &pin) = 0;
    /// The client left before the answer was whole.
    virtual void noteClientGone() = 0;
    virtual void finish() = 0;

protected:
    ~RelayOwner() = default;
};

/// The relay of one proxied request: an attempt's answer on its way to the client. It reads the
/// response head (a head that fails over drains), holds an answer back until it cannot be taken
/// back (a stream's first event, a body once complete), writes it with back-pressure, bounds what
/// an upstream may make the engine hold, and ends the attempt: served, cut, protocol error, or the
/// client gone. docs/hardening.md "Upstreams" states each rule and the test that pins it.
/// It is the listener of the current attempt's upstream call (an earlier attempt's call is aborted
/// or deleted before the next one is sent, so only the current one is heard).
class ProxyRelay final : public Http::UpstreamListener
{
public:
    struct Parts
    {
        const DispatchServices &services;
        const Keys::ApiKey &key;
        Wire::Endpoint endpoint; // the client's wire
        const SentBody &sent;
        Routing::Affinity &affinity;
        RequestDeadlines &deadlines;
        const Routing::Plan &plan;
    };
    ProxyRelay(RelayOwner &owner, const Parts &parts, Http::HttpExchange *exchange);

    // The current attempt's upstream call (Http::UpstreamListener).
    void handleUpstreamHead() override;
    void handleUpstreamBody(const QByteArray &bytes) override;
    void handleUpstreamFinished() override;
    void handleUpstreamFailed(Http::UpstreamError error, const QString &detail) override;
    // The client's side (the request hears them from its exchange and passes them on).
    void handleDrained();
    void handleClientGone();
    /// The exchange is being deleted: nothing more is written to it.
    void forgetExchange() { m_exchange = nullptr; }

    /// Ends the attempt on a failure (the upstream's, or a size cap's): fails over while nothing the
    /// client cannot take back has reached it, else tells the client in the wire's own terms.
    void failAttempt(Http::UpstreamError error, const QString &detail);

private:
    /// Starts the client's answer; length is the body's size when it is complete (not streamed).
    void commit(int status, qint64 length = -1);
    void relay(const QByteArray &bytes);
    /// Ends an attempt whose answer is over: served, passed through, an error event, or cut.
    void completeAttempt();
    /// The attempt's usage, sanity-checked (docs/hardening.md "Upstreams"), into its usage and row.
    void readUsage(Attempt &attempt);
    /// A translated attempt's row names what its request and answer dropped (docs/translation.md).
    void noteAnswerDropped(Attempt &attempt);
    /// An attempt's reason, with the note that its usage was rejected when it was.
    static QString withUsageNote(const Attempt &attempt, const QString &reason);

    RelayOwner &m_owner;
    Parts m_p;
    Http::HttpExchange *m_exchange; // null once it is deleted (forgetExchange)
};

} // namespace Dispatch
} // namespace Aile
