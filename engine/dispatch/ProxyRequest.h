#pragma once

#include "core/Clock.h"
#include "http/UpstreamClient.h"
#include "keys/ApiKey.h"
#include "routing/Router.h"
#include "store/TraceRecord.h"
#include "wire/ResponseMeter.h"

#include <QtCore/QObject>
#include <QtCore/QPointer>

#include <memory>

namespace Aile {
struct EngineContext;
namespace Http {
class HttpExchange;
}

namespace Dispatch {

/// One proxied chat request: dials the plan's candidates in order with failover, relays the
/// chosen answer as it arrives, and records the trace (one row per attempt) and the ledger.
/// It deletes itself when the request is over.
class ProxyRequest : public QObject
{
    Q_OBJECT
public:
    ProxyRequest(EngineContext &context, Http::HttpExchange *exchange, const Keys::ApiKey &key,
                 Wire::Endpoint endpoint, QJsonObject body, Routing::Plan plan, Routing::ClientKind client);
    ~ProxyRequest() override;

    void start();
    QString traceId() const { return m_trace.id; }

private:
    void dialNext();
    void handleHead();
    void handleBody(const QByteArray &bytes);
    void handleUpstreamFinished();
    void handleUpstreamFailed(Http::UpstreamError error, const QString &detail);
    void handleFirstByteTimeout();
    void handleIdleCheck();
    void handleClientGone();
    void handleDrained();

    void commit(int status);
    void relay(const QByteArray &bytes);
    void endAttempt(const QString &outcome, const QString &reason);
    void failOver(const QString &outcome, const QString &reason);
    void answerFailure();
    void answerError(int status, const QString &message, const QJsonObject &extra = {});
    void finish();
    Http::HttpHeaders aileHeaders() const;
    const Routing::Candidate &current() const { return m_plan.candidates.at(m_index); }

    EngineContext &m_ctx;
    QPointer<Http::HttpExchange> m_exchange;
    Keys::ApiKey m_key;
    Wire::Endpoint m_endpoint;
    QJsonObject m_body;
    QByteArray m_upstreamBody;
    bool m_injectedUsage = false;
    bool m_clientStream = false;
    Routing::Plan m_plan;
    Routing::ClientKind m_client;

    QPointer<Http::UpstreamCall> m_call;
    int m_index = -1;
    int m_dials = 0;
    qint64 m_startedMs = 0;
    qint64 m_attemptStartedMs = 0;
    qint64 m_lastActivityMs = 0;
    bool m_committed = false;
    bool m_sse = false;
    bool m_draining = false;      // reading a failed attempt's error body
    bool m_budgetCut = false;     // this attempt ran on a shortened budget
    bool m_finished = false;
    QByteArray m_errorBody;
    std::unique_ptr<Wire::ResponseMeter> m_meter;
    Deadline m_firstByteDeadline;
    Deadline m_idleDeadline;
    Store::TraceRecord m_trace;
    Store::AttemptRecord m_attempt;
    QList<int> m_failureStatuses;
    QString m_lastFailure;
};

} // namespace Dispatch
} // namespace Aile
