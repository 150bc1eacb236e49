#pragma once

#include "ClientKind.h"
#include "billing/Quote.h"
#include "wire/Wire.h"

#include <QtCore/QJsonObject>
#include <QtCore/QList>

#include <optional>

namespace Aile {
struct EngineContext;
namespace Keys {
struct ApiKey;
}

namespace Routing {

/// What routing needs to know of a request.
struct RequestFacts
{
    Wire::Endpoint endpoint = Wire::Endpoint::Unknown;
    QString model;                         // as the client wrote it
    const Http::HttpHeaders *headers = nullptr;
    const Keys::ApiKey *key = nullptr;
    ClientKind client = ClientKind::Unknown;
    qint64 promptTokens = 0;
    qint64 maxOutputTokens = Billing::DefaultMaxTokens;
    bool stream = false;
};

/// One sharer that may serve, in routing order.
struct Candidate
{
    QString handle;
    QString name;
    QString provider;
    QString upstreamModel;                 // exactly as it goes upstream
    std::optional<Billing::Rates> rates;   // unset: un-quotable
    std::optional<double> quoteUsd;        // for the request's estimated tokens
    bool tested = false;
};

/// A sharer left out before any dial, and why.
struct Refusal
{
    QString handle;
    QString name;
    QString reason;
};

/// The ordered candidates for a request, or the error it gets before anything is dialled.
struct Plan
{
    int status = 0;                        // 0: route it; else the error status
    QString message;
    QJsonObject extra;                     // refusedBy, …
    QString provider;
    QString model;                         // the upstream model id
    QList<Candidate> candidates;
    QList<Refusal> refusals;
    bool ok() const { return status == 0; }
};

/// Request → ordered candidates: the one pipeline that requests, dry runs and the sharers
/// listing share, so they never disagree.
class Router
{
public:
    explicit Router(const EngineContext &context) : m_ctx(context) {}
    Plan plan(const RequestFacts &facts) const;

    /// Splits "provider/model" for a known provider; returns false for a bare id or an
    /// unknown prefix (prefix then holds it).
    bool splitModel(const QString &model, QString *provider, QString *id, QString *unknownPrefix) const;

private:
    void orderCandidates(const RequestFacts &facts, Plan &plan) const;
    const EngineContext &m_ctx;
};

} // namespace Routing
} // namespace Aile
